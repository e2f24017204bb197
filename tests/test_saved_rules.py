"""A club's saved rule sets: the services, the organiser's pages, games started from one, the
rule card, standings and history by rule set, the API, CSV export and import, and who may do what.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "Thursday rules" here: club rules with a
red three caught costing 300. A deal scores books + red threes + going out + melded - leftover.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest
from game_links import key, link
from sqlalchemy import select
from test_clubs import E, add_members, html, new_club, signup, text

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, MemberResult, SavedRules
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs, games, records, records_import, standings
from scorekeeper.services.games import SideSetup, record_game

pytestmark = pytest.mark.usefixtures("quick_hashing")

SLUG = "tuesday"
THURSDAY = {"red_three_caught": 300}


# ------------------------------------------------------------------------- setting up


def club_with_members(client, public: bool = False) -> None:
    """Olga's club with Ann, Bob and Cat; Olga stays signed in on `client`."""
    signup(client)
    new_club(client, public=public)
    add_members(client, SLUG, "Ann", "Bob", "Cat")


def save_rules(client, name: str = "Thursday rules", ruleset: str = "club", **numbers: str):
    """Post the new-rule-set form as a phone would: the preset's numbers, some changed."""
    data = {"name": name, **{f"rule_{k}": v for k, v in numbers.items()}}
    return client.post(f"/clubs/{SLUG}/rule-sets/new?ruleset={ruleset}", data=data)


def thursday(app, client) -> int:
    """The club, and Thursday rules saved through the page; its id."""
    club_with_members(client)
    response = save_rules(client, red_three_caught="300")
    assert response.status_code == 302, text(response)
    with app.app_context():
        (saved,) = clubs.club_by_slug(SLUG).saved_rules
        return saved.id


def table_phone(app):
    """A phone that opened the club's table link (no account)."""
    phone = app.test_client()
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    assert phone.post(f"/clubs/{SLUG}/table/{code}").status_code == 302
    return phone


def finished_game(app, saved_id: int | None, played_on: str = "2024-03-07") -> int:
    """Ann beats Bob in a four-deal club game, recorded at once (under the saved rules if any).

    Deal 1: Ann 2 clean + 2 dirty, out, 400 melded = 1000+600+100+400 = 2,100; Bob 1 clean and
    1 red three caught, 200 melded = 500 - 300 (Thursday) + 200 = 400, or 500 - 500 + 200 = 200.
    """
    deals = [[E(clean=2, dirty=2, out=True, melded=400), E(clean=1, caught=1, melded=200)]]
    deals += [[{}, {}]] * 3
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        saved = clubs.saved_rules(club, saved_id) if saved_id else None
        game = record_game(
            "club",
            [SideSetup("Ann", ["Ann"]), SideSetup("Bob", ["Bob"])],
            [[DealEntry.from_dict(e) for e in deal] for deal in deals],
            house_rules=dict(saved.house_rules) if saved else None,
            club=club,
            played_on=date.fromisoformat(played_on),
            commit=False,
            saved_rules=saved,
        )
        db.session.commit()
        return game.id


# ------------------------------------------------------------------------- the services


def test_saving_a_rule_set_checks_it_as_a_new_games_house_rules_are(app, client):
    club_with_members(client)
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        saved = clubs.create_saved_rules(club, "  Thursday   rules ", "club", THURSDAY)
        assert (saved.name, saved.ruleset, saved.house_rules) == (
            "Thursday rules",
            "club",
            THURSDAY,
        )
        assert games.rules_of_saved(saved).red_three_caught == 300
        refusals = {
            "no preset": ("Friday", "poker", {}, "No rule set 'poker'"),
            "unknown rule": ("Friday", "club", {"wild_cards": 9}, "no rule called 'wild_cards'"),
            "out of range": ("Friday", "club", {"red_three_caught": 200_000}, "between 0 and"),
            "off the fives": ("Friday", "club", {"going_out_bonus": 103}, "multiple of 5"),
            "same name": ("THURSDAY RULES", "club", {}, "already has a rule set"),
            "blank name": ("   ", "club", {}, "name"),
            "long name": ("x" * 61, "club", {}, "up to 60 characters"),
            "control": ("Thurs\x00day", "club", {}, "control"),
        }
        for name, ruleset, numbers, words in refusals.values():
            with pytest.raises(clubs.ClubRefused, match=re.escape(words)):
                clubs.create_saved_rules(club, name, ruleset, numbers)
            db.session.rollback()
        # Each refusal of the numbers names the rule it is about.
        with pytest.raises(clubs.RulesRefused) as refused:
            clubs.create_saved_rules(
                club, "Friday", "club", {"red_three_caught": 200_000, "going_out_bonus": 5}
            )
        assert [rule for rule, _ in refused.value.problems] == ["red_three_caught"]
        with pytest.raises(clubs.RulesRefused) as refused:
            clubs.create_saved_rules(club, "Friday", "club", {"card_values": {"ace": 22}})
        assert [rule for rule, _ in refused.value.problems] == ["card_values"]
        db.session.rollback()
        assert [s.name for s in clubs.club_by_slug(SLUG).saved_rules] == ["Thursday rules"]


