"""The output folder replaced as a set: a build writes a fresh folder beside ``out/`` and swaps it in
with one rename, under a lock, so a reader (or a crash) sees the old set or the new one, never a mix.

Beside ``out/`` in its parent folder: ``.out.lock`` (held with ``flock`` while a build runs),
``.out.new-PID`` (the set being written) and ``.out.old-PID`` (the previous set, deleted once the
new one is in). A build that finds such leftovers from a crashed build removes them first; if
the crash came between the two renames of the fallback swap, it puts the old set back.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import fcntl
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

from kg.errors import UserError

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _leftovers(out: Path, kind: str) -> list[Path]:
    return sorted(out.parent.glob(f".{out.name}.{kind}-*"))


@contextmanager
def build_lock(out: Path):
    """Hold the build lock of *out* (a file beside it); a second build fails with one clear line."""
    out.parent.mkdir(parents=True, exist_ok=True)
    lock = open(out.parent / f".{out.name}.lock", "a")  # noqa: SIM115 (held for the whole block)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(f"another kg build is writing {out}/ now; wait for it to finish, then build again") \
                from None
        recover(out)
        yield
    finally:
        lock.close()


def recover(out: Path) -> None:
    """Clean what a crashed build left beside *out* (call under the lock)."""
    olds = _leftovers(out, "old")
    if not out.exists() and olds:  # killed between the two renames of the fallback swap
        os.rename(olds[-1], out)
        olds = olds[:-1]
    for path in olds + _leftovers(out, "new"):
        shutil.rmtree(path, ignore_errors=True)


def staging_folder(out: Path) -> Path:
    """A fresh, empty folder beside *out* to write the new set into."""
    stage = out.parent / f".{out.name}.new-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    os.chmod(stage, 0o755)
    return stage


def carry_over(out: Path, stage: Path, written: set[str]) -> None:
    """Copy into *stage* what the user keeps in *out* that no build writes (a report, a page)."""
    if not out.is_dir():
        return
    for entry in out.iterdir():
        if entry.name in written or (stage / entry.name).exists():
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, stage / entry.name, symlinks=True)
        else:
            shutil.copy2(entry, stage / entry.name, follow_symlinks=False)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2``); False where the system cannot."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        rename = libc.renameat2
    except (OSError, AttributeError, TypeError):
        return False
    return rename(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0


def swap_in(stage: Path, out: Path) -> None:
    """Put *stage* in place of *out* and delete the previous set."""
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists() and _exchange(stage, out):
        os.rename(stage, old)
    else:
        if out.exists():
            os.rename(out, old)
        os.rename(stage, out)
    shutil.rmtree(old, ignore_errors=True)
