"""Writing outputs atomically: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, data: bytes | str) -> Path:
    """Write *data* (text is written as UTF-8) to *path* via a temporary file and a rename.

    >>> import tempfile, pathlib
    >>> p = write_atomic(pathlib.Path(tempfile.mkdtemp()) / "a" / "x.txt", "hi")
    >>> p.read_text(), oct(p.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    ('hi', True)
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; outputs follow the user's umask
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
