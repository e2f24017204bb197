"""A club's saved rule sets in the API (listing them, starting a game from one, standings by
rule set) and in CSV export and import (the rule set's name, linked again when the numbers
agree; an older deals file without it).

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "Thursday rules" here: club rules with a
red three caught costing 300. A deal scores books + red threes + going out + melded - leftover.
"""

from __future__ import annotations

import csv
import io

import pytest
from game_links import key
from saved_rules_club import SLUG, THURSDAY, finished_game, thursday
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.services import clubs, records, records_import, standings

pytestmark = pytest.mark.usefixtures("quick_hashing")


# ------------------------------------------------------------------------- the API


def test_the_api_lists_rule_sets_and_starts_a_game_from_one(app, client):
    saved_id = thursday(app, client)
    client.post(f"/clubs/{SLUG}/rule-sets/default", data={"saved": str(saved_id)})
    api = app.test_client()
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    table = {"X-Table-Code": code}
    assert api.get(f"/api/v1/clubs/{SLUG}/rule-sets").status_code == 404  # a private club
    listed = api.get(f"/api/v1/clubs/{SLUG}/rule-sets", headers=table)
    assert listed.status_code == 200
    (entry,) = listed.get_json()
    assert {k: entry[k] for k in ("id", "name", "ruleset", "house_rules", "default")} == {
        "id": saved_id,
        "name": "Thursday rules",
        "ruleset": "club",
        "house_rules": THURSDAY,
        "default": True,
    }
    assert entry["rules"]["red_three_caught"] == 300 and entry["rules"]["key"] == "club"

    sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bob", "players": ["Bob"]}]
    body = {"sides": sides, "club": SLUG, "saved_rules": saved_id}
    started = api.post("/api/v1/games", json=body, headers=table)
    assert started.status_code == 201, started.get_json()
    state = started.get_json()
    assert state["saved_rules"] == {"id": saved_id, "name": "Thursday rules"}
    assert state["rules_name"] == "Thursday rules"
    assert (state["ruleset"], state["house_rules"]) == ("club", THURSDAY)
    assert state["rules"]["red_three_caught"] == 300
    # Given too, the preset and the rules must be the saved rule set's own.
    agreeing = {**body, "ruleset": "club", "rules": {"red_three_caught": 300}}
    assert api.post("/api/v1/games", json=agreeing, headers=table).status_code == 201
    for wrong, field in (
        ({"ruleset": "classic"}, "/ruleset"),
        ({"rules": {"red_three_caught": 500}}, "/rules"),
        ({"rules": "loud"}, "/rules"),
        ({"saved_rules": saved_id + 1}, "/saved_rules"),
        ({"saved_rules": "1"}, "/saved_rules"),
        ({"saved_rules": True}, "/saved_rules"),
        ({"club": None}, "/saved_rules"),
    ):
        answer = api.post("/api/v1/games", json={**body, **wrong}, headers=table)
        assert answer.status_code == 422, (wrong, answer.get_json())
        pointers = [i["pointer"] for e in answer.get_json()["errors"] for i in e["inputs"]]
        assert field in pointers, (wrong, answer.get_json())
    # A game without one says so.
    plain = api.post("/api/v1/games", json={"ruleset": "club", "sides": sides})
    assert (plain.get_json()["saved_rules"], plain.get_json()["rules_name"]) == (None, None)
    game_id = state["id"]
    again = api.get(f"/api/v1/games/{game_id}", headers={**key(app, game_id), **table})
    assert again.get_json()["saved_rules"] == {"id": saved_id, "name": "Thursday rules"}


def test_the_api_standings_filter_by_saved_rule_set(app, client):
    saved_id = thursday(app, client)
    finished_game(app, saved_id, "2024-03-07")
    finished_game(app, None, "2024-03-12")
    with app.app_context():
        table = {"X-Table-Code": clubs.club_by_slug(SLUG).table_code}
    url = f"/api/v1/clubs/{SLUG}/standings"
    rows = client.get(url, query_string={"season": "all", "saved_rules": saved_id}, headers=table)
    assert rows.status_code == 200
    assert {(r["player"], r["games"], r["total_points"]) for r in rows.get_json()} == {
        ("Ann", 1, 2100),
        ("Bob", 1, 400),
    }
    for bogus in ("999", "x", "9" * 30, "-1"):
        answer = client.get(url, query_string={"saved_rules": bogus}, headers=table)
        assert answer.status_code == 422
        assert answer.get_json()["errors"][0]["field"] == "saved_rules"


