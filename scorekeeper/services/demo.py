"""A demo club full of realistic finished games, for trying the club pages and for benchmarks.

Every deal is made up by a seeded random generator, then checked and scored by the rules
engine through `games.record_game`, exactly as an imported game would be.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import delete, func, select

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Organiser, SavedRules
from scorekeeper.rules import DealEntry, RuleSet
from scorekeeper.rules.ruleset import GOING_OUT_ONLY
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services import accounts, clubs
from scorekeeper.services.games import SideSetup, record_game, rules_of_saved
from scorekeeper.services.ratings import kept

ORGANISER = "demo"
PASSWORD = "demo-club-password"
CLUB_NAME = "Demo Card Club"
SEASONS = 4
BATCH = 200

MEMBERS = (
    "Margaret",
    "Harold",
    "Linda",
    "Doug",
    "Patricia",
    "Frank",
    "Carol",
    "Walter",
    "Judy",
    "Ray",
    "Beverly",
    "Ernie",
    "Dorothy",
    "Gene",
    "Rosa",
    "Sam",
)
GUESTS = ("Nadia", "Otis", "Priya", "Colin", "Yvonne", "Marcus", "Ingrid", "Teddy")
GUEST_CHANCE = 0.06

# How often the club plays each rule set, and how many sides sit down (weights).
RULESETS: dict[str, tuple[int, dict[int, int]]] = {
    "club": (40, {2: 2, 3: 4, 4: 4}),
    "classic": (34, {2: 7, 3: 2, 4: 1}),
    "family": (10, {2: 4, 3: 1}),
    "casual": (9, {2: 4, 3: 1}),
    "ten-thousand": (7, {2: 1}),
}
# Club nights: Tuesday and Thursday.
CLUB_NIGHTS = (1, 3)
# The club's own rule set, its default: club individual with a red three caught costing 300,
# played at every Thursday game of club rules.
THURSDAY_RULES = ("Thursday rules", "club", {"red_three_caught": 300})
THURSDAY = 3

# The natural ranks a book can be made of: (how many ranks in the deck, points per card).
NATURAL_RANKS = ((1, 20), (6, 10), (4, 5))  # aces; eights to kings; fours to sevens


@dataclass(frozen=True)
class _Person:
    name: str
    skill: float


def fill_demo(
    slug: str,
    games: int,
    seed: int = 7,
    progress: Callable[[int, int], None] | None = None,
) -> Club:
    """Create, or replace, the demo club `slug` with members, seasons and finished games."""
    rng = random.Random(seed)
    organiser = accounts.organiser_named(ORGANISER) or accounts.register(ORGANISER, PASSWORD)
    _remove_old(slug, organiser)
    club = clubs.create_club(CLUB_NAME, slug, organiser, public=True)
    for name in MEMBERS:
        clubs.add_member(club, name)
    seasons = season_dates(datetime.now(UTC).date())
    for name, starts_on, ends_on in seasons:
        clubs.add_season(club, name, starts_on, ends_on)
    name, preset, numbers = THURSDAY_RULES
    thursday = clubs.create_saved_rules(club, name, preset, numbers)
    clubs.make_default(club, thursday)
    club_id, thursday_id = club.id, thursday.id
    with kept.held(club_id):
        _fill(rng, games, club_id, thursday_id, seasons, progress)
    return db.session.get(Club, club_id)


def _fill(
    rng: random.Random,
    games: int,
    club_id: int,
    thursday_id: int,
    seasons: list[tuple[str, date, date]],
    progress: Callable[[int, int], None] | None,
) -> None:
    """The demo club's finished games, committed in batches."""
    club = db.session.get(Club, club_id)
    preset = THURSDAY_RULES[1]
    people = [_Person(name, min(1.4, max(0.6, rng.gauss(1.0, 0.15)))) for name in MEMBERS]
    attendance = [rng.uniform(0.35, 1.0) for _ in people]
    nights = _nights(seasons[-1][1], seasons[0][2])
    keys = list(RULESETS)
    weights = [RULESETS[key][0] for key in keys]
    for done in range(games):
        key = rng.choices(keys, weights)[0]
        played_on = rng.choice(nights)
        sides, strengths = _sides(rng, key, people, attendance)
        saved = None
        if key == preset and played_on.weekday() == THURSDAY:
            saved = db.session.get(SavedRules, thursday_id)
        rules = rules_of_saved(saved) if saved else engine.PRESETS[key]
        table = [engine.Side(s.name, len(s.players)) for s in sides]
        decks = rules.decks_for(sum(len(s.players) for s in sides))
        deals = _deals(rng, rules, decks, table, strengths)
        game = record_game(
            key,
            sides,
            deals,
            decks=decks,
            house_rules=dict(saved.house_rules) if saved else None,
            club=club,
            played_on=played_on,
            commit=False,
            saved_rules=saved,
        )
        started = datetime.combine(played_on, time(19, rng.randrange(0, 45, 5)), UTC)
        game.created_at = started
        game.updated_at = game.finished_at = started + timedelta(minutes=25 * len(deals))
        if (done + 1) % BATCH == 0 or done + 1 == games:
            db.session.commit()
            db.session.expunge_all()
            club = db.session.get(Club, club_id)
            club.members  # noqa: B018 -- load once per batch, not once per game
            if progress is not None:
                progress(done + 1, games)
    db.session.commit()


