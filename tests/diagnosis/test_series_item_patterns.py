"""One pattern per series label finds item N+1 exactly where a pattern with N+1 written in
found it (the detector compiled one per label and number before): same first match, same place,
for any label, number and text, leading zeros and longer numbers included."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from diagnosis.continuation.series import _item_patterns, numbered


def _written_in(label: str, number: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The patterns as they were, with the number written in."""
    words = r"[ \t]+".join(map(re.escape, label.split()))
    following = rf"(?<![A-Za-z]){words}[ \t]*#?0*{number}(?!\d)"
    item = re.compile(rf"(?:^|(?<=[.!?] )|(?<=[.!?]\t)){following}[ \t]*[:.)]", re.IGNORECASE | re.MULTILINE)
    return re.compile(following, re.IGNORECASE), item


labels = st.lists(st.sampled_from(["step", "case", "quiz", "question", "x", "a"]), min_size=1, max_size=3).map(" ".join)
pieces = st.one_of(
    st.sampled_from(["Step", "step", "CASE", "quiz", "question", "x", "a", "#", "0", "00", ":", ".", ")", "? "]),
    st.sampled_from([" ", "  ", "\t", "\n", ". ", "!\t", "xx", "7"]),
    st.integers(0, 1200).map(str),
)


@settings(max_examples=400, deadline=None)
@given(label=labels, number=st.integers(0, 1000), text=st.lists(pieces, max_size=14).map("".join))
def test_one_pattern_per_label_finds_what_the_pattern_per_number_found(label: str, number: int, text: str) -> None:
    following, item = _item_patterns(label)
    old_following, old_item = _written_in(label, number)
    for new, old in ((following, old_following), (item, old_item)):
        got, want = numbered(new, text, number), old.search(text)
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert got.span() == want.span()


def test_a_numbered_item_is_found_with_leading_zeros_and_not_inside_a_longer_number() -> None:
    following, _ = _item_patterns("case")
    assert numbered(following, "see Case 010 and case 100", 10) is not None
    assert numbered(following, "see case 100", 10) is None
    assert numbered(following, "see case 1000", 100) is None