def test_one_default_at_most_and_none_allowed(app, client):
    club_with_members(client)
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        first = clubs.create_saved_rules(club, "Thursday rules", "club", THURSDAY)
        second = clubs.create_saved_rules(club, "Partners", "classic", {})
        clubs.make_default(club, first)
        assert clubs.default_rules(club) is first
        clubs.make_default(club, second)
        assert {s.name: s.is_default for s in club.saved_rules} == {
            "Partners": True,
            "Thursday rules": False,
        }
        assert clubs.default_rules(club) is second
        clubs.make_default(club, None)
        assert clubs.default_rules(club) is None
        assert not any(s.is_default for s in club.saved_rules)


def test_changing_or_deleting_a_saved_rule_set_never_changes_a_started_game(app, client):
    saved_id = thursday(app, client)
    # A game started from it through the new-game page, with no rule typed.
    started = client.post(
        f"/clubs/{SLUG}/games/new?saved={saved_id}",
        data={"saved": str(saved_id), "side0_member0": "Ann", "side1_member0": "Bob"},
    )
    assert started.status_code == 302, text(started)
    with app.app_context():
        game = db.session.execute(select(Game)).scalar_one()
        game_id = game.id
        assert (game.saved_rules_id, game.rules_name, game.house_rules) == (
            saved_id,
            "Thursday rules",
            THURSDAY,
        )
    card = client.get(link(app, game_id) + "/rules")
    assert "Thursday rules, Tuesday Club's own rules, based on Club individual" in text(card)
    assert "Red three caught (points lost): 300 (Club individual: 500)" in text(card)

    # Renamed and changed: the game keeps its numbers and the name it started with.
    edited = client.post(
        f"/clubs/{SLUG}/rule-sets/{saved_id}/edit",
        data={"name": "Friday rules", "rule_red_three_caught": "200"},
    )
    assert edited.status_code == 302, text(edited)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.rules_name, game.house_rules) == ("Thursday rules", THURSDAY)
        assert games.rules_of(game).red_three_caught == 300
        saved = db.session.get(SavedRules, saved_id)
        assert (saved.name, saved.house_rules) == ("Friday rules", {"red_three_caught": 200})
    card = client.get(link(app, game_id) + "/rules")
    assert "Thursday rules, Tuesday Club's own rules" in text(card)
    assert "Red three caught −300" in text(card)

    # Deleted: the game loses the link (the foreign key), never its numbers or its name.
    page = client.get(f"/clubs/{SLUG}/rule-sets/{saved_id}/delete")
    assert page.status_code == 200 and "Delete Friday rules?" in text(page)
    with app.app_context():
        assert db.session.get(SavedRules, saved_id) is not None  # asking deletes nothing
    deleted = client.post(f"/clubs/{SLUG}/rule-sets/{saved_id}/delete")
    assert deleted.status_code == 302
    with app.app_context():
        assert db.session.get(SavedRules, saved_id) is None
        game = db.session.get(Game, game_id)
        assert (game.saved_rules_id, game.rules_name, game.house_rules) == (
            None,
            "Thursday rules",
            THURSDAY,
        )
    assert "Red three caught −300" in text(client.get(link(app, game_id) + "/rules"))