def _remove_old(slug: str, organiser: Organiser) -> None:
    """Delete an earlier demo club of this slug and its games; never touch someone else's."""
    old = clubs.club_by_slug(slug)
    if old is None:
        return
    if not clubs.is_organiser(old, organiser):
        raise clubs.ClubRefused(
            f"The club '{slug}' is not a demo club (the {ORGANISER} account does not run it)."
        )
    # Sides, players, deals and scores go with their games (ON DELETE CASCADE).
    db.session.execute(
        delete(Game).where(Game.club_id == old.id).execution_options(synchronize_session=False)
    )
    db.session.delete(old)
    db.session.commit()
    db.session.expunge_all()


def season_dates(today: date) -> list[tuple[str, date, date]]:
    """Four seasons of about four months, newest first, the newest ending today."""
    seasons = []
    starts_on = _add_months(today.replace(day=1), -3)
    ends_on = today
    for _ in range(SEASONS):
        seasons.append((_season_name(starts_on), starts_on, ends_on))
        ends_on = starts_on - timedelta(days=1)
        starts_on = _add_months(starts_on, -4)
    return seasons


def _add_months(first: date, months: int) -> date:
    index = first.year * 12 + first.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _season_name(starts_on: date) -> str:
    """Named for the season of its middle month (four months apart: never the same twice)."""
    middle = _add_months(starts_on, 2)
    month, year = middle.month, middle.year
    if month == 12:
        return f"Winter {year}/{str(year + 1)[2:]}"
    if month <= 2:
        return f"Winter {year - 1}/{str(year)[2:]}"
    return f"{('Spring', 'Summer', 'Autumn')[(month - 3) // 3]} {year}"


def _nights(first: date, last: date) -> list[date]:
    days = (first + timedelta(days=n) for n in range((last - first).days + 1))
    return [day for day in days if day.weekday() in CLUB_NIGHTS] or [last]


def _sides(
    rng: random.Random, key: str, people: Sequence[_Person], attendance: Sequence[float]
) -> tuple[list[SideSetup], list[float]]:
    """Who sits down: a few members (now and then a guest), alone or in teams of two."""
    counts = RULESETS[key][1]
    count = rng.choices(list(counts), list(counts.values()))[0]
    per_side = 1 if engine.PRESETS[key].individuals else 2
    # Members who come more often are likelier to be at the table.
    order = sorted(
        range(len(people)), key=lambda i: rng.random() ** (1 / attendance[i]), reverse=True
    )
    seated = [people[i] for i in order[: count * per_side]]
    if rng.random() < GUEST_CHANCE:
        seated[rng.randrange(len(seated))] = _Person(rng.choice(GUESTS), 1.0)
    sides, strengths = [], []
    for n in range(count):
        team = seated[n * per_side : (n + 1) * per_side]
        names = [p.name for p in team]
        sides.append(SideSetup(PARTNERS.join(names), names))
        strengths.append(sum(p.skill for p in team) / len(team))
    return sides, strengths


def _deals(
    rng: random.Random,
    rules: RuleSet,
    decks: int,
    table: Sequence[engine.Side],
    strengths: Sequence[float],
) -> list[list[DealEntry]]:
    """Every deal of one game, until the engine says it is over."""
    deals: list[list[DealEntry]] = []
    totals = [0] * len(table)
    while True:
        number = len(deals) + 1
        minimums = [rules.opening_minimum(number, total) for total in totals]
        deals.append(_deal(rng, rules, decks, table, strengths, minimums))
        if rules.target_score is None and rules.end_after_deals is not None:
            if number < rules.end_after_deals:
                continue
            return deals  # a game of so many deals ends with the last (record_game re-checks)
        played = engine.play(rules, decks, table, deals)
        if played.finished:
            return deals
        totals = played.totals


def _deal(
    rng: random.Random,
    rules: RuleSet,
    decks: int,
    table: Sequence[engine.Side],
    strengths: Sequence[float],
    minimums: Sequence[int],
) -> list[DealEntry]:
    """One deal that the engine accepts: one side goes out, the others are caught holding."""
    for attempt in range(100):
        out = rng.choices(range(len(table)), [s**4 for s in strengths])[0]
        lean = attempt >= 20  # a crowded deal again and again: fewer books for the others
        entries = [
            _entry(rng, rules, decks, side.players, i == out, strength, minimum, lean)
            for i, (side, strength, minimum) in enumerate(
                zip(table, strengths, minimums, strict=True)
            )
        ]
        entries = _with_red_threes(rng, rules, decks, table, entries, out)
        if not engine.check_deal(rules, decks, table, entries):
            return entries
    raise RuntimeError("No demo deal fits these decks.")  # pragma: no cover


