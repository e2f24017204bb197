"""Issue 14, deals: a limit on deals per game, keys bound to their figures, deep JSON refused.

Each test reproduces what the pentest found and checks the answer a person or client now gets;
refusals are checked to leave what is saved exactly as it was.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from game_links import key, link
from page_reader import read_page
from sqlalchemy import func, select, update

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, Game
from scorekeeper.rules.game import DealLimitReached
from scorekeeper.rules.terms import DEAL_LIMIT, DEALS_PER_PAGE, MAX_DEAL_LIMIT, MAX_DEALS
from scorekeeper.services.games import SideSetup, record_game
from scorekeeper.web.api import MAX_BRACKETS

TEAMS = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South", "players": ["Cat", "Dan"]}]
ZERO = {"scores": [{}, {}]}  # a deal in which nobody scores: a target-score game never ends


def start(client, ruleset: str = "ten-thousand", **rules: Any) -> dict[str, Any]:
    """A new game by the API (house rules as keyword arguments), asserting it was created."""
    body: dict[str, Any] = {"ruleset": ruleset, "sides": TEAMS}
    if rules:
        body["rules"] = rules
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def post_deal(client, game: dict[str, Any], body: Any = None, **headers: str):
    """The answer to entering a deal by the API."""
    return client.post(
        f"/api/v1/games/{game['id']}/deals",
        json=ZERO if body is None else body,
        headers={"X-Game-Key": game["key"], **headers},
    )


def state(client, game: dict[str, Any], query: str = "") -> dict[str, Any]:
    """The game's JSON, asserting a 200."""
    answer = client.get(f"/api/v1/games/{game['id']}{query}", headers={"X-Game-Key": game["key"]})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def deals_saved(client, game_id: int) -> int:
    """How many deals the database holds for the game."""
    with client.application.app_context():
        return db.session.scalar(
            select(func.count()).select_from(Deal).where(Deal.game_id == game_id)
        )


def messages(answer) -> list[str]:
    """The messages of a JSON refusal."""
    return [e["message"] for e in answer.get_json()["errors"]]


def page_text(response) -> str:
    """A page's visible text, spaces squeezed."""
    return " ".join(" ".join(read_page(response.get_data(as_text=True)).words).split())


# ------------------------------------------------------------------ (3) the limit, in the engine


def test_engine_refuses_the_deal_past_the_limit_without_ending_the_game():
    """At its limit a game takes no deal, says why naming the limit, and is not over."""
    rules = engine.ruleset("ten-thousand", {"deal_limit": 3})
    sides = [engine.Side("North", 2), engine.Side("South", 2)]
    zero = [engine.DealEntry.from_dict({}, 0), engine.DealEntry.from_dict({}, 1)]
    progress = engine.play(rules, 4, sides, [zero] * 3)
    assert progress.finished is False and progress.winners == []
    with pytest.raises(DealLimitReached) as refused:
        engine.extend(rules, 4, sides, progress, zero)
    assert "reached its limit of 3 deals" in str(refused.value)


def test_the_default_limit_is_100_and_a_house_rule_may_only_lower_it():
    """100 unless a house rule says fewer (issue 26: it was 200, up to 1,000); past 100 or below
    1 is refused, naming it."""
    assert (DEAL_LIMIT, MAX_DEAL_LIMIT) == (100, 100)
    assert MAX_DEALS == 50  # the "end after N deals" knob keeps its own, smaller limit
    assert all(rules.deal_limit == 100 for rules in engine.PRESETS.values())
    assert engine.ruleset("classic", {"deal_limit": 100}).deal_limit == 100
    for bad in (101, 1_001, 0, "many", True):
        with pytest.raises(engine.RulesError) as refused:
            engine.ruleset("classic", {"deal_limit": bad})
        assert "deal_limit must be" in str(refused.value), bad
    # A limit below the number of deals a game is played to would cut every game short.
    with pytest.raises(engine.RulesError, match="game of 4 deals cannot be held to 3"):
        engine.ruleset("classic", {"deal_limit": 3})


