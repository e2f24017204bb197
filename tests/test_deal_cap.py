"""Issue 26: a game's deals capped at 100, the scoreboard's deals a page at a time, old games read.

A house rule once let a game hold 1,000 deals: a save then took 352 ms, the scoreboard was
1.5 MB, and six threads correcting deal 1 held other tables' saves up for seconds. Now no rule
set reaches past `MAX_DEAL_LIMIT`; a game saved under a higher limit still opens and reads, takes
no more deals and no correction; the scoreboard shows `SCOREBOARD_DEALS` deals to a page, the
newest first. What the worst game costs is measured by bench/worst_game.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from game_links import key, link
from page_reader import read_page
from sqlalchemy import select, update

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, Game, SavedRules
from scorekeeper.rules import DealEntry
from scorekeeper.rules.terms import DEAL_LIMIT, MAX_DEAL_LIMIT, MAX_DEALS, SCOREBOARD_DEALS
from scorekeeper.services import clubs, games
from scorekeeper.services.games import SideSetup, record_game

TEAMS = [SideSetup("North", ["Ann", "Bob"]), SideSetup("South", ["Cat", "Dan"])]
ZERO = [DealEntry.from_dict({}), DealEntry.from_dict({})]  # nobody scores: no target is reached
ONE_BOOK = {"scores": [{"books": {"clean": 1}}, {}]}


def words(response) -> str:
    """A page's visible text, spaces squeezed."""
    return " ".join(" ".join(read_page(response.get_data(as_text=True)).words).split())


def recorded(app, deals: int, house_rules: dict[str, Any] | None = None) -> int:
    """A ten-thousand game of `deals` all-zero deals, recorded at once; its id."""
    with app.app_context():
        game = record_game("ten-thousand", TEAMS, [ZERO] * deals, house_rules=house_rules)
        return game.id


def from_before(app, deals: int, limit: int = 1_000) -> int:
    """A game as one saved before the ceiling was lowered: `deals` deals, a house-rule limit of
    `limit` (up to 1,000 was allowed), written to the database as it stood; its id."""
    game_id = recorded(app, deals)
    with app.app_context():
        db.session.execute(
            update(Game).where(Game.id == game_id).values(house_rules={"deal_limit": limit})
        )
        db.session.commit()
    return game_id


def deals_shown(response) -> list[int]:
    """The numbers of the deals the scoreboard lists, in order."""
    return [int(n) for n in re.findall(r'id="deal-(\d+)"', response.get_data(as_text=True))]


def entries(app, game_id: int, number: int) -> list[dict[str, Any]]:
    """Deal `number`'s entries as saved."""
    with app.app_context():
        deal = db.session.scalar(select(Deal).where(Deal.game_id == game_id, Deal.number == number))
        return [score.entry for score in deal.scores]


# ------------------------------------------------------------------------------ the ceiling


def test_no_rule_set_holds_more_than_100_deals():
    """100 by default and at most; a house rule may lower it, never raise it, and past it is
    refused naming deal_limit and 100 (it was 1,000)."""
    assert DEAL_LIMIT == MAX_DEAL_LIMIT == 100
    assert MAX_DEALS <= MAX_DEAL_LIMIT  # a game of N deals always fits
    assert all(rules.deal_limit == 100 for rules in engine.PRESETS.values())
    assert engine.ruleset("ten-thousand", {"deal_limit": 40}).deal_limit == 40
    for too_many in (101, 1_000):
        with pytest.raises(engine.RulesError, match=f"between 1 and 100, not {too_many:,}"):
            engine.ruleset("ten-thousand", {"deal_limit": too_many})


def test_the_api_refuses_a_house_rule_past_100_and_starts_nothing(client):
    """A 422 naming rules.deal_limit and the ceiling; no game is started."""
    sides = [{"name": "North"}, {"name": "South"}]
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": "ten-thousand", "sides": sides, "rules": {"deal_limit": 1000}},
    )
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert any("deal_limit must be between 1 and 100, not 1,000" in e["message"] for e in errors)
    with client.application.app_context():
        assert db.session.scalar(select(Game.id)) is None


def test_the_101st_deal_is_refused(app, client):
    """A game of 100 deals takes no more: 409 naming the limit, nothing saved."""
    game_id = recorded(app, DEAL_LIMIT)
    answer = client.post(f"/api/v1/games/{game_id}/deals", json=ONE_BOOK, headers=key(app, game_id))
    assert answer.status_code == 409
    assert "reached its limit of 100 deals" in answer.get_json()["errors"][0]["message"]
    with app.app_context():
        assert len(games.get_game(game_id).deals) == DEAL_LIMIT