def _entry(
    rng: random.Random,
    rules: RuleSet,
    decks: int,
    players: int,
    went_out: bool,
    strength: float,
    minimum: int,
    lean: bool,
) -> DealEntry:
    books: dict[str, int] = {}
    spare = max(1, decks // 2)
    if went_out:
        for needed_kind, needed in rules.books_to_go_out.items():
            for _ in range(needed):
                kind = _book_kind(rng, rules, needed_kind)
                books[kind] = books.get(kind, 0) + 1
        extra = {"clean": rng.randint(0, spare), "dirty": rng.randint(0, spare)}
    elif lean:
        extra = {"clean": rng.randint(0, 1), "dirty": rng.randint(0, 1)}
    else:
        most = spare + 1 + (strength > 1.1)
        extra = {"clean": rng.randint(0, most), "dirty": rng.randint(0, most)}
    if "wild" in rules.book_bonuses and not lean and rng.random() < 0.12:
        extra["wild"] = 1
    if "clean_sevens" in rules.book_bonuses and not lean and rng.random() < 0.05:
        extra["clean_sevens"] = 1
    for kind, count in extra.items():
        if count:
            books[kind] = books.get(kind, 0) + count
    melded = sum(_book_points(rng, rules, kind) for kind, n in books.items() for _ in range(n))
    melded += 5 * rng.randint(0, 30 * players)  # melds short of a book
    if melded < minimum:
        melded = minimum + 5 * rng.randint(0, 10)
    if went_out:
        # The partner who did not go out may still hold a few cards.
        leftover = 5 * rng.randint(0, 20) if players > 1 and rng.random() < 0.6 else 0
    else:
        leftover = sum(5 * rng.randint(3, 40) for _ in range(players))
    bonuses = {}
    if rules.extra_bonuses.get("exact_22"):
        lucky = sum(rng.random() < 0.08 for _ in range(players))
        if lucky:
            bonuses["exact_22"] = lucky
    return DealEntry(
        books=books,
        went_out=went_out,
        melded_points=melded,
        leftover_points=leftover,
        bonuses=bonuses,
    )


def _book_kind(rng: random.Random, rules: RuleSet, needed_kind: str) -> str:
    """A book that counts as `needed_kind` toward going out; now and then a special one."""
    kinds = [
        kind
        for kind in rules.book_bonuses
        if rules.counts_as(kind) == needed_kind and kind not in GOING_OUT_ONLY
    ]
    plain = needed_kind if needed_kind in kinds else kinds[0]
    others = [kind for kind in kinds if kind != plain]
    return rng.choice(others) if others and rng.random() < 0.06 else plain


def _book_points(rng: random.Random, rules: RuleSet, kind: str) -> int:
    """The card points of one closed book of seven (now and then eight) cards."""
    size = 7 + (rng.random() < 0.2)
    if kind == "wild":
        return sum(50 if rng.random() < 1 / 3 else 20 for _ in range(size))
    if kind == "clean_sevens":
        return 5 * size
    value = rng.choices([v for _, v in NATURAL_RANKS], [n for n, _ in NATURAL_RANKS])[0]
    if kind == "clean":
        return value * size
    wilds = rng.randint(1, max(1, rules.max_wilds_in_dirty_book))
    wild_points = sum(50 if rng.random() < 1 / 3 else 20 for _ in range(wilds))
    return value * (size - wilds) + wild_points


def _with_red_threes(
    rng: random.Random,
    rules: RuleSet,
    decks: int,
    table: Sequence[engine.Side],
    entries: list[DealEntry],
    out: int,
) -> list[DealEntry]:
    """Red threes laid down as they are drawn, and caught in the hands of those left holding."""
    left = 2 * decks
    result = []
    for index, (side, entry) in enumerate(zip(table, entries, strict=True)):
        down = 0
        if rules.red_three_down is not None:
            down = min(left, sum(rng.random() < 0.45 for _ in range(side.players * 2)))
        left -= down
        caught = 0
        if index != out:
            caught = min(left, sum(rng.random() < 0.12 for _ in range(side.players)))
        left -= caught
        result.append(
            DealEntry(
                books=entry.books,
                red_threes_down=down,
                red_threes_caught=caught,
                went_out=entry.went_out,
                melded_points=entry.melded_points,
                leftover_points=entry.leftover_points,
                bonuses=entry.bonuses,
            )
        )
    return result


def finished_games(club: Club) -> int:
    """How many finished games the club has (for the command's summary)."""
    query = (
        select(func.count())
        .select_from(Game)
        .where(Game.club_id == club.id, Game.finished_at.is_not(None))
    )
    return db.session.execute(query).scalar_one()