# ------------------------------------------------------------------------- CSV


def _dicts(text_: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text_)))


def test_csv_carries_the_rule_set_name_and_import_links_it_when_the_numbers_agree(app, client):
    saved_id = thursday(app, client)
    finished_game(app, saved_id)
    finished_game(app, None, "2024-03-12")
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        exported = records.export_deals(club, standings.Filters())
        games_csv = _dicts(records.export_games(club, standings.Filters()))
        olga = club.organisers[0]
        # Two other clubs: one plays Thursday rules with the same numbers, one with others.
        same = clubs.create_club("Same", "same", olga)
        clubs.create_saved_rules(same, "thursday rules", "club", THURSDAY)
        other = clubs.create_club("Other", "other", olga)
        clubs.create_saved_rules(other, "Thursday rules", "club", {"red_three_caught": 200})
    assert [row["rule_set"] for row in games_csv] == ["Thursday rules", ""]
    assert {row["rule_set"] for row in _dicts(exported)} == {"Thursday rules", ""}

    with app.app_context():
        report = records_import.import_deals(clubs.club_by_slug("same"), exported)
        assert report.games == 2
        same = clubs.club_by_slug("same")
        (linked,) = same.saved_rules
        played = db.session.execute(
            select(Game).where(Game.club_id == same.id).order_by(Game.played_on)
        ).scalars()
        assert [(g.saved_rules_id, g.rules_name) for g in played] == [
            (linked.id, "Thursday rules"),
            (None, None),
        ]
        by_saved = standings.standings(same, standings.Filters(saved_rules_id=linked.id))
        assert {(r.player, r.total_points) for r in by_saved} == {("Ann", 2100), ("Bob", 400)}

        records_import.import_deals(clubs.club_by_slug("other"), exported)
        other = clubs.club_by_slug("other")
        played = db.session.execute(
            select(Game).where(Game.club_id == other.id).order_by(Game.played_on)
        ).scalars()
        assert [(g.saved_rules_id, g.rules_name) for g in played] == [
            (None, "Thursday rules"),
            (None, None),
        ]


def test_an_older_deals_file_without_the_rule_set_column_still_imports(app, client):
    saved_id = thursday(app, client)
    finished_game(app, saved_id)
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        rows = list(csv.reader(io.StringIO(records.export_deals(club, standings.Filters()))))
        # Before saved rule sets, and before each deal's history (issue 40) after them.
        assert rows[0][-2:] == ["rule_set", "history"]
        older = io.StringIO()
        csv.writer(older).writerows(row[:-2] for row in rows)
        olga = club.organisers[0]
        target = clubs.create_club("Target", "target", olga)
        assert records_import.import_deals(target, older.getvalue()).games == 1
        game = db.session.execute(select(Game).where(Game.club_id == target.id)).scalar_one()
        assert (game.saved_rules_id, game.rules_name, game.house_rules) == (None, None, THURSDAY)
        # A name that changes within one game, or is unprintable, names its line and column.
        mixed = [rows[0], *rows[1:]]
        mixed[2] = [*mixed[2][:-2], "Friday rules", mixed[2][-1]]
        broken = io.StringIO()
        csv.writer(broken).writerows(mixed)
        with pytest.raises(records_import.ImportRefused) as refused:
            records_import.import_deals(clubs.club_by_slug("target"), broken.getvalue())
        assert (refused.value.line, refused.value.column) == (3, "rule_set")
        mixed[2] = [*mixed[2][:-2], "Thurs\u202eday", mixed[2][-1]]
        broken = io.StringIO()
        csv.writer(broken).writerows(mixed)
        with pytest.raises(records_import.ImportRefused) as refused:
            records_import.import_deals(clubs.club_by_slug("target"), broken.getvalue())
        assert refused.value.column == "rule_set"
