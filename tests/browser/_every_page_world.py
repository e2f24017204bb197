"""The every-page tests' seeded world: the demo club, casual games before, during and after
play, six-side games, lines sent from the phones, and a club night of twelve (demo_night).

Seeded once and copied for every test that seeds the same (tests/browser/seeded.py). Used by
test_every_page.py, test_large_text.py and, through test_every_page, the other page checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs, deals, demo, games, side_lines
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.links import path_of
from scorekeeper.services.nights import play as night_play

from .seeded import kept

DEMO_SLUG = "demo"


def save_deal(game, entries: list[DealEntry]) -> None:
    """Enter the game's next deal as any phone at the table would."""
    outcome = deals.enter_deal(game, Level.TABLE, [entry.to_dict() for entry in entries])
    assert isinstance(outcome, deals.Saved), outcome


# ------------------------------------------------------------------------- seeding


@dataclass
class World:
    """What the pages show: each game by its private link (`/t/<secret>`), a member by id."""

    empty: str  # a classic game with no deal yet
    playing: str  # a classic game two deals in, with house rules
    finished: str  # a casual game of club rules, over, with a winner
    cutthroat: str  # a game whose melds left open go to the other team
    club_playing: str  # a club game in progress
    club_finished: str  # a finished club game
    member: int  # the demo club member with the most games
    six_playing: str  # six sides of two, one deal in: the longest deal form
    six_finished: str  # six sides of two, four deals: the longest scoreboard
    playing_id: int  # the game in progress, by id: what another phone does to it meanwhile
    lines_in: str  # one deal in, Ann & Bob's line of the next sent from Ann's phone
    line_flagged: str  # as lines_in, and Cat & Dan's line refused with it: Ann & Bob's flagged
    six_lines: str  # six sides, one deal in, five lines of the next in, one of them flagged
    empty_id: int  # the game with no deal yet, by id: deal 1 saved meanwhile
    tonight: str  # nine of the demo club's members ticked, to seat tonight's tables


def won(books: dict[str, int], melded: int) -> DealEntry:
    """A side that went out with these books and card points."""
    return DealEntry(books=books, went_out=True, melded_points=melded, leftover_points=0)


def caught(melded: int, leftover: int, **books: int) -> DealEntry:
    """A side left holding cards."""
    return DealEntry(books=books, melded_points=melded, leftover_points=leftover)


# The phone the seeded lines were sent from: 32 hex digits, as app.js makes them.
SENDING_PHONE = "a" * 32


def send_line(game, side: int, entry: DealEntry, sent_by: str, kept=side_lines.LineKept) -> None:
    """A side's line of the next deal, sent from its own phone (kept, or refused as expected)."""
    next_deal = games.progress_of(game).next_deal
    outcome = side_lines.send_line(
        game,
        Level.TABLE,
        side,
        entry.to_dict(),
        opened_for=next_deal,
        device=SENDING_PHONE,
        sent_by=sent_by,
    )
    assert isinstance(outcome, kept), outcome


CLASSIC_OUT = {"clean": 2, "dirty": 2, "wild": 1}
CLUB_OUT = {"clean": 2, "dirty": 2}
SIX_TEAMS = [
    ("Margaret", "Harold"),
    ("Patricia", "Frank"),
    ("Beverly", "Walter"),
    ("Dorothy", "Ernie"),
    ("Rosalind", "Bartholomew"),
    ("Gwendolyn", "Maximilian"),
]


