"""A club's members as the organiser's phone adds them (issue 28): a whole list at once, names
that look like another asked about first, and a member renamed wherever the records name them.

One member at a time, archiving, merging and deleting stay in `clubs.py`.

What looks alike (`looks_alike`; the members page states it in `ALIKE_RULE`'s words): two names
are compared by their letters and digits alone, whatever their case, accents, spaces and
punctuation ("Mary-Ann", "mary ann"). They look alike when those are the same, or one letter
apart: one added or dropped ("Ann", "Anne"; "Jon", "John"), two neighbours swapped ("Micheal",
"Michael"), or one changed in a name of five letters or more ("Catherine", "Katherine"). One
letter changed in a shorter name makes another name ("Bob", "Rob"; "Tim", "Tom"), or every
short name would be asked about; so does a digit changed or swapped ("Table 1", "Table 2").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper.plumbing import alike_keys
from scorekeeper.plumbing.alike_keys import letters
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Member, Player, Side
from scorekeeper.rules.terms import MAX_NAME, PARTNERS
from scorekeeper.services.clubs import ClubRefused
from scorekeeper.services.names import cleaned, name_problem, squeezed

# How many names one list may hold.
MOST_AT_ONCE = 100
# A changed letter makes a name look like another only in names at least this long.
CHANGED_FROM = 5
# What parts the names of a list: a line break or a comma.
SEPARATORS = re.compile(r"[,\r\n]")
T = TypeVar("T")

ALIKE_RULE = (
    "Names that look alike are asked about before they are added: the same letters whatever "
    "their case, accents, spaces or punctuation (Mary-Ann, mary ann), or one letter apart: one "
    "added or dropped (Ann, Anne; Jon, John), two neighbours swapped (Micheal, Michael), or one "
    f"changed in a name of {CHANGED_FROM} letters or more (Catherine, Katherine). Bob and Rob, "
    "or Table 1 and Table 2, are two names."
)


@dataclass(frozen=True)
class Skipped:
    """A name of the list not added: the club has it already, or the list had it before."""

    name: str
    why: str  # "already a member", "in the list twice"...

    def __str__(self) -> str:
        return f"{self.name} is {self.why}"


@dataclass(frozen=True)
class Alike:
    """A new name that looks like a member's, or like another name of the list."""

    name: str
    like: str
    why: str  # "already a member" or "also in this list"

    def __str__(self) -> str:
        return f"{self.name} looks like {self.like}, {self.why}"


@dataclass(frozen=True)
class Listed:
    """A list read: the names it would add (in the order typed), those left out, those alike."""

    names: tuple[str, ...]
    skipped: tuple[Skipped, ...]
    alike: tuple[Alike, ...]


@dataclass(frozen=True)
class Added:
    """The new members saved, all in one transaction, and the names left out."""

    names: tuple[str, ...]
    skipped: tuple[Skipped, ...]

    def summary(self) -> str:
        """ "2 members added: Ann, Bob." and any names left out, in words for the flash."""
        count = len(self.names)
        said = f"{count} member{'s' if count != 1 else ''} added: {', '.join(self.names)}."
        if self.skipped:
            said += f" Not added again: {'; '.join(str(s) for s in self.skipped)}."
        return said


@dataclass(frozen=True)
class Unsure:
    """Names that look like another: nothing saved until the organiser confirms the list."""

    listed: Listed


@dataclass(frozen=True)
class ListRefused:
    """A list that cannot be added, each problem naming the name and why; nothing saved."""

    problems: tuple[str, ...]


# --- reading a list ------------------------------------------------------------------------


def split_names(text: str) -> list[str]:
    """The names of a list as typed or pasted: one a line or separated by commas, each one's
    spaces tidied, blank ones dropped."""
    parts = (squeezed(part) for part in SEPARATORS.split(text or ""))
    return [part for part in parts if part]


def looks_alike(one: str, other: str) -> bool:
    """Whether two names look like one person's (the rule in the module's docstring)."""
    a, b = letters(one), letters(other)
    if not a or not b:
        return False  # no letters to compare (a name of symbols alone)
    return a == b or _one_apart(a, b)


