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
from dataclasses import dataclass
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
    gsp: str | None = None

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


VIRTUOSO_INI = """[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
LockFile = {dir}/virtuoso.lck
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0
[Parameters]
ServerPort = {sql_port}
DisableUnixSocket = 1
MaxClientConnections = 10
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ., {dir}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
ThreadsPerQuery = 2
[HTTPServer]
ServerPort = {http_port}
ServerRoot = {dir}
MaxClientConnections = 10
ServerThreads = 10
Charset = UTF-8
EnabledGzipContent = 0
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 300
MaxQueryCostEstimationTime = 400
"""


def start_virtuoso(folder: Path, max_rows: int = 1_000_000) -> Server:
    """Debian's ``virtuoso-t`` in the foreground with its own database and ini in *folder*, on free ports.

    Reads go to ``/sparql``; writes to ``/sparql-auth`` (updates) and ``/sparql-graph-crud-auth``
    (the Graph Store Protocol), with HTTP digest authentication as ``dba`` (password ``dba`` in a new
    database); ``Server.update`` is the update endpoint and ``Server.gsp`` the graph store. Answers
    are cut at *max_rows* rows (``ResultSetMaxRows``).
    """
    program = shutil.which("virtuoso-t")
    if not program:
        pytest.skip("no `virtuoso-t` (Debian's virtuoso-opensource package; .ci/run installs it) "
                    "to test kg on Virtuoso")
    folder.mkdir(parents=True, exist_ok=True)
    http_port, sql_port = free_port(), free_port()
    ini = folder / "virtuoso.ini"
    ini.write_text(VIRTUOSO_INI.format(dir=folder, sql_port=sql_port, http_port=http_port).replace(
        "ResultSetMaxRows = 1000000", f"ResultSetMaxRows = {max_rows}"))
    log = open(folder / "stdout.log", "wb")
    process = subprocess.Popen([program, "+foreground", "+configfile", str(ini)], cwd=folder,
                               stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{http_port}"
    wait_for(base + "/sparql?query=ASK%7B%7D", process, seconds=90)
    return Server(base + "/sparql", base + "/sparql-auth", folder, process, base + "/sparql-graph-crud-auth")
