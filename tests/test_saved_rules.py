"""A club's saved rule sets: the services, the organiser's pages, games started from one, the
rule card, standings and history by rule set, and a game headed with their name.

The API and CSV export and import are in tests/test_saved_rules_records.py, who may do what in
tests/test_saved_rules_access.py; the club they share is in tests/saved_rules_club.py.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "Thursday rules" here: club rules with a
red three caught costing 300. A deal scores books + red threes + going out + melded - leftover.
"""

from __future__ import annotations

import re

import pytest
from game_links import link
from saved_rules_club import (
    SLUG,
    THURSDAY,
    club_with_members,
    finished_game,
    save_rules,
    table_phone,
    thursday,
)
from sqlalchemy import select
from test_clubs import html, text

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, MemberResult, SavedRules
from scorekeeper.services import clubs, games, standings

pytestmark = pytest.mark.usefixtures("quick_hashing")


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