def test_the_limit_is_a_house_rule_knob():
    """Listed with the other house rules, so the new-game form and rule card offer it."""
    knobs = {k.path: k for k in engine.knobs(engine.PRESETS["classic"])}
    assert knobs["deal_limit"].value == 100
    assert knobs["deal_limit"].group == "Game"
    changed = engine.PRESETS["classic"].with_house_rules(
        engine.overrides_from(engine.PRESETS["classic"], {"deal_limit": 50})
    )
    assert changed.deal_limit == 50


# ------------------------------------------------------------------ (3) the limit, by the API


def test_the_api_refuses_the_deal_past_the_limit_with_409_and_saves_nothing(client):
    """The fourth deal of a game held to three is a 409 naming the limit; the game is unchanged."""
    game = start(client, deal_limit=3)
    for _ in range(3):
        assert post_deal(client, game).status_code == 201
    before = state(client, game)
    assert before["finished"] is False
    assert before["deal_limit"] == 3 and before["deal_limit_reached"] is True
    assert before["next_deal"] is None  # no deal can be entered next
    answer = post_deal(client, game)
    assert answer.status_code == 409
    assert any("reached its limit of 3 deals" in m for m in messages(answer))
    assert state(client, game) == before
    assert deals_saved(client, game["id"]) == 3


def test_the_api_refuses_a_limit_past_100_naming_it(client):
    """A house rule past the cap is a 422 that names deal_limit and the cap; no game started."""
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": "ten-thousand", "sides": TEAMS, "rules": {"deal_limit": 5_000}},
    )
    assert answer.status_code == 422
    assert any("deal_limit" in m and "100, not 5,000" in m for m in messages(answer))
    with client.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_a_game_holds_100_deals_and_its_json_pages_them_20_at_a_time(client):
    """100 all-zero deals fill a game; the 101st is refused; the JSON lists 20 to a page."""
    game = start(client)
    for _ in range(DEAL_LIMIT):
        answer = post_deal(client, game)
        assert answer.status_code == 201
    last = answer.get_json()
    # The answer to a save lists one page of deals, not the whole game's.
    assert len(last["deals"]) == DEALS_PER_PAGE == 20
    refused = post_deal(client, game)
    assert refused.status_code == 409
    assert any("reached its limit of 100 deals" in m for m in messages(refused))
    assert deals_saved(client, game["id"]) == 100

    first = state(client, game)
    assert [d["number"] for d in first["deals"]] == list(range(1, 21))
    assert (first["deals_total"], first["deals_from"]) == (100, 1)
    assert first["next"] == f"/api/v1/games/{game['id']}?deals_from=21"
    later = state(client, game, "?deals_from=91")
    assert [d["number"] for d in later["deals"]] == list(range(91, 101))
    assert later["next"] is None
    # Totals are the whole game's, whichever page is asked for.
    assert later["sides"] == first["sides"]
    assert state(client, game, "?deals_from=101")["deals"] == []


def test_a_game_from_before_the_ceiling_pages_its_json(app, client):
    """A game saved with 150 deals (the limit was 200 then) lists them 20 to a page."""
    with app.app_context():
        zero = [engine.DealEntry.from_dict({}), engine.DealEntry.from_dict({})]
        sides = [SideSetup("North", ["Ann", "Bob"]), SideSetup("South", ["Cat", "Dan"])]
        game = {"id": record_game("ten-thousand", sides, [zero] * 150).id}
    game["key"] = key(app, game["id"])["X-Game-Key"]
    first = state(client, game)
    assert (first["deals_total"], len(first["deals"])) == (150, 20)
    assert first["next"] == f"/api/v1/games/{game['id']}?deals_from=21"
    last = state(client, game, "?deals_from=141")
    assert [d["number"] for d in last["deals"]] == list(range(141, 151))
    assert last["next"] is None


@pytest.mark.parametrize("bad", ["x", "0", "-1", "1.5", "9" * 40])
def test_a_bad_deals_from_is_422_naming_it(client, bad):
    """deals_from is a deal number from 1: anything else is named, never a 500."""
    game = start(client)
    answer = client.get(
        f"/api/v1/games/{game['id']}?deals_from={bad}", headers={"X-Game-Key": game["key"]}
    )
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert errors[0]["field"] == "deals_from"
    assert "deals_from" in errors[0]["message"]


