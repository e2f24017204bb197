"""Each rule in one home (issue 27), pinned there; the pages and services that ask it, checked.

- Whether and why no deal can be entered: `rules.no_deal_now`, as an outcome
  `services.deals.no_deal_now`.
- The deal number a form or line was opened for: `deals.stale_number`; a side's last line is
  saved under the one lock its line took (`deals.save_next_deal`).
- The key a page makes for itself: `deals.FORM_KEY` and `deals.form_key`.
- A sender's name, cleaned and defaulted: `names.phone_name`, `web.forms.sender_name`.
- A club's web address: `rules.terms.MIN_SLUG`/`MAX_SLUG`, `services.clubs.SLUG`.
- The forms that come back filled in after their token expired: each view marked
  `web.errors.refilled_when_expired`.
- Who deals: `rules.seating.dealer`, stated to the phone by the scorer's answer.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from game_links import link
from sqlalchemy import select
from test_pages import text

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, DealPart, Game
from scorekeeper.rules import DealEntry, Side
from scorekeeper.rules.game import deal_limit_reached
from scorekeeper.rules.terms import MAX_DEVICE_NAME, MAX_SLUG, MIN_SLUG
from scorekeeper.services import clubs, deals, games, names, scorer, side_lines
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup, record_game

SIDES = [Side("North", 2), Side("South", 2)]
ZERO = [DealEntry.from_dict({}), DealEntry.from_dict({})]
NORTH_BOOK = [DealEntry.from_dict({"books": {"clean": 1}}), DealEntry.from_dict({})]
LIMIT = (
    "This game has reached its limit of 3 deals: no more deals can be entered. It has not ended "
    "by its rules, so it has no winner; start a new game to play on."
)
OVER = "The game is over: North won after deal 4. No deal can be added."


# ------------------------------------------------------------------ no deal can be entered now


def test_a_game_with_room_takes_a_deal():
    rules = engine.ruleset("ten-thousand", {"deal_limit": 3})
    progress = engine.play(rules, 4, SIDES, [ZERO] * 2)
    assert engine.no_deal_now(rules, SIDES, progress) is None


def test_a_game_holding_its_most_deals_takes_none_and_is_not_over():
    rules = engine.ruleset("ten-thousand", {"deal_limit": 3})
    progress = engine.play(rules, 4, SIDES, [ZERO] * 3)
    closed = engine.no_deal_now(rules, SIDES, progress)
    assert type(closed) is engine.DealLimitReached
    assert [r.message for r in closed.refusals] == [LIMIT]
    with pytest.raises(engine.DealLimitReached, match="reached its limit of 3 deals"):
        engine.extend(rules, 4, SIDES, progress, ZERO)


def test_a_game_over_takes_none():
    rules = engine.ruleset("classic")
    progress = engine.play(rules, 4, SIDES, [NORTH_BOOK] * 4)
    closed = engine.no_deal_now(rules, SIDES, progress)
    assert type(closed) is engine.GameOver
    assert [r.message for r in closed.refusals] == [OVER]


def test_a_game_that_ends_on_its_last_allowed_deal_is_over_not_full():
    """Both at once: it ended by its rules, with a winner, so it is said to be over."""
    rules = engine.ruleset("classic", {"deal_limit": 4})
    progress = engine.play(rules, 4, SIDES, [NORTH_BOOK] * 4)
    assert deal_limit_reached(rules, progress) is not None
    closed = engine.no_deal_now(rules, SIDES, progress)
    assert type(closed) is engine.GameOver
    assert [r.message for r in closed.refusals] == [OVER]


def news_by(game_id: int) -> str | None:
    """Who the table was last told saved a deal (Game.news), as the database holds it."""
    return db.session.scalar(select(Game.news).where(Game.id == game_id))["by"]


def recorded(app, ruleset: str, deals_played: list[list[DealEntry]], **house: Any) -> int:
    teams = [SideSetup("North", ["Ann", "Bob"]), SideSetup("South", ["Cat", "Dan"])]
    with app.app_context():
        return record_game(ruleset, teams, deals_played, house_rules=house or None).id


def test_the_service_gives_each_reason_as_its_outcome(app):
    full = recorded(app, "ten-thousand", [ZERO] * 3, deal_limit=3)
    over = recorded(app, "classic", [NORTH_BOOK] * 4)
    playing = recorded(app, "classic", [NORTH_BOOK])
    with app.app_context():
        assert deals.no_deal_now(games.get_game(full)) == deals.LimitReached(
            [engine.Refusal(None, "deal", LIMIT)]
        )
        assert deals.no_deal_now(games.get_game(over)) == deals.Ended(
            [engine.Refusal(None, "deal", OVER)]
        )
        assert deals.no_deal_now(games.get_game(playing)) is None


def test_a_full_game_offers_no_deal_on_any_page(app, client):
    """The scoreboard says why; the deal form and each side's line send the phone back, told."""
    game = recorded(app, "ten-thousand", [ZERO] * 3, deal_limit=3)
    board = text(client.get(link(app, game)))
    assert f"No more deals {LIMIT}" in board
    assert "Enter deal" not in board and "Enter for North" not in board
    for path in ("/deals/new", "/deals/next/0"):
        answer = client.get(link(app, game) + path)
        assert answer.status_code == 302, path
        told = text(client.get(answer.headers["Location"]))
        assert LIMIT in told and "This game is over" not in told, path


