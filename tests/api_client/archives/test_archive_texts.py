"""The archive's compressed texts read back as they were stored, whatever happened to the batch
that trained the dictionary."""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from api_client.archives.texts import DDL, TRAIN_MIN, TextCodec

texts = st.one_of(st.none(), st.text(max_size=400))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(texts, texts, texts, texts), min_size=1, max_size=30))
def test_any_texts_read_back_as_stored(rows: list[tuple[str | None, ...]]) -> None:
    conn = sqlite3.connect(":memory:")
    conn.executescript(DDL)
    codec = TextCodec(conn)
    clean = [tuple(None if t is None else t.encode("utf-8", "replace").decode() for t in r) for r in rows]
    assert [codec.decode(v) for v in codec.encode_many(clean)] == clean


def test_a_dictionary_trained_in_a_rolled_back_batch_is_not_used_after() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.executescript(DDL)
    codec = TextCodec(conn)
    first = [(f"prompt {i} about apples and pears", None, f"reply {i} " * 5, None) for i in range(TRAIN_MIN)]
    conn.execute("BEGIN")
    codec.encode_many(first)  # trains dictionary 1 ...
    conn.execute("ROLLBACK")  # ... which the rollback takes away
    second = [(f"question {i}: why is the sky blue", None, f"answer {i} " * 7, "e") for i in range(TRAIN_MIN)]
    stored = codec.encode_many(second)  # trains dictionary 1 again, on other text
    assert stored[0][0] == 1
    fresh = TextCodec(conn)  # another reader of the file
    assert [fresh.decode(v) for v in stored] == second
