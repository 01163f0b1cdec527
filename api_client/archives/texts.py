"""A call's text, stored compressed: prompt, messages (JSON), response and error in one zstd frame.

One frame per call, not one per column: the user's message is in the prompt and again in
``messages``, and zstd stores the second copy as a reference to the first. The frame is
compressed with the archive's trained dictionary (``text_dicts``) once one exists: calls of
one model share their phrasing, and a dictionary trained on the archive's first batch takes a
call's text from ~2.1x to ~3x (natural text, 20k calls: 495 -> 351 bytes a call; reading one
back ~2-5 us). Small archives (fewer than ``TRAIN_MIN`` calls in their first batch) stay
without one until a batch is big enough to train on.

Stored value: one byte, the dictionary's number (0: none), then a magic-less zstd frame (no
checksum, no dictionary id: the byte says which) of ``_HEADER`` (the four fields' lengths in
UTF-8 bytes, ``_NONE`` for a None) and the four texts one after the other.
"""

from __future__ import annotations

import sqlite3
import struct
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import zstandard

TextFields = tuple["str | None", "str | None", "str | None", "str | None"]
"""(prompt, messages JSON, response, error)."""

LEVEL = 3
"""zstd level: 6 saves ~7% more at ~3x the CPU (natural text, with a dictionary)."""
DICT_BYTES = 64 * 1024
TRAIN_MIN = 1000
"""Calls in one batch before a dictionary is trained on it (fewer give a poor dictionary)."""
TRAIN_SAMPLES = 1000
"""Calls a dictionary is trained on: 0.1 s; 2,000 or 5,000 gave 0.3-0.6% smaller texts for 2-4x the time."""
_HEADER = struct.Struct("<4I")
_NONE = 0xFFFFFFFF
_FORMAT = zstandard.FORMAT_ZSTD1_MAGICLESS

DDL = """
CREATE TABLE IF NOT EXISTS text_dicts (
    id   INTEGER PRIMARY KEY,
    dict BLOB NOT NULL
);
"""


def pack(fields: Sequence[str | None]) -> bytes:
    """The four texts as one uncompressed body."""
    encoded = [None if f is None else f.encode() for f in fields]
    header = _HEADER.pack(*(_NONE if e is None else len(e) for e in encoded))
    return header + b"".join(e for e in encoded if e is not None)


def unpack(body: bytes) -> TextFields:
    lengths = _HEADER.unpack_from(body)
    out: list[str | None] = []
    at = _HEADER.size
    view = memoryview(body)
    for n in lengths:
        if n == _NONE:
            out.append(None)
        else:
            out.append(str(view[at : at + n], "utf-8"))
            at += n
    return out[0], out[1], out[2], out[3]


@dataclass(frozen=True, slots=True)
class Ahead:
    """Stored values compressed ahead of their transaction, and the dictionary they need."""

    number: int
    dictionary: zstandard.ZstdCompressionDict
    values: list[bytes]