def test_a_game_over_offers_no_deal_on_any_page(app, client):
    game = recorded(app, "classic", [NORTH_BOOK] * 4)
    board = text(client.get(link(app, game)))
    assert "Game over Winner: North" in board
    assert "No more deals" not in board and "Enter deal" not in board
    for path in ("/deals/new", "/deals/next/1"):
        answer = client.get(link(app, game) + path)
        assert answer.status_code == 302, path
        told = text(client.get(answer.headers["Location"]))
        assert "This game is over: no more deals can be entered." in told, path


# ----------------------------------------------------- the deal number; the last line's lock


def test_the_deal_number_is_checked_in_one_place(app):
    game_id = recorded(app, "classic", [NORTH_BOOK])
    with app.app_context():
        game = games.get_game(game_id)
        so_far = games.progress_of(game)
        assert deals.stale_number(game, so_far, None) is None
        assert deals.stale_number(game, so_far, 2) is None
        assert deals.stale_number(game, so_far, 3) == deals.Refused([deals.not_yet(3, 2)])
        assert deals.not_yet(3, 2).message == ("There is no deal 3 yet: the next deal is 2.")
        assert deals.stale_number(game, so_far, 1) == deals.SavedMeanwhile(1)
        # A side's line the saved deal holds is a replay; another line is a deal saved meanwhile.
        assert deals.stale_number(game, so_far, 1, (0, NORTH_BOOK[0])) == deals.AlreadySaved(
            game.deals[0]
        )
        other = DealEntry.from_dict({"books": {"clean": 2}})
        assert deals.stale_number(game, so_far, 1, (0, other)) == deals.SavedMeanwhile(1)


def test_the_last_line_saves_the_deal_under_the_one_lock_it_took(app, monkeypatch):
    game_id = recorded(app, "classic", [])
    taken: list[int] = []
    checked: list[int | None] = []
    lock, stale = deals.lock, deals.stale_number

    def counted_lock(game):
        taken.append(game.id)
        return lock(game)

    def counted_stale(game, so_far, opened_for, line=None):
        checked.append(opened_for)
        return stale(game, so_far, opened_for, line)

    monkeypatch.setattr(deals, "lock", counted_lock)
    monkeypatch.setattr(deals, "stale_number", counted_stale)
    with app.app_context():
        game = games.get_game(game_id)
        first = side_lines.send_line(game, Level.TABLE, 0, {"books": {"clean": 1}}, opened_for=1)
        assert type(first) is side_lines.LineKept
        assert (taken, checked) == ([game_id], [1])
        last = side_lines.send_line(game, Level.TABLE, 1, {}, opened_for=1, sent_by="Cat")
        assert type(last) is deals.Saved and last.deal.number == 1
        # One lock and one check of the deal number for each line, the last one included.
        assert (taken, checked) == ([game_id, game_id], [1, 1])
        assert db.session.scalars(select(DealPart)).all() == []
        assert news_by(game_id) == "Cat"