# ------------------------------------------------------------------------- the pages


def test_an_organiser_saves_edits_and_defaults_rule_sets_through_the_pages(app, client):
    club_with_members(client)
    # The nav and the settings lead to the rule sets; a preset is chosen first.
    assert f'href="/clubs/{SLUG}/rule-sets"' in client.get(f"/clubs/{SLUG}/settings").text
    assert f'href="/clubs/{SLUG}/rule-sets"' in client.get(f"/clubs/{SLUG}").text
    chooser = client.get(f"/clubs/{SLUG}/rule-sets/new")
    assert chooser.status_code == 200 and "Start from Club individual" in text(chooser)
    form = html(client.get(f"/clubs/{SLUG}/rule-sets/new?ruleset=club"))
    assert form.options["rule_melded_black_threes"] == ["never", "going_out", "always"]

    # Refused numbers stand beside their field; everything typed is kept.
    refused = save_rules(client, red_three_caught="303", going_out_bonus="200000")
    assert refused.status_code == 422
    shown = text(refused)
    assert "going_out_bonus must be between 0 and 100,000, not 200,000" in shown
    assert 'value="303"' in refused.text
    refused = save_rules(client, red_three_caught="303")
    assert refused.status_code == 422
    assert "Red three caught (points lost) must be a multiple of 5, as every score is" in text(
        refused
    )
    assert 'aria-describedby="rule_red_three_caught-error"' in refused.text

    assert save_rules(client, red_three_caught="300").status_code == 302
    again = save_rules(client, name="thursday RULES")
    assert again.status_code == 422 and "already has a rule set called Thursday rules" in text(
        again
    )
    assert (
        save_rules(client, "Partners", "classic", melded_black_threes="always").status_code == 302
    )
    with app.app_context():
        ids = {s.name: s.id for s in clubs.club_by_slug(SLUG).saved_rules}
        partners = clubs.saved_rules(clubs.club_by_slug(SLUG), ids["Partners"])
        assert partners.house_rules == {"melded_black_threes": "always"}

    listing = text(client.get(f"/clubs/{SLUG}/rule-sets"))
    assert "Thursday rules Based on Club individual. 0 finished games played with it." in listing
    assert "Red three caught (points lost): 300 (Club individual: 500)" in listing
    assert "Melded black threes: Black threes may be melded at any time" in listing

    made = client.post(
        f"/clubs/{SLUG}/rule-sets/default", data={"saved": str(ids["Thursday rules"])}
    )
    assert made.status_code == 302
    listing = text(client.get(f"/clubs/{SLUG}/rule-sets"))
    assert "Thursday rules · the default" in listing and "No default" in listing

    # The overview offers the default and each other rule set one tap away.
    overview = client.get(f"/clubs/{SLUG}").text
    assert f'href="/clubs/{SLUG}/games/new?saved={ids["Thursday rules"]}"' in overview
    assert "Start a game with Thursday rules" in overview
    assert f'href="/clubs/{SLUG}/games/new?saved={ids["Partners"]}"' in overview
    assert "Start a game with other rules" in overview

    # The rules list of a club game names the club's own first, then the presets.
    chooser = text(client.get(f"/clubs/{SLUG}/games/new?choose=1"))
    assert (
        chooser.index("Play Partners")
        < chooser.index("Play Thursday rules")
        < chooser.index("Play Classic partnership")
    )
    # With a default, the new-game page starts from it: no rule to type.
    new_game = client.get(f"/clubs/{SLUG}/games/new")
    assert 'name="saved" value="{}"'.format(ids["Thursday rules"]) in new_game.text
    assert 'name="rule_red_three_caught" inputmode="numeric" value="300"' in new_game.text

    # The edit form starts from the saved numbers; no default at all is a choice too.
    edit = client.get(f"/clubs/{SLUG}/rule-sets/{ids['Thursday rules']}/edit")
    assert 'value="Thursday rules"' in edit.text and 'value="300"' in edit.text
    assert (
        client.post(f"/clubs/{SLUG}/rule-sets/default", data={"saved": "none"}).status_code == 302
    )
    with app.app_context():
        assert clubs.default_rules(clubs.club_by_slug(SLUG)) is None


