"""Each side enters its own line of the next deal, on its own phone: the pages and the service.

Classic partnership rules, North (Ann, Bob) v South (Cat, Dan). North's line: went out with
2 clean, 2 dirty and 1 wild book, one red three down, 320 melded: 1,000 + 600 + 1,500 + 100
+ 100 + 320 = 3,620 (classic clean 500, dirty 300, wild 1,500, red three 100, going out 100).
South's line: 1 clean book, 240 melded, 85 left: 500 + 240 − 85 = 655.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

import pytest
from game_links import link
from sqlalchemy import select
from test_pages import TEAMS, api_deal, api_game, text, values
from werkzeug.security import generate_password_hash

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, Organiser
from scorekeeper.services import clubs, games

NORTH = {
    "s0-books-clean": "2",
    "s0-books-dirty": "2",
    "s0-books-wild": "1",
    "s0-red_threes_down": "1",
    "s0-melded_points": "320",
    "went_out": "0",
}
SOUTH = {"s1-books-clean": "1", "s1-melded_points": "240", "s1-leftover_points": "85"}
NORTH_ENTRY = {
    "books": {"clean": 2, "dirty": 2, "wild": 1},
    "red_threes_down": 1,
    "went_out": True,
    "melded_points": 320,
}
SOUTH_ENTRY = {"books": {"clean": 1}, "melded_points": 240, "leftover_points": 85}
ANNS_PHONE, CATS_PHONE = "a" * 32, "c" * 32


@pytest.fixture
def game(client) -> int:
    return api_game(client, "classic", TEAMS)


def send(client, game_id: int, side: int, figures: dict[str, str], **more: str):
    """Send one side's line from the line page, as app.js fills in its hidden fields."""
    data = {"number": "1", "sent_by": "Ann", "device": ANNS_PHONE, **figures, **more}
    return client.post(f"{link(client, game_id)}/deals/next/{side}", data=data)


def rows(client) -> list[DealPart]:
    with client.application.app_context():
        found = db.session.execute(select(DealPart).order_by(DealPart.side_position))
        return found.scalars().all()


def saved_deals(client) -> list[tuple[int, list[dict], list[int]]]:
    with client.application.app_context():
        deals = db.session.execute(select(Deal).order_by(Deal.number)).scalars().all()
        return [(d.number, [s.entry for s in d.scores], [s.total for s in d.scores]) for d in deals]


def ms(moment: datetime) -> str:
    return str(int(moment.timestamp() * 1000))


# ------------------------------------------------------------------ the line page


def test_the_scoreboard_offers_each_side_its_own_line(client, game):
    page = text(client.get(link(client, game)))
    assert "Or each side enters its own line" in page
    assert "Enter for North" in page and "Enter for South" in page
    assert "counting" not in page  # nobody has sent a line yet


def test_a_sides_line_page_asks_for_that_side_only(client, game):
    answer = client.get(f"{link(client, game)}/deals/next/1")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "Line for South, deal 1" in text(answer)
    assert 'name="s1-melded_points"' in page and 'name="s0-melded_points"' not in page
    assert re.search(r'<input type="checkbox" name="went_out" value="1"', page)
    assert "Send this line" in page


def test_a_side_the_game_does_not_have_is_404(client, game):
    assert client.get(f"{link(client, game)}/deals/next/2").status_code == 404
    assert send(client, game, 2, {"s2-melded_points": "50"}).status_code == 404
    assert rows(client) == []


def test_the_first_line_is_kept_and_the_table_sees_it_in(client, game):
    answer = send(client, game, 0, NORTH)
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith("#lines")
    [row] = rows(client)
    assert (row.side_position, row.deal_number, row.entry) == (0, 1, NORTH_ENTRY)
    assert (row.sent_by, row.device, row.version) == ("Ann", ANNS_PHONE, 1)
    assert saved_deals(client) == []
    board = text(client.get(link(client, game)))
    assert "Deal 1: the line for North is in. Waiting for South" in board
    assert "North: in, from Ann" in board and "South: counting" in board
    assert "+3,620" in board  # the running breakdown of the line in
    assert "+655" not in board