@kept
def seed(app) -> World:
    """A demo club with finished games, and casual games in every state."""
    with app.app_context():
        club = demo.fill_demo(DEMO_SLUG, games=8)
        playing_club = games.start_game(
            "club",
            [SideSetup(n, [n]) for n in ("Margaret", "Harold", "Linda")],
            club=club,
        )
        club_finished = db.session.execute(
            db.select(Game)
            .where(Game.club_id == club.id, Game.finished_at.is_not(None))
            .order_by(Game.id)
        ).scalar()
        counts = {m.id: clubs.games_of_member(m) for m in club.members}
        member = max(counts, key=counts.get)

        partners = [SideSetup("Ann & Bob", ["Ann", "Bob"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
        empty = games.start_game("classic", partners)
        playing = games.start_game("classic", partners, house_rules={"going_out_bonus": 200})
        save_deal(playing, [won(CLASSIC_OUT, 480), caught(130, 30)])
        save_deal(playing, [caught(240, 55, clean=1), won(CLASSIC_OUT, 395)])
        finished = games.record_game(
            "club",
            [SideSetup(n, [n]) for n in ("Ann", "Bob", "Cat")],
            [
                [won(CLUB_OUT, 400), caught(150, 60, clean=1), caught(90, 100)],
                [caught(200, 20, dirty=1), won(CLUB_OUT, 350), caught(120, 45)],
                [won(CLUB_OUT, 420), caught(180, 35), caught(130, 80, clean=1)],
                [caught(210, 15), caught(160, 70), won(CLUB_OUT, 380)],
            ],
        )
        cutthroat = games.start_game("cutthroat", [SideSetup(n, [n]) for n in ("Ann", "Bob")])
        # The most sides a game can have, each with a long name: the heaviest pages.
        six = [SideSetup(f"{a} & {b}", [a, b]) for a, b in SIX_TEAMS]
        six_deals = [
            [
                won(CLASSIC_OUT, 400 + 10 * i) if i == d else caught(150 + 5 * i, 45, clean=1)
                for i in range(len(six))
            ]
            for d in range(4)
        ]
        six_playing = games.record_game("casual", six, six_deals[:1])
        six_finished = games.record_game("classic", six, six_deals)
        # The sides' own lines of the next deal: in, counting, and one in question.
        lines_in = games.start_game("classic", partners)
        save_deal(lines_in, [won(CLASSIC_OUT, 480), caught(130, 30)])
        send_line(lines_in, 0, won(CLASSIC_OUT, 395), "Ann")
        line_flagged = games.start_game("classic", partners)
        save_deal(line_flagged, [won(CLASSIC_OUT, 480), caught(130, 30)])
        send_line(line_flagged, 0, won(CLASSIC_OUT, 395), "Ann")
        send_line(line_flagged, 1, won(CLASSIC_OUT, 240), "Cat", kept=deals.Refused)
        six_lines = games.record_game("casual", six, six_deals[:1])
        for i, (player, _) in enumerate(SIX_TEAMS[:5]):
            entry = won(CLASSIC_OUT, 410) if i == 0 else caught(150 + 5 * i, 45, clean=1)
            send_line(six_lines, i, entry, player)
        send_line(six_lines, 5, won(CLASSIC_OUT, 300), "Gwendolyn", kept=deals.Refused)
        return World(
            empty=path_of(empty),
            playing=path_of(playing),
            finished=path_of(finished),
            cutthroat=path_of(cutthroat),
            club_playing=path_of(playing_club),
            club_finished=path_of(club_finished),
            member=member,
            six_playing=path_of(six_playing),
            six_finished=path_of(six_finished),
            playing_id=playing.id,
            lines_in=path_of(lines_in),
            line_flagged=path_of(line_flagged),
            six_lines=path_of(six_lines),
            empty_id=empty.id,
            tonight="&".join(f"members={m.id}" for m in club.members[:9]) + "&seat=1",
        )


# A club night of twelve of the demo club's members: 3 rounds planned of 3 tables of 4.
NIGHT_PLAYERS = 12
NIGHT_ROUNDS = 3


@kept
def demo_night(app, seated: int, played: int) -> int:
    """Twelve of the demo club's members' night: `seated` rounds seated, the first `played` of
    them played out at every table (a side going out each deal, the sides in turn); its id."""
    with app.app_context():
        club = clubs.club_by_slug(DEMO_SLUG)
        ids = [m.id for m in club.members[:NIGHT_PLAYERS]]
        night = night_play.open_night(club, ids, "", "classic", NIGHT_ROUNDS, "rotating", "no game")
        night_id = night.id
        for number in range(1, seated + 1):
            night_play.seat_round(db.session.get(Night, night_id))
            if number > played:
                continue
            for t in db.session.get(Night, night_id).rounds[number - 1].tables:
                for deal in range(1, 10):
                    if t.game.finished_at is not None:
                        break
                    out = (t.number + deal) % 2
                    entries = [caught(130 + 10 * deal, 30, clean=1)] * 2
                    entries[out] = won(CLASSIC_OUT, 300 + 20 * t.number)
                    save_deal(t.game, entries)
                assert t.game.finished_at is not None
        db.session.remove()
        return night_id
