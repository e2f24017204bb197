"""A game's progress: running totals, minimums, the end and the winners, from its deals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .deal import DealRefused, Refusal, Side, SideScore, score_deal
from .entry import DealEntry
from .house import off_the_fives
from .presets import PRESETS
from .ruleset import RuleSet
from .sentences import both, say
from .terms import DECK_SIZE, MAX_DECKS, MAX_NAME, MAX_PLAYERS_PER_SIDE, MAX_SIDES


class GameOver(DealRefused):
    """A deal offered to a game that has already ended."""


class DealLimitReached(DealRefused):
    """A deal offered to a game that holds as many deals as its rules allow."""


@dataclass(frozen=True)
class DealResult:
    """One deal as played: each side's score, minimum, warnings and total after it."""

    number: int
    scores: list[SideScore]
    minimums: list[int]
    totals: list[int]
    warnings: list[str]


@dataclass(frozen=True)
class Progress:
    """Where a game stands after its deals."""

    deals: list[DealResult]
    totals: list[int]
    minimums: list[int]
    finished: bool
    winners: list[int]

    @property
    def next_deal(self) -> int:
        """The number the next deal would have."""
        return len(self.deals) + 1


def check_setup(rules: RuleSet, decks: int, sides: Sequence[Side]) -> list[Refusal]:
    """Every reason a game cannot start with these sides and decks."""
    refusals: list[Refusal] = []
    these = rules.called[0].upper() + rules.called[1:]
    if len(sides) < rules.min_sides:
        refusals.append(
            Refusal.said(None, "sides", "too_few_sides", called=these, count=rules.min_sides)
        )
    most = min(rules.max_sides or MAX_SIDES, MAX_SIDES)
    if len(sides) > most:
        refusals.append(Refusal.said(None, "sides", "too_many_sides", called=these, count=most))
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        refusals.append(Refusal.said(None, "decks", "decks", most=MAX_DECKS))
    else:
        refusals.extend(_check_deal_fits(rules, decks, sides))
    for path, message in off_the_fives(rules):
        refusals.append(Refusal(None, "rules", message, ((None, f"rules.{path}"),)))
    seen: set[str] = set()
    for index, side in enumerate(sides):
        name = side.name.strip()
        if not name:
            refusals.append(Refusal.said(index, "name", "no_name", number=index + 1))
        elif len(name) > MAX_NAME:
            refusals.append(
                Refusal.said(index, "name", "long_name", number=index + 1, most=MAX_NAME)
            )
        elif name.casefold() in seen:
            refusals.append(Refusal.said(index, "name", "same_name", name=name))
        seen.add(name.casefold())
        who = name or say("a_side")
        if rules.individuals and side.players > 1:
            refusals.append(
                Refusal.said(index, "players", "one_player", name=who, called=rules.called)
            )
        elif not 1 <= side.players <= MAX_PLAYERS_PER_SIDE:
            refusals.append(
                Refusal.said(index, "players", "players", name=who, most=MAX_PLAYERS_PER_SIDE)
            )
    return refusals


def _check_deal_fits(rules: RuleSet, decks: int, sides: Sequence[Side]) -> list[Refusal]:
    """The decks must hold every player's hand and foot, and leave cards for the stock."""
    players = sum(max(1, side.players) for side in sides)
    dealt = players * (rules.hand_size + rules.foot_size)
    if dealt < decks * DECK_SIZE:
        return []
    needed = rules.decks_to_deal(players)
    fix = (
        say("fix_decks", needed=needed)
        if needed <= MAX_DECKS
        else say("fix_players", most=MAX_DECKS)
    )
    figures = {"players": players, "dealt": dealt, "hand": rules.hand_size}
    figures.update(foot=rules.foot_size, decks=decks, held=decks * DECK_SIZE, fix=fix)
    preset = PRESETS.get(rules.key, rules)
    changed = tuple(
        (None, f"rules.{name}")
        for name in ("hand_size", "foot_size")
        if getattr(rules, name) != getattr(preset, name)
    )
    return [Refusal.said(None, "decks", "deal_fits", ((None, "decks"), *changed), **figures)]


def play(
    rules: RuleSet,
    decks: int,
    sides: Sequence[Side],
    deals: Sequence[Sequence[DealEntry]],
    corrected: int | None = None,
    check: bool = True,
) -> Progress:
    """Score every deal in order; DealRefused names the deal that cannot stand.

    `corrected` is the number of a deal just changed, so a refusal can say so. With `check`
    false, only that deal is checked: the others were checked when they were saved, and a check
    added since must not lock a game already played.
    """
    progress = Progress([], [0] * len(sides), _minimums(rules, 1, [0] * len(sides)), False, [])
    for number, entries in enumerate(deals, start=1):
        if progress.finished:
            refusal = _after_end(number - 1, len(deals), corrected, sides, progress.winners)
            if corrected is not None and corrected < number:
                raise DealRefused([refusal])
            raise GameOver([refusal])
        checked = check or number == corrected
        progress = _step(rules, decks, sides, progress, entries, corrected, checked)
    return progress