def test_openapi_documents_the_limit_and_the_paging(client):
    """The 409 names the limit; deals_from, deals_total and next are described."""
    document = client.get("/api/v1/openapi.json").get_json()
    game_get = document["paths"]["/api/v1/games/{game_id}"]["get"]
    assert "deals_from" in {p["name"] for p in game_get["parameters"]}
    assert "422" in game_get["responses"]
    schema = document["components"]["schemas"]["GameState"]["properties"]
    assert {"deals_total", "deals_from", "next", "deal_limit", "deal_limit_reached"} <= set(schema)
    assert schema["deals"]["maxItems"] == DEALS_PER_PAGE
    deal_post = document["paths"]["/api/v1/games/{game_id}/deals"]["post"]
    assert "limit" in deal_post["responses"]["409"]["description"]


# ------------------------------------------------------------------ (3) the limit, on the pages


def test_the_pages_say_the_game_is_full_and_offer_no_deal(client):
    """The scoreboard says so and offers no deal; the form sends the table back with the reason."""
    game = start(client, deal_limit=2)
    for _ in range(2):
        assert post_deal(client, game).status_code == 201
    board = client.get(link(client, game["id"]))
    words = page_text(board)
    assert "reached its limit of 2 deals" in words
    assert "Enter deal" not in words
    assert "Game over" not in words

    opened = client.get(f"{link(client, game['id'])}/deals/new")
    assert opened.status_code == 302
    followed = client.get(opened.headers["Location"])
    assert "reached its limit of 2 deals" in page_text(followed)

    sent = client.post(f"{link(client, game['id'])}/deals/new", data={"went_out": ""})
    assert sent.status_code == 302
    assert "reached its limit of 2 deals" in page_text(client.get(sent.headers["Location"]))
    assert deals_saved(client, game["id"]) == 2


def test_the_rule_card_shows_the_limit(client):
    """The preset's card and a game's card (with its house rule) state the limit and the ruling."""
    card = page_text(client.get("/rules/classic"))
    assert "at most 100 deals" in card
    assert "no winner" in card
    game = start(client, deal_limit=60)
    game_card = page_text(client.get(f"{link(client, game['id'])}/rules"))
    assert "at most 60 deals" in game_card
    assert "Most deals a game holds: 60 (rule set: 100)" in game_card


def test_the_new_game_form_offers_the_limit(client):
    """The house-rule field is on the form, filled with 100; past 100 the form says why."""
    form = client.get("/games/new?ruleset=ten-thousand")
    data = read_page(form.get_data(as_text=True)).values
    assert data["rule_deal_limit"] == "100"
    data.update(side0_name="North", side0_players="Ann, Bob", side1_name="South")
    data.update(side1_players="Cat, Dan", rule_deal_limit="101")
    answer = client.post("/games/new", data=data)
    assert answer.status_code == 422
    assert "deal_limit must be between 1 and 100, not 101" in page_text(answer)


# ------------------------------------------------------------------ (7) a key bound to its figures


def test_the_same_key_with_other_figures_is_422_naming_the_key(client):
    """The second deal is not dropped silently: it is refused, and the first stands alone."""
    game = start(client)
    first = {"scores": [{"books": {"clean": 1}}, {}]}
    assert post_deal(client, game, first, **{"Idempotency-Key": "k-1"}).status_code == 201
    before = state(client, game)
    other = {"scores": [{}, {"books": {"dirty": 1}}]}
    answer = post_deal(client, game, other, **{"Idempotency-Key": "k-1"})
    assert answer.status_code == 422
    assert "Idempotent-Replayed" not in answer.headers
    error = answer.get_json()["errors"][0]
    assert error["field"] == "Idempotency-Key"
    assert "This Idempotency-Key was already used for different figures" in error["message"]
    assert state(client, game) == before
    assert deals_saved(client, game["id"]) == 1