def _one_apart(a: str, b: str) -> bool:
    """One letter added or dropped, two neighbours swapped, or one changed in a long name."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    if len(b) == len(a) + 1:
        return len(a) >= 2 and any(b[:i] + b[i + 1 :] == a for i in range(len(b)))
    apart = [i for i in range(len(a)) if a[i] != b[i]]
    if not all(a[i].isalpha() and b[i].isalpha() for i in apart):
        return False  # told apart by a digit: Table 1, Table 2
    if len(apart) == 1:
        return len(a) >= CHANGED_FROM
    return (
        len(apart) == 2
        and apart[1] == apart[0] + 1
        and (a[apart[0]], a[apart[1]]) == (b[apart[1]], b[apart[0]])
    )


def _shown(name: str) -> str:
    """A name as a refusal quotes it: without the characters refused, and short."""
    shown = cleaned(name)
    return shown if len(shown) <= 24 else shown[:24] + "…"


def _problem(name: str, number: int) -> str | None:
    """Why the list's `number`th name cannot be a member's, or None."""
    what = f"Name {number} ({_shown(name)})" if _shown(name) else f"Name {number}"
    problem = name_problem(name, what)
    if problem is None and len(name) > MAX_NAME:
        problem = f"{what} is {len(name):,} characters long: a member's name holds {MAX_NAME}."
    return problem


def _already(found: Member, name: str) -> str:
    """Why a name is a member's already, in words."""
    why = "already a member" if found.name == name else f"already a member, as {found.name}"
    return why + (" (archived: restore them on their page)" if found.archived else "")


def read_list(club: Club, text: str) -> Listed | ListRefused:
    """What adding this list would do, saving nothing: each name checked as `add_member` does,
    the club's names and repeats left out, and the names that look like another found."""
    names = split_names(text)
    if not names:
        return ListRefused(("Type at least one name: one a line, or separated by commas.",))
    if len(names) > MOST_AT_ONCE:
        return ListRefused((f"At most {MOST_AT_ONCE} names at once: this list has {len(names)}.",))
    problems = tuple(p for n, name in enumerate(names, 1) if (p := _problem(name, n)))
    if problems:
        return ListRefused(problems)
    # Only the members sharing a key with a name of the list (issue 39): a name the club has
    # already, whatever its case, is among them, and so is every member a name looks like.
    found = _Keyed(_members_like(club, names), lambda member: member.name)
    members = {m.name.casefold(): m for m in found.items}
    first: dict[str, str] = {}
    new: _Keyed[str] = _Keyed([], lambda name: name)
    skipped: list[Skipped] = []
    alike: list[Alike] = []
    for name in names:
        key = name.casefold()
        if key in members:
            skipped.append(Skipped(name, _already(members[key], name)))
        elif key in first:
            twice = "in the list twice" if first[key] == name else f"{first[key]} again"
            skipped.append(Skipped(name, twice))
        else:
            first[key] = name
            like = found.first_like(name)
            other = new.first_like(name)
            if like is not None:
                alike.append(Alike(name, like.name, _already(like, like.name)))
            elif other is not None:
                alike.append(Alike(name, other, "also in this list"))
            new.add(name)
    new_names = tuple(new.items)
    if not new_names:
        return ListRefused((f"Nothing new to add: {'; '.join(str(s) for s in skipped)}.",))
    return Listed(new_names, tuple(skipped), tuple(alike))


def _members_like(club: Club, names: list[str]) -> list[Member]:
    """The club's members that share a look-alike key with any of these names, by name (as
    `Club.members` lists them, so the first alike is the one named before)."""
    heads: set[str] = set()
    tails: set[str] = set()
    for name in names:
        asked_heads, asked_tails = alike_keys.asked(name)
        heads |= asked_heads
        tails |= asked_tails
    query = (
        select(Member)
        .where(
            Member.club_id == club.id,
            or_(
                Member.alike_head.in_(heads),
                Member.alike_tail.in_(tails),
                # Added by an older release's code during a rollout: compared by the rule.
                Member.alike_head.is_(None),
            ),
        )
        .order_by(Member.name)
    )
    return list(db.session.execute(query).scalars())


