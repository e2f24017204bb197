"""The keys a member is found by when a new name may look like theirs (issue 39).

`services/members.py` says which names look alike: the same letters and digits whatever their
case, accents, spaces and punctuation (`letters`), or one letter apart (one added, dropped,
changed or two neighbours swapped). Comparing each new name with every member cost 0.67 s per
list of 100 at 4,000 members, so each member keeps two keys, indexed with its club
(`Member.alike_head`, `Member.alike_tail`), and a new name asks only for the members that share
one of its keys; the rule itself then decides between those few.

Why no look-alike is missed: take two names whose letters are one edit apart, the shorter of
length L. An edit touches at most two neighbouring places, so the two names share either their
first h letters or their last h letters for any h <= (L - 1) // 2 (an added letter: h <= L // 2).
A member of n letters is keyed by its length and its first (and last) `span(n)` letters; a name
of m letters asks for lengths m - 1, m and m + 1, each with its own first (and last) `span(n)`.
The same letters are one more case of the same length and the same first letters.
"""

from __future__ import annotations

import unicodedata

# A key holds at most this many letters: a longer name is filed with names of its length and
# first (or last) letters alike, which only makes its group larger, never misses one.
MOST_KEPT = 40
# What a stored key may hold: its length, a colon, its letters.
KEY_LENGTH = MOST_KEPT + 8


def letters(name: str) -> str:
    """What a name is compared by: its letters and digits, without case or accents."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in decomposed if char.isalnum())


def span(length: int) -> int:
    """How many first (and last) letters key a name of this many letters."""
    return min(max(length - 1, 0) // 2, MOST_KEPT)


def _head(these: str, length: int) -> str:
    """The key of names of `length` letters that begin as these letters do."""
    return f"{length}:{these[: span(length)]}"


def _tail(these: str, length: int) -> str:
    """The key of names of `length` letters that end as these letters do."""
    return f"{length}:{these[len(these) - span(length) :]}"


def head(name: str) -> str:
    """A name's first key: its length in letters and its first letters."""
    these = letters(name)
    return _head(these, len(these))


def tail(name: str) -> str:
    """A name's second key: its length in letters and its last letters."""
    these = letters(name)
    return _tail(these, len(these))


def asked(name: str) -> tuple[set[str], set[str]]:
    """The heads and tails of every name that may look like this one, or (a name of no letters,
    that looks like none) be the same name in another case."""
    these = letters(name)
    if not these:
        return {_head(these, 0)}, set()
    lengths = [n for n in (len(these) - 1, len(these), len(these) + 1) if n > 0]
    return {_head(these, n) for n in lengths}, {_tail(these, n) for n in lengths}


def keyed(row: dict) -> dict:
    """A member's row for a bulk insert, its keys filled from its name."""
    return {**row, "alike_head": head(row["name"]), "alike_tail": tail(row["name"])}