def test_a_sides_line_can_be_changed_until_the_deal_is_saved(client, game):
    send(client, game, 0, NORTH)
    shown = values(client.get(f"{link(client, game)}/deals/next/0"))
    assert shown["s0-melded_points"] == "320" and shown["s0-books-wild"] == "1"
    send(client, game, 0, {**NORTH, "s0-melded_points": "420"})
    [row] = rows(client)
    assert row.entry["melded_points"] == 420 and row.version == 2


def test_the_last_line_saves_the_deal_once_with_both_lines(client, game):
    send(client, game, 0, NORTH)
    answer = send(client, game, 1, SOUTH, sent_by="Cat", device=CATS_PHONE)
    assert answer.status_code == 302 and answer.headers["Location"].endswith("#totals")
    assert saved_deals(client) == [(1, [NORTH_ENTRY, SOUTH_ENTRY], [3620, 655])]
    assert rows(client) == []
    board = text(client.get(link(client, game)))
    assert "The line for South was the last one in: deal 1 saved." in board
    assert "Enter deal 2" in board
    # The next deal's lines start afresh.
    assert send(client, game, 1, SOUTH, number="2").status_code == 302
    assert [(r.side_position, r.deal_number) for r in rows(client)] == [(1, 2)]


def test_a_line_sent_again_changes_nothing(client, game):
    """Sent twice (its answer lost on the way back): kept once, then saved once."""
    send(client, game, 0, NORTH)
    send(client, game, 0, NORTH)
    [row] = rows(client)
    assert row.version == 1
    send(client, game, 1, SOUTH, device=CATS_PHONE)
    again = send(client, game, 1, SOUTH, device=CATS_PHONE)
    assert again.status_code == 302  # the deal saved holds this very line: no conflict
    assert "deal 1 saved" in text(client.get(again.headers["Location"]))
    assert len(saved_deals(client)) == 1 and rows(client) == []


def test_a_line_refused_on_its_own_figures_keeps_nothing(client, game):
    answer = send(client, game, 1, {"s1-melded_points": "243"})
    assert answer.status_code == 422
    page = text(answer)
    assert "South: melded card points of 243 is not a multiple of 5" in page
    assert values(answer)["s1-melded_points"] == "243"
    assert rows(client) == []


def test_a_refusal_with_another_sides_line_goes_back_and_the_other_stays(client, game):
    send(client, game, 0, NORTH)
    both_out = {"s1-books-clean": "2", "s1-books-dirty": "2", "s1-books-wild": "1"}
    answer = send(client, game, 1, both_out, went_out="1", sent_by="Cat", device=CATS_PHONE)
    assert answer.status_code == 422
    problem = "Only one side can go out; North and South both did."
    assert problem in text(answer)
    assert f'id="went_out-error">{problem}' in answer.get_data(as_text=True)
    [north] = rows(client)  # South's line was not kept; North's is as it was, and told
    assert north.entry == NORTH_ENTRY and north.problem == problem and north.version == 2
    assert problem in text(client.get(link(client, game)))
    # North sends its line again, not going out after all: kept, and the problem is gone.
    fixed = {k: v for k, v in NORTH.items() if k != "went_out"}
    assert send(client, game, 0, fixed).status_code == 302
    [north] = rows(client)
    assert north.problem is None and "went_out" not in north.entry
    # Now South's going out stands, and the deal is saved.
    assert send(client, game, 1, both_out, went_out="1").status_code == 302
    [(_, entries, _)] = saved_deals(client)
    assert entries[1]["went_out"] is True


def test_a_line_for_a_deal_saved_meanwhile_is_shown_with_its_figures(client, game):
    api_deal(client, game, NORTH_ENTRY, SOUTH_ENTRY)
    answer = send(client, game, 1, {**SOUTH, "s1-melded_points": "250"})
    assert answer.status_code == 409
    page = text(answer)
    assert "Deal 1 was saved meanwhile" in page
    assert "North +3,620 → 3,620" in page
    shown = values(answer)
    assert shown["s1-melded_points"] == "250" and shown["number"] == "2"
    assert "Line for South, deal 2" in page
    assert rows(client) == [] and len(saved_deals(client)) == 1


