"""A club's records files bounded (issue 39): written as they are read, the same bytes as before;
304 while unchanged; a per-address allowance past which a 429 says what and when."""

from __future__ import annotations

import csv
import gzip
import io
import json
import time
from datetime import date

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import selectinload
from test_records import CLASSIC_DEALS, MEMBERS, build_club

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Creation, Deal, Game, Member, Side
from scorekeeper.services import (
    clubs,
    deal_history,
    deals,
    exports,
    games,
    records,
    records_read,
)
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.members import rename_member
from scorekeeper.services.records import DEAL_COLUMNS, ENTRY_COLUMNS, RULE_SET_COLUMN, to_cell
from scorekeeper.services.standings import Filters, club_games

pytestmark = pytest.mark.usefixtures("quick_hashing")

ALL = "?season=all"
ELSEWHERE = {"REMOTE_ADDR": "203.0.113.77"}
GZIP = {"Accept-Encoding": "gzip"}


# --- the files as they were written before issue 39: every game loaded, then written ---------


def reference_games(club: Club, filters: Filters) -> str:
    found = _loaded(club, filters, finished_only=True)
    most = max((len(game.sides) for game in found), default=0)
    header = ["game", "played_on", "ruleset", "decks", "deals"]
    for number in range(1, most + 1):
        header += [f"side_{number}", f"side_{number}_players", f"side_{number}_total"]
    rows = [[*header, "winners", RULE_SET_COLUMN]]
    for game in found:
        row = [game.id, game.played_on.isoformat(), game.ruleset, game.decks]
        row.append(max((side.deals_played for side in game.sides), default=0))
        for side in game.sides:
            row += [to_cell(side.name), to_cell(_players(side)), side.final_total]
        row += [""] * (3 * (most - len(game.sides)))
        row.append(to_cell("; ".join(side.name for side in game.sides if side.won)))
        rows.append([*row, to_cell(game.rules_name or "")])
    return _text(rows)


def reference_deals(club: Club, filters: Filters) -> str:
    rows = [list(DEAL_COLUMNS)]
    for game in _loaded(club, filters, finished_only=False):
        house = json.dumps(game.house_rules or {}, separators=(",", ":"), sort_keys=True)
        head = [game.id, game.played_on.isoformat(), game.ruleset, game.decks, house]
        history = _history(game)
        for deal in game.deals or [None]:
            scores = {score.side_position: score for score in deal.scores} if deal else {}
            # Issue 40: the deal's history on its first side's row.
            cell = ""
            if deal is not None:
                current = [{"entry": s.entry, "total": s.total} for s in deal.scores]
                cell = records.history_cell(history.get(deal.number, []), current)
            for side in game.sides:
                score = scores.get(side.position)
                guests = "; ".join(p.name for p in side.players if p.member_id is None)
                row = [*head, side.position + 1, to_cell(side.name), to_cell(_players(side))]
                row += [to_cell(guests), deal.number if deal else ""]
                if score is None:
                    row += [""] * (len(ENTRY_COLUMNS) + 1)
                else:
                    for _, name, key in ENTRY_COLUMNS:
                        value = score.entry.get(name)
                        value = (value or {}).get(key) if key is not None else value
                        if name == "went_out":
                            row.append("yes" if value else "no")
                        else:
                            row.append("" if value is None else str(value))
                    row.append(score.total)
                rows.append([*row, to_cell(game.rules_name or ""), cell])
                cell = ""
    return _text(rows)


def _history(game: Game) -> dict[int, list[dict]]:
    """Each deal's history as the deals file writes it, by deal number."""
    found: dict[int, list[dict]] = {}
    for event in deal_history.events_of(game):
        found.setdefault(event.deal_number, []).append(
            records_read.history_of(
                event.kind,
                event.side_position,
                event.by,
                event.device,
                event.at,
                event.deal_version,
                event.reason,
                event.before,
                event.after,
            )
        )
    return found


def _loaded(club: Club, filters: Filters, *, finished_only: bool) -> list[Game]:
    query = (
        club_games(club, filters, finished_only=finished_only)
        .order_by(Game.played_on, Game.id)
        .options(
            selectinload(Game.sides).selectinload(Side.players),
            selectinload(Game.deals).selectinload(Deal.scores),
        )
    )
    return list(db.session.execute(query).scalars())


def _players(side: Side) -> str:
    return "; ".join(player.name for player in side.players)