def test_a_saved_rule_sets_own_rule_card(app, client):
    saved_id = thursday(app, client)
    card = client.get(f"/clubs/{SLUG}/rules/{saved_id}")
    assert card.status_code == 200
    shown = text(card)
    assert "Thursday rules, Tuesday Club's own rules, based on Club individual." in shown
    assert "Differences from Club individual" in shown
    assert "Red three caught −300" in shown
    assert f"/clubs/{SLUG}/games/new?saved={saved_id}" in card.text
    assert client.get(f"/clubs/{SLUG}/rules/{saved_id + 1}").status_code == 404


def test_the_table_link_starts_a_game_with_the_default_without_typing_a_rule(app, client):
    saved_id = thursday(app, client)
    client.post(f"/clubs/{SLUG}/rule-sets/default", data={"saved": str(saved_id)})
    phone = table_phone(app)
    page = phone.get(f"/clubs/{SLUG}/games/new")
    assert "Thursday rules: Tuesday Club's own rules" in text(page)
    started = phone.post(
        f"/clubs/{SLUG}/games/new?ruleset=club",
        data={"ruleset": "club", "saved": str(saved_id), "side0_member0": "Ann",
              "side1_member0": "Cat"},
    )  # fmt: skip
    assert started.status_code == 302, text(started)
    with app.app_context():
        game = db.session.execute(select(Game)).scalar_one()
        assert (game.saved_rules_id, game.house_rules) == (saved_id, THURSDAY)


# ------------------------------------------------------------------------- standings and history


def test_standings_and_history_filter_by_saved_rule_set(app, client):
    saved_id = thursday(app, client)
    under = finished_game(app, saved_id, "2024-03-07")
    plain = finished_game(app, None, "2024-03-12")
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        results = db.session.execute(select(MemberResult.game_id, MemberResult.saved_rules_id))
        assert sorted(set(results)) == [(under, saved_id), (plain, 0)]
        by_saved = standings.standings(club, standings.Filters(saved_rules_id=saved_id))
        # Bob: 400 under Thursday rules (a red three caught costs 300, not 500).
        assert {(r.player, r.games, r.total_points) for r in by_saved} == {
            ("Ann", 1, 2100),
            ("Bob", 1, 400),
        }
        assert {r.games for r in standings.standings(club, standings.Filters())} == {2}

    value = f"saved:{saved_id}"
    page = client.get(f"/clubs/{SLUG}/standings", query_string={"season": "all", "ruleset": value})
    assert page.status_code == 200
    assert html(page).options["ruleset"] == [
        "", "classic", "club", "family", "casual", "ten-thousand", "cutthroat", value
    ]  # fmt: skip
    rows = [row for classes, rows in html(page).tables if "standings" in classes for row in rows]
    assert [(row[1], row[2], row[7]) for row in rows] == [
        ("Ann", "1", "2,100"),
        ("Bob", "1", "400"),
    ]
    assert "Thursday rules (Club individual)" in text(page)
    history = client.get(f"/clubs/{SLUG}/games", query_string={"season": "all", "ruleset": value})
    assert history.text.count("/t/") == 1 and link(app, under) in history.text
    # A preset's key still means every game of the preset, the saved rule set's included.
    both = client.get(f"/clubs/{SLUG}/games", query_string={"season": "all", "ruleset": "club"})
    assert both.text.count('class="game-line"') == 2
    # A value that is no rule set of this club counts every game, and is no error.
    for bogus in ("saved:999", "saved:x", "saved:", "saved:" + "9" * 40):
        answer = client.get(f"/clubs/{SLUG}/standings", query_string={"ruleset": bogus})
        assert answer.status_code == 200

    # The rule-set page counts the finished games played with each.
    assert "1 finished game played with it" in text(client.get(f"/clubs/{SLUG}/rule-sets"))


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
        assert rows[0][-1] == "rule_set"
        older = io.StringIO()
        csv.writer(older).writerows(row[:-1] for row in rows)
        olga = club.organisers[0]
        target = clubs.create_club("Target", "target", olga)
        assert records_import.import_deals(target, older.getvalue()).games == 1
        game = db.session.execute(select(Game).where(Game.club_id == target.id)).scalar_one()
        assert (game.saved_rules_id, game.rules_name, game.house_rules) == (None, None, THURSDAY)
        # A name that changes within one game, or is unprintable, names its line and column.
        mixed = [rows[0], *rows[1:]]
        mixed[2] = [*mixed[2][:-1], "Friday rules"]
        broken = io.StringIO()
        csv.writer(broken).writerows(mixed)
        with pytest.raises(records_import.ImportRefused) as refused:
            records_import.import_deals(clubs.club_by_slug("target"), broken.getvalue())
        assert (refused.value.line, refused.value.column) == (3, "rule_set")
        mixed[2] = [*mixed[2][:-1], "Thurs\u202eday"]
        broken = io.StringIO()
        csv.writer(broken).writerows(mixed)
        with pytest.raises(records_import.ImportRefused) as refused:
            records_import.import_deals(clubs.club_by_slug("target"), broken.getvalue())
        assert refused.value.column == "rule_set"


