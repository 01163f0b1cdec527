"""The calls a streamed report may quote, without holding them: an index of the failing calls
(when each was made, which user text it sent) and a way to read a call again by its id.

``suggest_training_data`` picks the prompts it quotes among a group's failing calls, newest
first, one per distinct user text, the most repeated first. That needs, per failing call, only
its time and which text it sent (a 64-bit digest of the whole text: equal texts, equal
digests); the calls themselves are needed only for the few quoted, read again at the end by id
(from the archive, which can be read by id). A million calls then leave behind a few bytes per
failing call instead of the calls with a finding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping

from common.records import Call

__all__ = ["CallIndex", "QuotableCalls", "text_key"]

#: Failing call id -> (created_at in ms, ``text_key`` of the user's whole words, stripped).
CallIndex = Mapping[str, tuple[int, int]]


def text_key(text: str) -> int:
    """A 64-bit digest of a text: the same in every process (``hash`` is salted per process)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")


class QuotableCalls(Mapping[str, Call]):
    """The failing calls of ``index`` by id; a call is read (``load``: ids -> calls) when first asked for."""

    def __init__(self, index: CallIndex, load: Callable[[list[str]], Mapping[str, Call]]) -> None:
        self.index = index
        self._load = load
        self._read: dict[str, Call] = {}

    def __contains__(self, log_id: object) -> bool:
        return log_id in self.index

    def __getitem__(self, log_id: str) -> Call:
        entry = self._read.get(log_id)
        if entry is None:
            if log_id not in self.index:
                raise KeyError(log_id)
            self.preload([log_id])
            entry = self._read[log_id]
        return entry

    def preload(self, ids: Iterable[str]) -> None:
        """Read these calls now, in one go."""
        wanted = [i for i in ids if i in self.index and i not in self._read]
        if wanted:
            got = self._load(wanted)
            missing = [i for i in wanted if i not in got]
            if missing:
                raise KeyError(f"calls no longer readable: {', '.join(missing[:3])}")
            self._read.update((i, got[i]) for i in wanted)

    @property
    def read_count(self) -> int:
        """How many calls were read again (the quoted ones)."""
        return len(self._read)

    def __iter__(self) -> Iterator[str]:
        return iter(self.index)

    def __len__(self) -> int:
        return len(self.index)