def test_a_line_for_a_deal_not_yet_reached_is_refused(client, game):
    answer = send(client, game, 0, NORTH, number="57")
    assert answer.status_code == 422
    assert "There is no deal 57 yet: the next deal is 1." in text(answer)
    assert rows(client) == []


def test_of_two_phones_the_line_entered_later_stands(client, game):
    later = datetime(2026, 11, 23, 20, 5, tzinfo=UTC)
    earlier = datetime(2026, 11, 23, 20, 1, tzinfo=UTC)
    send(client, game, 0, NORTH, entered_at=ms(later))
    # Bob's phone had entered North's line earlier, with no signal; it arrives now.
    kept_on_bobs = {**NORTH, "s0-melded_points": "300"}
    answer = send(
        client, game, 0, kept_on_bobs, sent_by="Bob", device="b" * 32, entered_at=ms(earlier)
    )
    assert answer.status_code == 409
    page = text(answer)
    assert "Ann sent a line for North entered 4 minutes after yours" in page
    assert "Theirs: 2 clean books, 2 dirty books, 1 wild book" in page
    assert values(answer)["s0-melded_points"] == "300"  # Bob's figures are kept on his page
    [row] = rows(client)
    assert row.entry == NORTH_ENTRY and row.sent_by == "Ann"
    # Sent again now, Bob's line takes its place; Ann's phone is told by the live answer.
    assert send(client, game, 0, kept_on_bobs, sent_by="Bob", device="b" * 32).status_code == 302
    [row] = rows(client)
    assert row.entry["melded_points"] == 300 and row.sent_by == "Bob"
    live = client.get(f"{link(client, game)}/live?device={ANNS_PHONE}").get_json()
    assert live["parts"] == [{"side": 0, "sent_by": "Bob", "mine": False, "problem": None}]


def test_a_phones_own_older_line_arriving_late_changes_nothing(client, game):
    now = datetime.now(UTC)
    send(client, game, 0, NORTH, entered_at=ms(now))
    older = {**NORTH, "s0-melded_points": "300"}
    answer = send(client, game, 0, older, entered_at=ms(now.replace(year=now.year - 1)))
    assert answer.status_code == 302
    [row] = rows(client)
    assert row.entry == NORTH_ENTRY


def test_a_clock_ahead_cannot_win_every_tie(client, game):
    """A phone whose clock is a day ahead is taken as sending now: a later line replaces it."""
    ahead = datetime.now(UTC).timestamp() + 86_400
    send(client, game, 0, NORTH, entered_at=str(int(ahead * 1000)))
    [row] = rows(client)
    stored = row.entered_at if row.entered_at.tzinfo else row.entered_at.replace(tzinfo=UTC)
    assert stored.timestamp() < time.time() + 1
    assert send(client, game, 0, {"s0-melded_points": "100"}, device="b" * 32).status_code == 302
    [row] = rows(client)
    assert row.entry == {"melded_points": 100}


@pytest.mark.parametrize("entered_at", ["", "soon", "9" * 16, "-5"])
def test_an_entry_time_no_clock_shows_is_taken_as_now(client, game, entered_at):
    assert send(client, game, 0, NORTH, entered_at=entered_at).status_code == 302
    [row] = rows(client)
    stored = row.entered_at if row.entered_at.tzinfo else row.entered_at.replace(tzinfo=UTC)
    assert abs(stored.timestamp() - time.time()) < 60


def test_without_app_js_the_line_is_sent_by_someone(client, game):
    answer = client.post(f"{link(client, game)}/deals/next/1", data={"number": "1", **SOUTH})
    assert answer.status_code == 302
    [row] = rows(client)
    assert (row.sent_by, row.device) == ("Someone", None)


# ------------------------------------------------------------- the whole deal's form


def test_the_whole_deals_form_starts_from_the_lines_in(client, game):
    send(client, game, 0, NORTH)
    answer = client.get(f"{link(client, game)}/deals/new")
    shown = values(answer)
    assert shown["s0-melded_points"] == "320" and shown["s0-books-wild"] == "1"
    assert shown["s1-melded_points"] == ""
    assert "Filled in from the lines sent from the sides' own phones: North (from Ann)" in text(
        answer
    )
    assert re.search(
        r'name="went_out" type="radio" value="0"[^>]*checked|checked[^>]*value="0"',
        answer.get_data(as_text=True),
    )
    # Saved from one phone, it is the deal; the lines go with it.
    form = {**{k: v for k, v in shown.items() if v}, **SOUTH, "went_out": "0"}
    assert client.post(f"{link(client, game)}/deals/new", data=form).status_code == 302
    assert saved_deals(client) == [(1, [NORTH_ENTRY, SOUTH_ENTRY], [3620, 655])]
    assert rows(client) == []