def _text(rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


# --- a public club of several games, names a spreadsheet would run as formulas ----------------


def public_club() -> str:
    """The records' standard club made public, with sides and a saved rule set named like
    formulas and a guest; its slug."""
    club = build_club("formulas")
    clubs.update_settings(club, name=club.name, public=True, min_games=1)
    for name in ("=SUM(A1)", "+Plus", "@At", "-Minus"):
        clubs.add_member(club, name)
    sides = [SideSetup("=HYPERLINK(1)", ["=SUM(A1)", "+Plus"]), SideSetup("-9", ["@At", "Gus"])]
    games.record_game("classic", sides, CLASSIC_DEALS[:2], club=club, played_on=date(2024, 3, 1))
    games.record_game(
        "classic",
        sides,
        CLASSIC_DEALS,
        club=club,
        played_on=date(2024, 3, 1),
        rules_name="=Thursday",
    )
    return club.slug


def club_of(slug: str) -> Club:
    return clubs.club_by_slug(slug)


def exports_counted() -> int:
    return db.session.scalar(select(func.count(Creation.id)).where(Creation.kind == "export"))


# --- written as read: the same bytes --------------------------------------------------------


@pytest.mark.parametrize("kind", ["games", "deals"])
def test_a_streamed_file_is_the_file_written_before_byte_for_byte(app, client, monkeypatch, kind):
    with app.app_context():
        slug = public_club()
        club = club_of(slug)
        made = {"games": reference_games, "deals": reference_deals}[kind]
        expected = {query: made(club, filters) for query, filters in _filters(club).items()}
    # Two games a batch: the file is written over several batches, as a large club's is.
    monkeypatch.setattr(records_read, "BATCH", 2)
    for query, text in expected.items():
        answer = client.get(f"/clubs/{slug}/export/{kind}.csv{query}")
        assert answer.status_code == 200 and answer.is_streamed
        assert answer.get_data(as_text=True) == text, query
        packed = client.get(f"/clubs/{slug}/export/{kind}.csv{query}", headers=GZIP)
        assert packed.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.data).decode() == text, query
    text = expected[ALL]
    assert "'=HYPERLINK(1)" in text and "'=SUM(A1); +Plus" in text and "'-9" in text
    if kind == "deals":
        assert "'=Thursday" in text and ",Gus," in text  # the guest's own column


def _filters(club: Club) -> dict[str, Filters]:
    ann = db.session.scalar(
        select(Member.id).where(Member.club_id == club.id, Member.name == "Ann")
    )
    return {
        ALL: Filters(),
        "?season=all&ruleset=classic": Filters(ruleset="classic"),
        f"?season=all&player={ann}": Filters(member_id=ann),
        "?start=2024-01-11&end=2024-02-08": Filters(date(2024, 1, 11), date(2024, 2, 8)),
    }


def test_a_file_half_sent_keeps_no_table_waiting(app, client, monkeypatch):
    """While a file goes out, a deal is saved at once (on SQLite: the file holds a read, never
    the write lock), and the file's rows are read and written a batch at a time."""
    monkeypatch.setattr(records_read, "BATCH", 2)
    with app.app_context():
        slug = public_club()
        expected = reference_deals(club_of(slug), Filters())
    answer = client.get(f"/clubs/{slug}/export/deals.csv{ALL}")
    pieces = iter(answer.response)
    sent = [next(pieces), next(pieces)]  # the first line, then the first batch of games
    assert sent[0].decode() == records.DEALS_HEADER and sent[1]
    with app.app_context():
        unfinished = db.session.scalar(select(Game).where(Game.finished_at.is_(None)))
        started = time.perf_counter()
        deals.enter_deal(unfinished, Level.TABLE, [{"books": {"clean": 1}}, {}])
        assert time.perf_counter() - started < 5
    sent += list(pieces)
    answer.close()
    assert len(sent) > 4  # a piece a batch
    # Every game's rows, the one whose deal was saved meanwhile with it or without it.
    assert b"".join(sent).decode().count("\r\n") >= expected.count("\r\n")


def test_the_services_text_is_the_streamed_files(app):
    """`export_games`/`export_deals` (the import's tests read them) are the pieces joined."""
    with app.app_context():
        club = club_of(public_club())
        assert records.export_deals(club) == reference_deals(club, Filters())
        assert records.export_games(club, Filters()) == reference_games(club, Filters())


# --- cached by the club's version: 304 while unchanged ----------------------------------------