def extend(
    rules: RuleSet,
    decks: int,
    sides: Sequence[Side],
    progress: Progress,
    entries: Sequence[DealEntry],
) -> Progress:
    """`progress` with one more deal, without replaying the deals before it; or DealRefused."""
    closed = no_deal_now(rules, sides, progress)
    if closed is not None:
        raise closed
    return _step(rules, decks, sides, progress, entries, None, True)


def no_deal_now(
    rules: RuleSet, sides: Sequence[Side], progress: Progress
) -> GameOver | DealLimitReached | None:
    """Why the game takes no deal now (over, or holding its most deals); None while it takes one.

    The one place that decides it: the engine raises it, the pages and the API ask it. An ended
    game is said to be over even when it also holds its most deals.
    """
    if progress.finished:
        return GameOver([game_over(sides, progress)])
    full = deal_limit_reached(rules, progress)
    if full is not None:
        return DealLimitReached([full])
    return None


def game_over(sides: Sequence[Side], progress: Progress) -> Refusal:
    """Why a finished game takes no more deals: who won, after which deal."""
    ended = len(progress.deals)
    return _after_end(ended, ended + 1, None, sides, progress.winners)


def deal_limit_reached(rules: RuleSet, progress: Progress) -> Refusal | None:
    """Why a game that holds its rules' most deals takes no more; None while it has room.

    Reaching the limit does not end the game: no rule of play ended it, so it has no winner.
    """
    held = len(progress.deals)
    if held < rules.deal_limit:
        return None
    if held > rules.deal_limit:
        # Only a game from before the limit was lowered (MAX_DEAL_LIMIT) holds more.
        return Refusal.said(None, "deal", "over_limit", held=held, most=rules.deal_limit)
    return Refusal.said(None, "deal", "deal_limit", most=rules.deal_limit)


def too_long_to_change(rules: RuleSet, deals: int) -> Refusal | None:
    """Why a game holding more deals than its rules allow takes no correction; None if it may.

    Only a game from before the limit was lowered holds more (up to 1,000 deals): correcting an
    early deal replays every deal after it while other tables' saves wait, so it is read only.
    """
    if deals <= rules.deal_limit:
        return None
    return Refusal.said(None, "deal", "too_long", held=deals, most=rules.deal_limit)


def _minimums(rules: RuleSet, number: int, totals: Sequence[int]) -> list[int]:
    return [rules.opening_minimum(number, total) for total in totals]


def _step(
    rules: RuleSet,
    decks: int,
    sides: Sequence[Side],
    progress: Progress,
    entries: Sequence[DealEntry],
    corrected: int | None,
    check: bool,
) -> Progress:
    """Score the next deal on top of `progress` (checking it first, if `check`)."""
    number, minimums = progress.next_deal, progress.minimums
    try:
        scores = score_deal(rules, decks, sides, entries, check=check)
    except DealRefused as refused:
        if corrected is None or corrected == number:
            raise
        why = str(refused)
        raise DealRefused(
            [Refusal.said(None, "deal", "no_longer_adds_up", number=number, why=why)]
        ) from refused
    totals = [total + score.total for total, score in zip(progress.totals, scores, strict=True)]
    warnings = [
        say("below_minimum", side=side.name, melded=score.melded, needed=minimum)
        for side, score, minimum in zip(sides, scores, minimums, strict=True)
        if 0 < score.melded < minimum
    ]
    results = [*progress.deals, DealResult(number, scores, minimums, list(totals), warnings)]
    finished, winners = _end(rules, number, totals)
    return Progress(results, totals, _minimums(rules, number + 1, totals), finished, winners)


def _end(rules: RuleSet, number: int, totals: list[int]) -> tuple[bool, list[int]]:
    """Whether the game ends after this deal, and who won."""
    over = (rules.end_after_deals is not None and number >= rules.end_after_deals) or (
        rules.target_score is not None and max(totals) >= rules.target_score
    )
    if not over:
        return False, []
    best = max(totals)
    winners = [index for index, total in enumerate(totals) if total == best]
    if len(winners) > 1 and rules.tie_rule == "play_on":
        return False, []
    return True, winners


def _after_end(
    ended: int, count: int, corrected: int | None, sides: Sequence[Side], winners: list[int]
) -> Refusal:
    names = both(sides[i].name for i in winners)
    if corrected is not None and corrected <= ended < count:
        follows = "follows_one" if ended + 1 == count else "follows_many"
        follow = say(follows, deal=ended + 1, last=count)
        return Refusal.said(None, "deal", "would_end", ended=ended, names=names, follow=follow)
    return Refusal.said(None, "deal", "game_over", names=names, ended=ended)


def correct_deal(
    rules: RuleSet,
    decks: int,
    sides: Sequence[Side],
    deals: Sequence[Sequence[DealEntry]],
    number: int,
    entries: Sequence[DealEntry],
) -> Progress:
    """The game with deal `number` replaced, everything after it recomputed, or DealRefused."""
    changed = [*deals[: number - 1], entries, *deals[number:]]
    return play(rules, decks, sides, changed, corrected=number, check=False)