# ------------------------------------------------------------- games saved under a higher limit


def test_a_game_from_before_opens_and_reads_but_takes_no_deal(app, client):
    """130 deals under a house rule of 1,000: the scoreboard, rule card, JSON and scorer answer;
    the game says it holds more than a game may, offers no deal, and a deal sent is refused."""
    game_id = from_before(app, 130)
    page = client.get(link(app, game_id))
    assert page.status_code == 200
    said = words(page)
    assert "This game holds 130 deals, more than the 100 a game may hold" in said
    assert "Enter deal" not in said and "Correct deal" not in said
    assert client.get(link(app, game_id) + "/rules").status_code == 200
    assert client.get(link(app, game_id) + "/scorer").status_code == 200
    state = client.get(f"/api/v1/games/{game_id}", headers=key(app, game_id))
    assert state.status_code == 200
    assert state.get_json()["deal_limit"] == 100
    assert state.get_json()["deal_limit_reached"] is True and state.get_json()["next_deal"] is None

    sent = client.post(f"/api/v1/games/{game_id}/deals", json=ONE_BOOK, headers=key(app, game_id))
    assert sent.status_code == 409
    assert "holds 130 deals" in sent.get_json()["errors"][0]["message"]
    with app.app_context():
        assert len(games.get_game(game_id).deals) == 130


def test_a_game_from_before_takes_no_correction(app, client):
    """Correcting deal 1 would replay 130 deals: refused by the API (409) and the page (back to
    the scoreboard, saying why); a preview says so too; deal 1 stays as it was."""
    game_id = from_before(app, 130)
    before = entries(app, game_id, 1)
    answer = client.put(
        f"/api/v1/games/{game_id}/deals/1", json=ONE_BOOK, headers=key(app, game_id)
    )
    assert answer.status_code == 409
    assert "can be read but not corrected" in answer.get_json()["errors"][0]["message"]

    opened = client.get(link(app, game_id) + "/deals/1/edit")
    assert opened.status_code == 302
    assert "can be read but not corrected" in words(client.get(opened.headers["Location"]))
    posted = client.post(link(app, game_id) + "/deals/1/edit", data={"version": "1"})
    assert posted.status_code == 302
    preview = client.post(link(app, game_id) + "/deals/1/preview", data={})
    assert "can be read but not corrected" in words(preview)
    assert entries(app, game_id, 1) == before


def test_a_game_from_before_under_the_ceiling_plays_on_to_it(app, client):
    """A limit of 1,000 saved on a game of 99 deals is read as 100: one more deal, then full."""
    game_id = from_before(app, 99)
    headers = key(app, game_id)
    assert (
        client.post(f"/api/v1/games/{game_id}/deals", json=ONE_BOOK, headers=headers).status_code
        == 201
    )
    full = client.post(f"/api/v1/games/{game_id}/deals", json=ONE_BOOK, headers=headers)
    assert full.status_code == 409
    assert "reached its limit of 100 deals" in full.get_json()["errors"][0]["message"]
    # Corrections stay open: the game holds no more than a game may.
    fixed = client.put(f"/api/v1/games/{game_id}/deals/1", json=ONE_BOOK, headers=headers)
    assert fixed.status_code == 200


def test_a_saved_rule_set_from_before_starts_games_at_the_ceiling(app, client):
    """A club's saved rule set holding deal_limit 1,000 still lists, opens and starts games, by
    the form and the API; each new game holds at most 100 deals."""
    from saved_rules_club import SLUG, table_phone, thursday

    saved_id = thursday(app, client)
    with app.app_context():
        db.session.execute(
            update(SavedRules)
            .where(SavedRules.id == saved_id)
            .values(house_rules={"red_three_caught": 300, "deal_limit": 1_000})
        )
        db.session.commit()
    assert client.get(f"/clubs/{SLUG}/rule-sets").status_code == 200
    edit = client.get(f"/clubs/{SLUG}/rule-sets/{saved_id}/edit")
    assert edit.status_code == 200
    assert read_page(edit.get_data(as_text=True)).values["rule_deal_limit"] == "100"
    form = client.get(f"/clubs/{SLUG}/games/new?saved={saved_id}")
    assert form.status_code == 200
    assert read_page(form.get_data(as_text=True)).values["rule_deal_limit"] == "100"

    phone = table_phone(app)
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    answer = phone.post(
        "/api/v1/games",
        json={"club": SLUG, "saved_rules": saved_id, "sides": [{"name": "Ann"}, {"name": "Bob"}]},
        headers={"X-Table-Code": code},
    )
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["rules"]["deal_limit"] == 100
    assert answer.get_json()["rules"]["red_three_caught"] == 300


