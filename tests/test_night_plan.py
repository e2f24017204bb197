"""Seat tonight's tables (issue 29) over HTTP: the organiser's page, who may see it, a plan that
reads the same on a reload and rotates this season's partners, refusals in words (422).

Who may see it is in test_club_access.py's list of every club route too.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from test_clubs import SLUG, add_members, new_club, signup, text

from scorekeeper.services import clubs
from scorekeeper.services.games import SideSetup, start_game

pytestmark = pytest.mark.usefixtures("quick_hashing")

PLAN = f"/clubs/{SLUG}/nights/plan"
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
TABLE = re.compile(r"Table (\d+)</strong> · ([^<]+?)<br>")


@pytest.fixture
def olga(app, client):
    """Olga, signed in, runs the private Tuesday Club of eight members."""
    signup(client)
    new_club(client)
    add_members(client, SLUG, *EIGHT)
    return client


def ids(app) -> dict[str, int]:
    with app.app_context():
        return {m.name: m.id for m in clubs.club_by_slug(SLUG).members}


def query(app, names, **more) -> dict:
    return {"members": [ids(app)[n] for n in names], "seat": "1", **more}


def tables(page: str) -> list[list[tuple[str, str]]]:
    """Each round's tables: (number, "Ann & Bob v Cat & Dan")."""
    rounds = re.split(r"<h3 id=\"round-\d+\">", page)[1:]
    return [[(n, t.replace("&amp;", "&")) for n, t in TABLE.findall(r)] for r in rounds]


def night(page: str) -> str:
    """The plan's part of the page, its CSRF token left out (signed with the second it was made:
    two loads a second apart differ there and nowhere else)."""
    plan = page[page.index('<section class="night"') :]
    return re.sub(r'(name="csrf_token"[^>]*value=")[^"]*"', r'\1"', plan)


def test_only_the_organisers_see_the_page(app, olga):
    assert olga.get(PLAN).status_code == 200
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    holder = app.test_client()
    assert holder.post(f"/clubs/{SLUG}/table/{code}").status_code == 302
    assert holder.get(PLAN).status_code == 403
    stranger = app.test_client()
    answer, missing = stranger.get(PLAN), stranger.get("/clubs/no-such-club/nights/plan")
    assert answer.status_code == missing.status_code == 404
    assert answer.data == missing.data
    # The organiser's own link to it, on the club's nights (no longer a tab); nobody else's.
    assert f'href="{PLAN}"' in olga.get(f"/clubs/{SLUG}/nights").text
    assert f'href="{PLAN}"' not in holder.get(f"/clubs/{SLUG}/nights").text


def test_the_form_ticks_nobody_and_offers_the_shapes(app, olga):
    answer = olga.get(PLAN)
    page = answer.text
    assert answer.headers["Cache-Control"].startswith("no-store")
    assert len(re.findall(r'<input type="checkbox" name="members"', page)) == 8
    assert not re.search(r'name="members"[^>]* checked', page)
    assert re.search(r'<input[^>]*id="rounds"[^>]*value="3"', page)
    shapes = re.findall(r'<input type="radio" name="shape" value="(\w+)"[^>]*>', page)
    assert shapes == ["fours", "sixes", "singles"]
    assert re.search(
        r'<input type="radio" name="shape" value="fours" id="shape-fours" checked>', page
    )
    assert "Partners rotate. Fixed partnerships come with club nights." in text(answer)
    assert '<link rel="stylesheet" href="/static/night.css' in page
    assert '<h2 id="plan-title">' not in page


def test_eight_members_two_rounds_and_the_same_plan_on_a_reload(app, olga):
    answer = olga.get(PLAN, query_string=query(app, EIGHT, rounds="2"))
    assert answer.status_code == 200
    seated = tables(answer.text)
    assert [[n for n, _ in r] for r in seated] == [["1", "2"], ["1", "2"]]
    for r in seated:
        names = re.split(r" & | v ", " v ".join(t for _, t in r))
        assert sorted(names) == EIGHT
    words = text(answer)
    assert "8 players, 2 rounds" in words
    assert "every two players partner once and oppose twice" in words
    assert "Measured against 0 games of the last 90 days (since" in words
    assert "as no season holds today" in words
    reloaded = olga.get(PLAN, query_string=query(app, EIGHT, rounds="2"))
    assert night(reloaded.text) == night(answer.text)
    # Draw again: the same form, another seed; its address kept for a reload.
    assert re.search(r'<button[^>]*form="night-form" name="draw" value="1"', answer.text)
    again = olga.get(PLAN, query_string={**query(app, EIGHT, rounds="2"), "draw": "1"})
    assert again.status_code == 200 and 'name="draw" value="2"' in again.text


def test_this_season_s_partner_is_not_seated_with_them_again(app, olga):
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        today = datetime.now(UTC).date()
        clubs.add_season(club, "Spring", today - timedelta(days=9), today + timedelta(days=9))
        sides = [SideSetup("Us", ["Ann", "Bob"]), SideSetup("Them", ["Cat", "Dan"])]
        start_game("classic", sides, club=club, played_on=today)
    for draw in range(4):
        answer = olga.get(PLAN, query_string=query(app, EIGHT[:4], rounds="1", draw=str(draw)))
        ((table,),) = tables(answer.text)
        assert "Ann & Bob" not in table[1] and "Bob & Ann" not in table[1]
        assert "Cat & Dan" not in table[1] and "Dan & Cat" not in table[1]
        assert "Measured against 1 game of this season (Spring" in text(answer)
        assert "no partner repeats" in text(answer)


@pytest.mark.parametrize(
    ("names", "more", "reason"),
    [
        (EIGHT[:3], {}, "A partnership table needs 4 players; 3 are present."),
        (EIGHT, {"rounds": "13"}, "A night has 1 to 12 rounds; 13 cannot be."),
        (EIGHT, {"rounds": "two"}, "Not a valid integer value."),
        (EIGHT, {"guests": "Zed\u200b"}, "Guest 1's name cannot hold invisible"),
        (EIGHT, {"guests": "bob"}, "bob is a member: tick Bob instead."),
        (EIGHT, {"shape": "pairs"}, "'pairs' is none of the choices."),
    ],
)
def test_refused_in_words_beside_the_form_kept(app, olga, names, more, reason):
    answer = olga.get(PLAN, query_string=query(app, names, **more))
    assert answer.status_code == 422
    assert "The tables could not be seated: please check" in text(answer)
    assert reason in text(answer).replace("&#39;", "'")
    assert len(
        re.findall(r'name="members" value="\d+" id="member-\d+" checked', answer.text)
    ) == len(names)
    assert "plan-title" not in answer.text


def test_a_member_of_another_club_is_refused(app, olga):
    other = app.test_client()
    signup(other, "vera")
    new_club(other, slug="fridays", name="Friday Club")
    add_members(other, "fridays", "Zed")
    with app.app_context():
        zed = clubs.club_by_slug("fridays").members[0].id
    query_string = {"members": [*ids(app).values(), zed], "seat": "1"}
    answer = olga.get(PLAN, query_string=query_string)
    assert answer.status_code == 422
    assert f"Member {zed} is not one of Tuesday Club's members." in text(answer).replace(
        "&#39;", "'"
    )