class _Keyed(Generic[T]):
    """Members (or names) filed by their look-alike keys, in the order they came."""

    def __init__(self, items: list[T], name_of: Callable[[T], str]) -> None:
        self.items: list[T] = []
        self._name_of = name_of
        self._filed: dict[str, list[int]] = {}
        for item in items:
            self.add(item)

    def add(self, item: T) -> None:
        """File one more at the end."""
        name = self._name_of(item)
        for key in ("h" + alike_keys.head(name), "t" + alike_keys.tail(name)):
            self._filed.setdefault(key, []).append(len(self.items))
        self.items.append(item)

    def first_like(self, name: str) -> T | None:
        """The first filed that looks like this name, or None."""
        heads, tails = alike_keys.asked(name)
        keys = [*("h" + head for head in heads), *("t" + tail for tail in tails)]
        for place in sorted({place for key in keys for place in self._filed.get(key, ())}):
            if looks_alike(name, self._name_of(self.items[place])):
                return self.items[place]
        return None


# --- the use cases -------------------------------------------------------------------------


def add_members(club: Club, text: str, *, confirmed: bool = False) -> Added | Unsure | ListRefused:
    """Add a list of members in one transaction: all of them, or (refused) none.

    Names the club has already, and a list's repeats, are left out and said; names that look
    like another's are asked about first (`Unsure`) unless the organiser `confirmed` the list.
    """
    listed = read_list(club, text)
    if isinstance(listed, ListRefused):
        return listed
    if listed.alike and not confirmed:
        return Unsure(listed)
    # One INSERT for the whole list, each row keyed for the look-alike check.
    rows = [alike_keys.keyed({"club_id": club.id, "name": name}) for name in listed.names]
    try:
        db.session.execute(insert(Member), rows)
        db.session.commit()
    except IntegrityError:
        # Another organiser added one of these names meanwhile (names are unique in a club).
        db.session.rollback()
        return ListRefused(
            ("One of these names was added meanwhile, so none was: send the list again.",)
        )
    return Added(listed.names, listed.skipped)


def rename_member(target: Member, name: str) -> str:
    """Give a member another name wherever the records name them; returns the old name.

    Every player row of theirs takes the new name (as merging does), and so does a side named
    after its players: one player's side called by that name (individual games), or players'
    names joined by " & " (as the new-game form names a side nobody named). A side with a name
    of its own ("The Sharks") keeps it.
    """
    name = squeezed(name or "")
    problem = name_problem(name, "The new name")
    if problem:
        raise ClubRefused(problem)
    if not 1 <= len(name) <= MAX_NAME:
        raise ClubRefused(f"A member needs a name of up to {MAX_NAME} characters.")
    for other in target.club.members:
        if other.id != target.id and other.name.casefold() == name.casefold():
            raise ClubRefused(
                f"{other.name} is already a member: choose another name, "
                f"or merge {target.name} into {other.name} on this page."
            )
    old = target.name
    query = (
        select(Player)
        .where(Player.member_id == target.id)
        .options(selectinload(Player.side).selectinload(Side.players))
    )
    players = list(db.session.execute(query).scalars())
    sides = {player.side.id: player.side for player in players}
    named_after = [
        side
        for side in sides.values()
        if side.name.casefold() == PARTNERS.join(p.name for p in side.players).casefold()
    ]
    target.name = name
    for player in players:
        player.name = name
    for side in named_after:
        side.name = _cut(PARTNERS.join(p.name for p in side.players))
    db.session.commit()
    return old


def _cut(side_name: str) -> str:
    """A side's name held to MAX_NAME: a longer one ends in an ellipsis."""
    return side_name if len(side_name) <= MAX_NAME else side_name[: MAX_NAME - 1] + "…"
