"""Write a file whole or not at all: the one atomic write every layer uses.

A temporary file in the target's own folder (so the final rename is atomic on one file
system), written, flushed and fsynced, then ``os.replace``d over the target. A failed or
interrupted write leaves the old file as it was and no temporary file behind.

Permissions: a secret (``private=True``) is 0600 from the first byte and stays 0600; any other
file keeps the mode of the file it replaces, or gets the mode a normally created file would get
(0666 less the umask) when it is new.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

PRIVATE_MODE = 0o600


def _final_mode(dest: Path, private: bool) -> int:
    if private:
        return PRIVATE_MODE
    try:
        return dest.stat().st_mode & 0o777
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def temp_beside(dest: Path, *, private: bool = False) -> Path:
    """A new empty file in ``dest``'s folder, with the permissions ``dest`` will have; for
    writers that fill it themselves and call :func:`commit` (or unlink it on failure)."""
    fd, name = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    os.close(fd)
    os.chmod(name, _final_mode(dest, private))
    return Path(name)


def commit(temp: Path, dest: Path) -> None:
    """Rename a written (and fsynced) temporary file over ``dest``."""
    os.replace(temp, dest)


@contextlib.contextmanager
def atomic_writer(dest: Path, *, binary: bool = False, private: bool = False) -> Iterator[IO[Any]]:
    """A file to write (UTF-8 text with ``\\n`` line ends, or bytes with ``binary=True``); it
    becomes ``dest`` when the block ends without an exception, and vanishes otherwise."""
    dest = Path(dest)
    temp = temp_beside(dest, private=private)
    try:
        with open(temp, "wb") if binary else open(temp, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        commit(temp, dest)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def write_atomic(dest: Path, data: str | bytes, *, private: bool = False) -> None:
    """Write ``data`` to ``dest`` whole or not at all (see the module docstring)."""
    if isinstance(data, bytes):
        with atomic_writer(dest, binary=True, private=private) as out:
            out.write(data)
    else:
        with atomic_writer(dest, private=private) as text_out:
            text_out.write(data)