def test_a_finished_game_from_before_plays_again_at_the_ceiling(app, client):
    """Play again after a game whose house rules said 1,000 deals starts one held to 100."""
    with app.app_context():
        game = record_game("classic", TEAMS, [ZERO] * 4, house_rules={"going_out_bonus": 200})
        game_id = game.id
        db.session.execute(
            update(Game)
            .where(Game.id == game_id)
            .values(house_rules={"going_out_bonus": 200, "deal_limit": 1_000})
        )
        db.session.commit()
        again = games.play_again(games.get_game(game_id))
        assert again.game.house_rules == {"going_out_bonus": 200, "deal_limit": 100}
        assert games.rules_of(again.game).deal_limit == 100


# --------------------------------------------------------------------- the scoreboard's pages


def test_a_real_game_shows_every_deal_on_one_page(app, client):
    """Up to SCOREBOARD_DEALS deals: all of them, oldest first, no page links."""
    game_id = recorded(app, SCOREBOARD_DEALS)
    page = client.get(link(app, game_id))
    assert deals_shown(page) == list(range(1, SCOREBOARD_DEALS + 1))
    assert "Earlier deals" not in words(page) and "Later deals" not in words(page)


def test_a_long_game_shows_its_newest_deals_and_links_to_earlier_ones(app, client):
    """45 deals: 26 to 45 first, then 6 to 25, then 1 to 5; each page links to its neighbours;
    a deals_to inside a page shows that page; anything else shows the newest."""
    game_id = recorded(app, 45)
    board = link(app, game_id)
    newest = client.get(board)
    assert deals_shown(newest) == list(range(26, 46))
    assert "Deals 26 to 45 of 45" in words(newest)
    assert f'href="{board}?deals_to=25#deals-h"' in newest.get_data(as_text=True)

    middle = client.get(f"{board}?deals_to=25")
    assert deals_shown(middle) == list(range(6, 26))
    assert f'href="{board}?deals_to=5#deals-h"' in middle.get_data(as_text=True)
    assert f'href="{board}#deals-h"' in middle.get_data(as_text=True)  # later: the newest page
    oldest = client.get(f"{board}?deals_to=5")
    assert deals_shown(oldest) == [1, 2, 3, 4, 5]
    assert "Earlier deals" not in words(oldest)
    assert deals_shown(client.get(f"{board}?deals_to=12")) == list(range(6, 26))

    for odd in ("0", "45", "46", "x", "-3", "9" * 40, ""):
        answer = client.get(f"{board}?deals_to={odd}")
        assert answer.status_code == 200, odd
        assert deals_shown(answer) == list(range(26, 46)), odd


def test_the_longest_game_lists_a_page_of_deals_not_all_of_them(app, client):
    """100 deals of 12 sides: 20 deals on the page, not 100 (the worst game's 7.5 MB page)."""
    sides = [SideSetup(f"P{n}", [f"P{n}"]) for n in range(12)]
    with app.app_context():
        game = record_game(
            "club",
            sides,
            [[DealEntry.from_dict({})] * 12] * MAX_DEAL_LIMIT,
            house_rules={"end_after_deals": None, "target_score": 1_000_000},
        )
        game_id = game.id
    page = client.get(link(app, game_id))
    assert deals_shown(page) == list(range(81, 101))


def test_a_correction_lands_on_the_page_that_holds_the_deal(app, client):
    """Correcting deal 3 of 45 goes back to the page of deals 1 to 5, at deal 3's row."""
    game_id = recorded(app, 45)
    board = link(app, game_id)
    form = read_page(client.get(f"{board}/deals/3/edit").get_data(as_text=True)).values
    form["side0_books.clean"] = "1"
    sent = client.post(f"{board}/deals/3/edit", data=form)
    assert sent.status_code == 302, words(sent)
    assert sent.headers["Location"].endswith(f"{board}?deals_to=5#deal-3")
    assert 3 in deals_shown(client.get(sent.headers["Location"]))