def test_a_repeat_with_its_etag_is_answered_304_until_the_records_change(app, client):
    with app.app_context():
        slug = public_club()
    url = f"/clubs/{slug}/export/deals.csv{ALL}"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and first.data
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    # Gzipped, the tag is weak; sent back as the browser would, still 304.
    packed = client.get(url, headers=GZIP)
    assert packed.headers["ETag"].startswith('W/"')
    weak = {**GZIP, "If-None-Match": packed.headers["ETag"]}
    assert client.get(url, headers=weak).status_code == 304
    # Another file, or the same file filtered otherwise, is another version.
    assert client.get(f"/clubs/{slug}/export/games.csv{ALL}").headers["ETag"] != etag
    assert client.get(f"{url}&ruleset=classic").headers["ETag"] != etag
    with app.app_context():
        counted = exports_counted()
        unfinished = db.session.scalar(
            select(Game).where(Game.club_id == club_of(slug).id, Game.finished_at.is_(None))
        )
        deals.enter_deal(unfinished, Level.TABLE, [{"books": {"clean": 1}}, {}])
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    with app.app_context():
        assert exports_counted() == counted + 1  # a 304 costs no allowance
        ann = db.session.scalar(select(Member).where(Member.name == "Ann"))
        rename_member(ann, "Annie")
    renamed = client.get(url, headers={"If-None-Match": changed.headers["ETag"]})
    assert renamed.status_code == 200 and "Annie" in renamed.get_data(as_text=True)


# --- limited per address ----------------------------------------------------------------------


def test_past_its_allowance_an_address_is_refused_in_words_and_others_are_not(app, client):
    app.config[exports.VISITORS.setting] = 2
    with app.app_context():
        slug = public_club()
        before = records.export_deals(club_of(slug))
    url = f"/clubs/{slug}/export/games.csv{ALL}"
    first = client.get(url)
    assert client.get(f"/clubs/{slug}/export/standings.csv{ALL}").status_code == 200
    refused = client.get(f"/clubs/{slug}/export/deals.csv{ALL}")
    assert refused.status_code == 429
    page = refused.get_data(as_text=True)
    assert "This address has downloaded 2 club records files in the last hour" in page
    assert "Try again in 60 minutes" in page
    assert 3500 <= int(refused.headers["Retry-After"]) <= 3601
    # Its file already in hand is still current: 304, whatever the allowance.
    current = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert current.status_code == 304
    # Another address is not held to this one's allowance.
    other = client.get(f"/clubs/{slug}/export/deals.csv{ALL}", environ_base=ELSEWHERE)
    assert other.status_code == 200 and other.get_data(as_text=True) == before
    with app.app_context():
        assert exports_counted() == 3  # two here, one there: the refusal counted nothing
        assert records.export_deals(club_of(slug)) == before


def test_a_head_is_sent_no_file_and_costs_no_allowance(app, client):
    app.config[exports.VISITORS.setting] = 1
    with app.app_context():
        slug = public_club()
    url = f"/clubs/{slug}/export/deals.csv{ALL}"
    assert [client.head(url).status_code for _ in range(3)] == [200, 200, 200]
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 429


def test_the_clubs_organiser_has_a_larger_allowance(app, client):
    app.config[exports.VISITORS.setting] = 1
    app.config[exports.ORGANISERS.setting] = 3
    with app.app_context():
        slug = public_club()
    signed_in = app.test_client()
    answer = signed_in.post("/login", data={"username": "keeper", "password": "keeper-of-records"})
    assert answer.status_code == 302
    url = f"/clubs/{slug}/export/standings.csv{ALL}"
    assert [signed_in.get(url).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert client.get(url, environ_base=ELSEWHERE).status_code == 200
    assert client.get(url, environ_base=ELSEWHERE).status_code == 429


def test_an_unusable_setting_keeps_the_allowance(app):
    with app.test_request_context():
        app.config[exports.VISITORS.setting] = "lots"
        assert exports.most_of(exports.VISITORS) == exports.VISITORS.most
        app.config[exports.VISITORS.setting] = 7
        assert exports.most_of(exports.VISITORS) == 7


def test_members_are_named_in_the_version(app):
    """A member renamed renames their players: the version of every file changes with it."""
    with app.app_context():
        club = club_of(public_club())
        before = exports.version_of(club, "games", Filters())
        assert exports.version_of(club, "games", Filters()) == before
        assert exports.version_of(club, "deals", Filters()) != before
        cat = db.session.scalar(select(Member).where(Member.name == "Cat"))
        rename_member(cat, "Kat")
        assert exports.version_of(club_of(club.slug), "games", Filters()) != before


assert MEMBERS  # the standard club's members (test_records.py) play the games above
