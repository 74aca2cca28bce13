"""Real SPARQL servers on loopback for the remote-store tests: Oxigraph's server and Virtuoso.

Each is started by the test in a temporary folder on a free port, and stopped by it; a test
skips, saying why, where the server's program is not installed.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import stop_process


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def oxigraph_program() -> str:
    """The ``oxigraph`` server program (the ``oxigraph`` package on the index), or skip."""
    found = shutil.which("oxigraph") or shutil.which("oxigraph", path=str(Path(sys.executable).parent))
    if not found:
        pytest.skip("no `oxigraph` server program (pip install oxigraph, in the test extra) to test a remote store")
    return found


def wait_for(url: str, process: subprocess.Popen, seconds: float = 30.0) -> None:
    """Wait until *url* answers an HTTP request (any status), or fail with the server's output."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped with status {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"no answer from {url} in {seconds} s")


@dataclass
class Server:
    """A server the test started: where to query and update, and how to stop or restart it."""

    query: str
    update: str
    folder: Path
    process: subprocess.Popen | None = None
    command: list[str] = field(default_factory=list)

    def stop(self, kill: bool = False) -> None:
        if self.process is not None and self.process.poll() is None:
            if kill:
                self.process.kill()
                self.process.wait()
            else:
                stop_process(self.process)
        self.process = None


def start_oxigraph(folder: Path, port: int | None = None) -> Server:
    """``oxigraph serve`` on *folder* (its data persists there) at a free loopback port."""
    program = oxigraph_program()
    port = port or free_port()
    folder.mkdir(parents=True, exist_ok=True)
    log = open(folder.parent / f"{folder.name}-{port}.log", "wb")
    process = subprocess.Popen([program, "serve", "--location", str(folder), "--bind", f"127.0.0.1:{port}"],
                               stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_for(base + "/", process)
    return Server(base + "/query", base + "/update", folder, process)
