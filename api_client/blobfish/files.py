"""Write a file whole or not at all: a temporary file beside it, renamed over it at the end.

A failed or interrupted export leaves nothing behind (no half file under the final name, no
temporary file either); the rename is atomic on one file system, which is why the temporary
file sits in the same directory.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_writer(dest: Path) -> Iterator[BinaryIO]:
    """A binary file to write; it becomes ``dest`` when the block ends without an exception."""
    dest = Path(dest)
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed below, on every path)
        dir=dest.parent or Path("."), prefix=f".{dest.name}.", suffix=".part", delete=False
    )
    temp = Path(handle.name)
    try:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        os.replace(temp, dest)
    except BaseException:
        handle.close()
        temp.unlink(missing_ok=True)
        raise