def test_the_same_key_with_the_same_figures_is_still_a_replay(client):
    """Sent again (keys in another order), the deal is replayed, not saved twice."""
    game = start(client)
    first = {"scores": [{"books": {"clean": 1, "dirty": 1}, "went_out": False}, {}]}
    assert post_deal(client, game, first, **{"Idempotency-Key": "k-2"}).status_code == 201
    again = {"scores": [{"went_out": False, "books": {"dirty": 1, "clean": 1}}, {}]}
    answer = post_deal(client, game, again, **{"Idempotency-Key": "k-2"})
    assert answer.status_code == 201
    assert answer.headers["Idempotent-Replayed"] == "true"
    assert deals_saved(client, game["id"]) == 1
    with client.application.app_context():
        saved = db.session.scalars(select(Deal.request_hash)).one()
    assert re.fullmatch(r"[0-9a-f]{64}", saved)


def test_a_deal_saved_before_hashes_were_kept_is_replayed_as_before(client):
    """request_hash NULL (saved before migration 0008): its key is a replay whatever the body."""
    game = start(client)
    assert post_deal(client, game, **{"Idempotency-Key": "old"}).status_code == 201
    with client.application.app_context():
        db.session.execute(update(Deal).values(request_hash=None))
        db.session.commit()
    other = {"scores": [{"books": {"clean": 1}}, {}]}
    answer = post_deal(client, game, other, **{"Idempotency-Key": "old"})
    assert answer.status_code == 201
    assert answer.headers["Idempotent-Replayed"] == "true"
    assert deals_saved(client, game["id"]) == 1


def test_the_form_sent_again_with_other_figures_is_shown_again_with_a_fresh_key(client):
    """Back, change, save: the person is told, keeps the figures, and can save them as new."""
    game = start(client)
    url = f"{link(client, game['id'])}/deals/new"
    data = read_page(client.get(url).get_data(as_text=True)).values
    data.update({"s0-books-clean": "1", "went_out": ""})
    assert client.post(url, data=data).status_code == 302
    data.update({"s0-books-clean": "", "s1-books-dirty": "1"})  # the old form, other figures
    again = client.post(url, data=data)
    assert again.status_code == 422
    words = page_text(again)
    assert "This form already saved deal 1 with different figures" in words
    shown = read_page(again.get_data(as_text=True)).values
    assert shown["s1-books-dirty"] == "1"
    assert re.fullmatch(r"[0-9a-f]{32}", shown["idempotency_key"])
    assert shown["idempotency_key"] != data["idempotency_key"]
    assert shown["number"] == "2"
    assert deals_saved(client, game["id"]) == 1
    # Saved as it is now shown, it is deal 2.
    assert client.post(url, data=shown).status_code == 302
    assert deals_saved(client, game["id"]) == 2


# ------------------------------------------------------------------ (5) JSON nested too deeply


def _routes(client) -> list[tuple[str, str, dict[str, str]]]:
    game = start(client)
    assert post_deal(client, game).status_code == 201
    headers = {"X-Game-Key": game["key"]}
    return [
        ("POST", "/api/v1/games", {}),
        ("POST", f"/api/v1/games/{game['id']}/deals", headers),
        ("PUT", f"/api/v1/games/{game['id']}/deals/1", headers),
    ]


@pytest.mark.parametrize("depth", [100_000, 2_000, 200])
def test_json_nested_too_deeply_is_400_on_every_route(client, depth):
    """Brackets 100,000 deep (or just deeper than any score sheet) are a 400 that says so."""
    for method, url, headers in _routes(client):
        for body in ("[" * depth + "]" * depth, '{"scores":' + "[" * depth + "]" * depth + "}"):
            answer = client.open(
                url, method=method, data=body, content_type="application/json", headers=headers
            )
            assert answer.status_code == 400, (method, url, depth)
            [message] = messages(answer)
            # So many brackets are counted before the body is parsed (issue 26).
            said = (
                "The body holds more than" if depth > MAX_BRACKETS else "The body nests too deeply"
            )
            assert message.startswith(said), url


def test_a_real_body_still_passes_the_depth_check(client):
    """A deal entry nests a few levels: it is read as always."""
    game = start(client)
    body = {"scores": [{"books": {"clean": 1}, "melded_cards": {"ace": 4}}, {}]}
    assert post_deal(client, game, body).status_code == 201