def test_a_line_sent_while_the_whole_deal_was_typed_is_shown_first(client, game):
    opened = values(client.get(f"{link(client, game)}/deals/new"))
    assert opened["lines"] == "1:"
    send(client, game, 1, SOUTH, sent_by="Cat", device=CATS_PHONE)
    typed = {**opened, **{k: v for k, v in NORTH.items()}, "s1-melded_points": "200"}
    answer = client.post(f"{link(client, game)}/deals/new", data=typed)
    assert answer.status_code == 409
    page = text(answer)
    assert "Sides' own lines came in while you were entering" in page
    assert "South , from Cat: 1 clean book · 240 melded − 85 left = +655" in page
    kept = values(answer)
    assert kept["s1-melded_points"] == "200" and kept["lines"] == "1:1.1"
    assert saved_deals(client) == [] and len(rows(client)) == 1
    # Saved again, having seen them: the person's figures are the deal.
    assert client.post(f"{link(client, game)}/deals/new", data=kept).status_code == 302
    [(_, entries, _)] = saved_deals(client)
    assert entries[1] == {"melded_points": 200}
    assert rows(client) == []


# ------------------------------------------------------------------ live and access


def test_the_live_answer_names_the_lines_in_and_changes_with_them(client, game):
    url = f"{link(client, game)}/live"
    before = client.get(f"{url}?device={CATS_PHONE}")
    assert before.get_json()["parts"] == [] and before.get_json()["lines"] == "1:"
    send(client, game, 0, NORTH)
    after = client.get(
        f"{url}?device={CATS_PHONE}", headers={"If-None-Match": before.headers["ETag"]}
    )
    assert after.status_code == 200
    state = after.get_json()
    assert state["parts"] == [{"side": 0, "sent_by": "Ann", "mine": False, "problem": None}]
    assert state["lines"] == "1:0.1"
    mine = client.get(f"{url}?device={ANNS_PHONE}").get_json()
    assert mine["parts"][0]["mine"] is True


def test_a_finished_game_takes_no_line(client, game):
    for _ in range(4):
        api_deal(client, game, {"books": {"clean": 1}}, {})
    answer = client.get(f"{link(client, game)}/deals/next/0", follow_redirects=True)
    assert "This game is over" in text(answer)
    assert send(client, game, 0, NORTH, number="5").status_code == 302
    assert rows(client) == []


@pytest.fixture
def public_club_game(app):
    with app.app_context():
        olga = Organiser(username="olga", password_hash=generate_password_hash("x" * 12))
        db.session.add(olga)
        db.session.commit()
        club = clubs.create_club("Open Club", "open", olga)
        club.standings_public = True
        sides = [games.SideSetup(n, [n]) for n in ("Ann", "Cat")]
        game = games.start_game("club", sides, None, None, club)
        db.session.commit()
        return game.id


def test_the_game_link_alone_sends_a_line_of_a_club_game(app, public_club_game):
    """A phone holding the game's link, and nothing of its club, scores it (issue 37): its
    scoreboard offers each side's line and the line is kept; a wrong link sends none."""
    holder = app.test_client()
    game_link = link(app, public_club_game)
    wrong = game_link[:-1] + ("A" if not game_link.endswith("A") else "B")
    refused = holder.post(f"{wrong}/deals/next/0", data={"number": "1", "s0-melded_points": "50"})
    assert refused.status_code == 404
    with app.app_context():
        assert db.session.execute(select(DealPart)).first() is None
    board = text(holder.get(game_link))
    assert "Enter for Ann" in board
    answer = send(holder, public_club_game, 0, {"s0-melded_points": "50"})
    assert answer.status_code == 302
    with app.app_context():
        assert db.session.execute(select(DealPart.side_position)).scalars().all() == [0]