def test_a_whole_deal_takes_the_lock_once(app, monkeypatch):
    game_id = recorded(app, "classic", [])
    taken: list[int] = []
    lock = deals.lock
    monkeypatch.setattr(deals, "lock", lambda game: (taken.append(game.id), lock(game))[1])
    with app.app_context():
        game = games.get_game(game_id)
        saved = deals.enter_deal(game, Level.TABLE, [{"books": {"clean": 1}}, {}], "k", 1)
        assert type(saved) is deals.Saved and saved.deal.number == 1
        # Sent again: the key's deal stands, found before any lock is taken.
        again = deals.enter_deal(game, Level.TABLE, [{"books": {"clean": 1}}, {}], "k", 1)
        assert again == deals.AlreadySaved(saved.deal)
    assert taken == [game_id]


# ------------------------------------------------------------------ the key a page makes


def test_a_pages_key_is_32_hex_digits_kept_as_sent_or_made_afresh():
    assert deals.FORM_KEY.pattern == "[0-9a-f]{32}"
    mine = "0123456789abcdef" * 2
    assert deals.form_key(mine) == mine
    for sent in (None, "", "A" * 32, "a" * 31, "a" * 33, mine + "\n"):
        fresh = deals.form_key(sent)
        assert deals.FORM_KEY.fullmatch(fresh) and fresh != sent, sent
    assert deals.form_key(None) != deals.form_key(None)


def test_the_deal_and_line_forms_carry_a_key_of_their_own(app, client):
    game_id = recorded(app, "classic", [])
    for path in ("/deals/new", "/deals/next/0"):
        page = client.get(link(client, game_id) + path).get_data(as_text=True)
        sent = re.search(r'name="idempotency_key" type="hidden" value="([^"]*)"', page).group(1)
        assert deals.FORM_KEY.fullmatch(sent), path
        # A figure that is no number: the form comes back, with a key this app made.
        sent = {"idempotency_key": "Z" * 32, "number": "1", "s0-melded_points": "many"}
        again = client.post(link(client, game_id) + path, data=sent)
        assert again.status_code == 422, path
        kept = again.get_data(as_text=True)
        made = re.search(r'name="idempotency_key" type="hidden" value="([^"]*)"', kept).group(1)
        assert deals.FORM_KEY.fullmatch(made) and made != "Z" * 32, path


def test_a_phones_id_is_made_as_a_pages_key_is(app, client):
    """The live corner takes a phone's id only in the shape hf.freshKey makes (FORM_KEY)."""
    game_id = recorded(app, "classic", [])
    entering = link(client, game_id) + "/entering"
    for device, status in (("A" * 32, 400), ("a" * 31, 400), ("a" * 32, 204)):
        answer = client.post(entering, data={"device": device, "deal": "1", "name": "Ann"})
        assert answer.status_code == status, device


# ------------------------------------------------------------------ a sender's name


def test_a_phones_name_is_cleaned_cut_and_defaulted_in_one_place():
    assert names.SOMEONE == "Someone"
    assert names.phone_name(None) == "Someone"
    assert names.phone_name(" \u200b\t ") == "Someone"
    assert names.phone_name("", "ORGANISER") == "ORGANISER"
    assert names.phone_name("  Ann\u202e\tB  ") == "Ann B"
    assert names.phone_name("x" * 50) == "x" * MAX_DEVICE_NAME
    assert names.phone_name("x" * 39 + " y") == "x" * 39


def test_a_line_keeps_its_senders_name_as_the_table_sees_it(app):
    game_id = recorded(app, "classic", [])
    with app.app_context():
        game = games.get_game(game_id)
        for side, given, kept in ((0, None, "Someone"), (1, "\u202eCat" + "t" * 60, None)):
            side_lines.send_line(game, Level.TABLE, side, {}, opened_for=1, sent_by=given)
            if kept is not None:
                assert db.session.scalars(select(DealPart.sent_by)).all() == [kept]
        # The second line was the last: the deal was saved, told as the cleaned name's.
        assert news_by(game_id) == ("Cat" + "t" * 60)[:MAX_DEVICE_NAME]


def test_a_phone_with_no_name_goes_by_its_organisers(app, client):
    """A signed-in organiser's phone that gave no name: the line and the live corner say theirs."""
    game_id = recorded(app, "classic", [])
    with app.app_context():
        from werkzeug.security import generate_password_hash

        from scorekeeper.plumbing.models import Organiser

        db.session.add(
            Organiser(username="ORGANISER", password_hash=generate_password_hash("pw-long-one"))
        )
        db.session.commit()
    signed = client.post("/login", data={"username": "ORGANISER", "password": "pw-long-one"})
    assert signed.status_code == 302
    page = client.get(link(client, game_id) + "/deals/new").get_data(as_text=True)
    assert "<b data-me-name>ORGANISER</b>" in page
    client.post(link(client, game_id) + "/deals/next/0", data={"number": "1", "sent_by": " "})
    with app.app_context():
        assert db.session.scalars(select(DealPart.sent_by)).all() == ["ORGANISER"]