# ------------------------------------------------------------------------- who may


def test_only_organisers_change_rule_sets(app, client):
    saved_id = thursday(app, client)
    changes = [
        ("get", f"/clubs/{SLUG}/rule-sets/new", None),
        ("get", f"/clubs/{SLUG}/rule-sets/new?ruleset=club", None),
        ("post", f"/clubs/{SLUG}/rule-sets/new?ruleset=club", {"name": "Mine"}),
        ("get", f"/clubs/{SLUG}/rule-sets/{saved_id}/edit", None),
        ("post", f"/clubs/{SLUG}/rule-sets/{saved_id}/edit", {"name": "Mine"}),
        ("get", f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", None),
        ("post", f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", {}),
        ("post", f"/clubs/{SLUG}/rule-sets/default", {"saved": str(saved_id)}),
    ]
    stranger, phone = app.test_client(), table_phone(app)
    for method, url, data in changes:
        # A private club stays hidden from a stranger; the table link may play, not change.
        assert getattr(stranger, method)(url, data=data).status_code == 404, url
        assert getattr(phone, method)(url, data=data).status_code == 403, url
    # They may read what the table plays by, as far as the club lets them.
    assert stranger.get(f"/clubs/{SLUG}/rule-sets").status_code == 404
    assert stranger.get(f"/clubs/{SLUG}/rules/{saved_id}").status_code == 404
    assert phone.get(f"/clubs/{SLUG}/rule-sets").status_code == 200
    assert phone.get(f"/clubs/{SLUG}/rules/{saved_id}").status_code == 200
    listing = phone.get(f"/clubs/{SLUG}/rule-sets").text
    assert "/edit" not in listing and "/delete" not in listing and 'name="saved"' not in listing
    with app.app_context():
        (saved,) = clubs.club_by_slug(SLUG).saved_rules
        assert (saved.name, saved.house_rules, saved.is_default) == (
            "Thursday rules",
            THURSDAY,
            False,
        )


def test_another_clubs_organiser_cannot_touch_them(app, client):
    saved_id = thursday(app, client)
    intruder = app.test_client()
    signup(intruder, "ivan", "another-long-password")
    new_club(intruder, "ivans", "Ivan's club", public=True)
    # Another club's saved rule set is no rule set of this one.
    for url in (
        f"/clubs/ivans/rule-sets/{saved_id}/edit",
        f"/clubs/ivans/rules/{saved_id}",
        f"/clubs/ivans/games/new?saved={saved_id}",
    ):
        assert intruder.get(url).status_code == 404, url
    # Nor can it be Ivan's default: his list again, the same answer as for an id never saved.
    answer = intruder.post("/clubs/ivans/rule-sets/default", data={"saved": str(saved_id)})
    assert answer.status_code == 422
    assert "not one of the club&#39;s rule sets now" in answer.get_data(as_text=True)
    assert "Thursday rules" not in answer.get_data(as_text=True)


def test_no_bad_input_is_a_server_error(app, client):
    """Each bad input gets the one answer the views give it."""
    saved_id = thursday(app, client)
    # Refused names: the form again, saying why.
    for name in ["", " ", "x" * 500, "\x00", "\u202e"]:
        answer = client.post(f"/clubs/{SLUG}/rule-sets/new?ruleset=club", data={"name": name})
        assert answer.status_code == 422, repr(name)
    # Figures that are no whole number are refused; one with spaces round it is read.
    for figure, status in (
        ("-5", 422),
        ("abc", 422),
        ("9" * 40, 422),
        ("1e3", 422),
        ("３００", 422),
        (" 300 ", 302),
    ):
        answer = save_rules(client, "Weird", red_three_caught=figure)
        assert answer.status_code == status, repr(figure)
    # The default: a value no button sends (none, over 20 characters, not a number, no rule set
    # of this club's) shows the list again (422) saying the default was not changed.
    for value in ("", "9" * 40, "x", "-1", "0", "none ", str(saved_id + 7)):
        answer = client.post(f"/clubs/{SLUG}/rule-sets/default", data={"saved": value})
        assert answer.status_code == 422, repr(value)
        page = answer.get_data(as_text=True)
        assert "not one of the club&#39;s rule sets now" in page, repr(value)
        assert "Make Thursday rules the default" in page, repr(value)
    with app.app_context():
        assert not any(saved.is_default for saved in clubs.club_by_slug(SLUG).saved_rules)
    # A preset that is none: the page that lists the presets to choose from.
    for path, status in (
        ("/rule-sets/new?ruleset=%00", 200),
        ("/rule-sets/new?ruleset=" + "x" * 5000, 200),
        (f"/rule-sets/{saved_id + 7}/edit", 404),
        ("/rule-sets/99999999999999999999999/edit", 404),
        ("/rules/0", 404),
        ("/rules/99999999999999999999999", 404),
        ("/games/new?saved=abc", 404),
        ("/games/new?saved=0", 404),
    ):
        assert client.get(f"/clubs/{SLUG}{path}").status_code == status, path
    edit = client.post(
        f"/clubs/{SLUG}/rule-sets/{saved_id}/edit",
        data={"name": "Thursday rules", "rule_melded_black_threes": "sometimes"},
    )
    assert edit.status_code == 422


def test_every_rule_set_form_needs_its_csrf_token(app, client):
    saved_id = thursday(app, client)
    app.config["WTF_CSRF_ENABLED"] = True
    posts = [
        (f"/clubs/{SLUG}/rule-sets/new?ruleset=club", {"name": "Forged"}),
        (f"/clubs/{SLUG}/rule-sets/{saved_id}/edit", {"name": "Forged"}),
        (f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", {}),
        (f"/clubs/{SLUG}/rule-sets/default", {"saved": str(saved_id)}),
    ]
    # Every one is marked refilled_when_expired: its page comes back with a fresh token and
    # says the form had expired (422); nothing is done.
    expired = (
        "This form had expired",
        "This form had expired",
        "This form had expired",
        "the page had expired",
    )
    for (url, data), words in zip(posts, expired, strict=True):
        answer = client.post(url, data=data)
        assert answer.status_code == 422, url
        assert words in answer.get_data(as_text=True), url
    with app.app_context():
        (saved,) = clubs.club_by_slug(SLUG).saved_rules
        assert (saved.name, saved.is_default) == ("Thursday rules", False)
    # With the page's token, the same post goes through.
    page = client.get(f"/clubs/{SLUG}/rule-sets/{saved_id}/delete").text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    token = token or re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    deleted = client.post(
        f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", data={"csrf_token": token.group(1)}
    )
    assert deleted.status_code == 302
    with app.app_context():
        assert clubs.club_by_slug(SLUG).saved_rules == []


def test_a_game_under_saved_rules_is_headed_with_their_name(app, client):
    """The scoreboard names the club's rules; a game on the plain preset keeps the preset's."""
    saved_id = thursday(app, client)
    under = finished_game(app, saved_id)
    plain = finished_game(app, None)
    heading = re.compile(r"<h1>([^<]*)<span")
    assert heading.search(client.get(link(client, under)).get_data(as_text=True)).group(
        1
    ).strip() == ("Thursday rules")
    assert heading.search(client.get(link(client, plain)).get_data(as_text=True)).group(
        1
    ).strip() == ("Club individual")