class TextCodec:
    """Compresses and reads back the calls' text of one archive file (its dictionaries are
    read from ``conn`` when first needed). Safe to share between threads: each thread gets
    its own (de)compressors."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = self._conn = conn
        self._dicts: dict[int, zstandard.ZstdCompressionDict] = {}
        self._local = threading.local()
        self._lock = threading.Lock()
        self._last_used = 0
        """The dictionary ``encode_many`` last compressed with (0: none yet): ``encode_ahead``'s."""

    # ------------------------------------------------------------------ reading

    def decode(self, value: bytes | None) -> TextFields:
        if value is None:
            return None, None, None, None
        return unpack(self._decompressor(value[0]).decompress(value[1:]))

    def decode_column(self, value: bytes | None, column: int) -> str | None:
        return self.decode(value)[column]

    def _decompressor(self, number: int) -> zstandard.ZstdDecompressor:
        cache: dict[int, tuple[object, zstandard.ZstdDecompressor]] | None = getattr(self._local, "d", None)
        if cache is None:
            cache = self._local.d = {}
        wanted = self._dict(number) if number else None
        found = cache.get(number)
        if found is None or found[0] is not wanted:  # (a dictionary trained again after a rollback)
            params: dict[str, Any] = {"format": _FORMAT}
            if wanted is not None:
                params["dict_data"] = wanted
            found = cache[number] = (wanted, zstandard.ZstdDecompressor(**params))
        return found[1]

    def _dict(self, number: int) -> zstandard.ZstdCompressionDict:
        with self._lock:
            found = self._dicts.get(number)
            if found is None:
                row = self._conn.execute("SELECT dict FROM text_dicts WHERE id = ?", (number,)).fetchone()
                if row is None:
                    raise sqlite3.DatabaseError(f"malformed archive: text dictionary {number} is missing")
                found = self._dicts[number] = zstandard.ZstdCompressionDict(row[0])
            return found

    # ------------------------------------------------------------------ writing

    def encode_many(self, rows: Iterable[Sequence[str | None]]) -> list[bytes]:
        """The stored values of these texts, with the newest dictionary; when there is none
        yet and the batch is big enough, one is trained on it first and stored (the caller
        holds a write transaction)."""
        bodies = list(map(pack, rows))
        number = self._newest()
        if number == 0 and len(bodies) >= TRAIN_MIN:
            number = self._train(bodies)
        with self._lock:
            self._last_used = number
        return _compressed(self._compressor(number), number, bodies)

    def encode_ahead(self, rows: Iterable[Sequence[str | None]]) -> Ahead | None:
        """As ``encode_many``, ahead of the write transaction and without the connection (a
        thread compresses the next batch while another stores the last): with the dictionary
        ``encode_many`` last used, when it used one. None when there is none at hand (the
        batch is then compressed in its transaction, where a dictionary is trained or read).
        The caller checks ``holds`` in the transaction before storing the values."""
        with self._lock:
            number = self._last_used
        if not number:
            return None
        dictionary, compressor = self._compressor_pair(number)
        if dictionary is None:
            return None
        return Ahead(number, dictionary, _compressed(compressor, number, list(map(pack, rows))))

    def holds(self, ahead: Ahead) -> bool:
        """The archive holds the dictionary ``ahead``'s values were compressed with (not one
        rolled back, or trained again by another writer since). Caller holds a transaction."""
        row = self._conn.execute("SELECT dict FROM text_dicts WHERE id = ?", (ahead.number,)).fetchone()
        return row is not None and row[0] == ahead.dictionary.as_bytes()

    def _newest(self) -> int:
        row = self._conn.execute("SELECT max(id) FROM text_dicts").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def _train(self, bodies: list[bytes]) -> int:
        step = max(1, len(bodies) // TRAIN_SAMPLES)
        try:
            samples: list[bytes | bytearray | memoryview] = list(bodies[::step])
            trained = zstandard.train_dictionary(DICT_BYTES, samples, level=LEVEL)
        except zstandard.ZstdError:  # too little or too uniform text to train on: none, for now
            return 0
        cur = self._conn.execute("INSERT INTO text_dicts(dict) VALUES (?)", (trained.as_bytes(),))
        number = int(cur.lastrowid or 0)
        if not 0 < number < 256:
            raise sqlite3.DatabaseError("malformed archive: too many text dictionaries")
        with self._lock:
            self._dicts[number] = trained
        return number

    def _compressor(self, number: int) -> zstandard.ZstdCompressor:
        return self._compressor_pair(number)[1]

    def _compressor_pair(self, number: int) -> tuple[zstandard.ZstdCompressionDict | None, zstandard.ZstdCompressor]:
        """This thread's compressor for dictionary ``number`` (0: none), with that dictionary."""
        cache: dict[int, tuple[zstandard.ZstdCompressionDict | None, zstandard.ZstdCompressor]] | None = getattr(
            self._local, "c", None
        )
        if cache is None:
            cache = self._local.c = {}
        wanted = self._dict(number) if number else None
        found = cache.get(number)
        if found is None or found[0] is not wanted:  # (a dictionary trained again after a rollback)
            params = zstandard.ZstdCompressionParameters.from_level(
                LEVEL, format=_FORMAT, write_checksum=0, write_dict_id=0, write_content_size=1
            )
            extra: dict[str, Any] = {} if wanted is None else {"dict_data": wanted}
            found = cache[number] = (wanted, zstandard.ZstdCompressor(compression_params=params, **extra))
        return found


def _compressed(compressor: zstandard.ZstdCompressor, number: int, bodies: list[bytes]) -> list[bytes]:
    """The stored values of these bodies: the dictionary's number, then the frame. A batch is
    compressed in one call where the binding has one (the C backend): the GIL is released once
    for the batch, not once a call, so the export's other threads are not kept waiting for it
    thousands of times a batch; the frames are the same bytes as one ``compress`` each."""
    tag = bytes((number,))
    if len(bodies) > 1:
        sources: list[bytes | bytearray | memoryview] = list(bodies)
        try:
            frames = compressor.multi_compress_to_buffer(sources)
        except NotImplementedError:  # (the CFFI backend)
            pass
        else:
            return [tag + frames[i].tobytes() for i in range(len(sources))]
    compress = compressor.compress
    return [tag + compress(b) for b in bodies]