# ------------------------------------------------------------------ a club's web address


@pytest.mark.parametrize(
    ("slug", "fits"),
    [
        ("ab", True),
        ("a" * 40, True),
        ("0-9", True),
        ("a", False),
        ("a" * 41, False),
        ("-ab", False),
        ("Ab", False),
        ("a_b", False),
    ],
)
def test_a_clubs_web_address_is_2_to_40_characters(slug, fits):
    assert (MIN_SLUG, MAX_SLUG) == (2, 40)
    assert bool(clubs.SLUG.fullmatch(slug)) is fits


def test_the_address_is_held_to_the_same_bounds_everywhere(app):
    """The refusal's words, the club form's validator and the column all read MIN/MAX_SLUG."""
    assert clubs.SLUG_HELP == (
        "The web address must be 2 to 40 lowercase letters, digits or hyphens, starting with a "
        "letter or digit."
    )
    assert Club.__table__.c.slug.type.length == MAX_SLUG
    from scorekeeper.web.clubs.forms import ClubForm

    with app.test_request_context():
        field = ClubForm(meta={"csrf": False}).slug
    (bounds,) = [v for v in field.validators if hasattr(v, "min") and hasattr(v, "max")]
    assert (bounds.min, bounds.max) == (MIN_SLUG, MAX_SLUG)


# ------------------------------------------------------------------ forms refilled when expired


def test_the_views_marked_to_come_back_filled_in(app):
    from scorekeeper.web.errors import REFILLED

    marked = {
        endpoint
        for endpoint, view in app.view_functions.items()
        if getattr(view, REFILLED, False) is True
    }
    assert marked == {
        "games.new",
        "games.new_club_game",
        "games.new_deal",
        "games.edit_deal",
        "games.preview",
        "accounts.login",
        "accounts.signup",
        "clubs.new",
        "clubs.new_rule_set",
        "clubs.edit_rule_set",
        "clubs.delete_rule_set",
        "clubs.default_rule_set",
        "clubs.members",
        "clubs.rename_member",
        "clubs.seasons",
        "clubs.settings",
        "clubs.new_table_link",
        "clubs.import_records",
        "nights.night_new",
    }


def test_an_unmarked_form_sent_with_an_expired_token_is_a_plain_400(app, client):
    game_id = recorded(app, "classic", [])
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        # Choosing the first dealer is not marked: refused before the view acts.
        answer = client.post(link(client, game_id) + "/first-dealer", data={"seat": "1"})
        assert answer.status_code == 400
        assert "This form has expired" in text(answer)
        # Sign-up is marked: its form comes back filled in.
        refilled = client.post("/signup", data={"username": "Olga"})
        assert refilled.status_code == 422
        assert 'value="Olga"' in refilled.get_data(as_text=True)
    finally:
        app.config["WTF_CSRF_ENABLED"] = False


# ------------------------------------------------------------------ who deals


def test_the_phone_is_told_the_table_and_its_first_dealer_not_the_rule(app, client):
    """The scorer's answer states the seats and the first dealer (scorer.js deals from them);
    the deal form carries no copy of the seats."""
    game_id = recorded(app, "classic", [])
    with app.app_context():
        game = games.get_game(game_id)
        games.choose_first_dealer(game, 1)
        stated = scorer.scorer_state(game)["game"]
        assert (stated["table"], stated["first_dealer"]) == (["Ann", "Cat", "Bob", "Dan"], 1)
        seats = games.seats_of(game)
        # The engine's rule, which scorer.js's dealer follows: deal 1 is Cat's, then to the left.
        assert [engine.dealer(seats, 1, n).player for n in range(1, 6)] == [
            "Cat",
            "Bob",
            "Dan",
            "Ann",
            "Cat",
        ]
    page = client.get(link(client, game_id) + "/deals/new").get_data(as_text=True)
    assert '<p class="dealer tight" data-dealer>Deal 1: Cat deals</p>' in page
    assert "data-table" not in page and "data-first" not in page
