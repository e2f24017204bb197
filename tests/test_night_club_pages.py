"""The club's pages lead to the night in progress (issue 37), over HTTP: the club's page and
the table link's page put the night first ("Tonight · Round 1 of 2 · 3 tables playing"), name
the games in progress by round and table, and word a club game started there, or on a phone
whose last game was a night's, as outside the night.
"""

from __future__ import annotations

import re

import pytest
from night_tables import finish, holder, night_url, open_tonight, seat, tables
from test_clubs import SLUG

from scorekeeper.services import clubs

pytestmark = pytest.mark.usefixtures("quick_hashing")


def test_the_club_page_leads_to_the_night_in_progress(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    round_one = tables(app, night_id, 1)
    table_phone = holder(app)
    for client in (olga, table_phone):
        page = client.get(f"/clubs/{SLUG}").text
        banner = f'<a href="{night_url(night_id)}">Tonight · Round 1 of 2 · 3 tables playing</a>'
        assert banner in page
        # First on the page: before any way to start a game.
        assert page.index(banner) < page.index("Start a club game outside the night")
        assert "Open tonight's night" not in page
        # The games in progress name their round and table.
        for table in round_one:
            assert f"Club night · Round 1 · Table {table.number}" in page
        # A game started here is a plain button, worded as outside the night.
        assert re.search(r'class="button"[^>]*>Start a club game outside the night<', page)
        assert 'primary big" href="/clubs/tuesday/games/new' not in page
    # A phone that opened its table's game is shown its table first.
    table_phone.get(round_one[1].link)
    page = table_phone.get(f"/clubs/{SLUG}").text
    assert f'href="{round_one[1].link}">You are at Table 2: open its game</a>' in page
    # The night's round over: the banner says so.
    for table in round_one:
        finish(app, table)
    assert "Tonight · Round 1 of 2 · every table has finished" in olga.get(f"/clubs/{SLUG}").text
    # The club's page still needs the table link or the sign-in.
    assert app.test_client().get(f"/clubs/{SLUG}").status_code == 404


def test_after_the_night_a_phone_whose_last_game_was_a_nights_starts_outside_it(app, olga):
    night_id = open_tonight(app, rounds=1)
    seat(olga, night_id)
    round_one = tables(app, night_id, 1)
    for table in round_one:
        finish(app, table)
    assert olga.post(f"{night_url(night_id)}/finish").status_code == 302
    fresh, table_phone = holder(app), holder(app)
    table_phone.get(round_one[0].link)  # its last game: a night's
    plain = fresh.get(f"/clubs/{SLUG}").text
    assert "Tonight ·" not in plain
    assert re.search(r'class="button primary big"[^>]*>Start a club game<', plain)
    page = table_phone.get(f"/clubs/{SLUG}").text
    assert "Tonight ·" not in page
    assert re.search(r'class="button"[^>]*>Start a club game outside the night<', page)
    assert "A game started here is not part of the club night" in page
    form = table_phone.get(f"/clubs/{SLUG}/games/new?ruleset=classic").text
    assert "A game outside the night" in form
    assert (
        "A game outside the night" not in fresh.get(f"/clubs/{SLUG}/games/new?ruleset=classic").text
    )


def test_the_new_game_form_during_a_night_says_it_is_outside_the_night(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    form = holder(app).get(f"/clubs/{SLUG}/games/new?ruleset=classic").text
    assert "A game outside the night" in form
    assert f'href="{night_url(night_id)}">Go to tonight\'s night</a>' in form


def test_the_table_links_page_leads_to_the_night_and_keeps_the_link_as_a_plain_button(app, olga):
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        code = club.table_code
        saved = clubs.create_saved_rules(club, "Tuesday rules", "classic")
        clubs.make_default(club, saved)
    table_link = f"/clubs/{SLUG}/table/{code}"
    night_id = open_tonight(app)
    seat(olga, night_id)
    phone = app.test_client()
    page = phone.get(table_link).text
    assert "Tonight · Round 1 of 2 · 3 tables playing" in page
    assert re.search(
        r'class="button primary big" type="submit" name="then" value="night">'
        r"Keep the table link and go to tonight's night<",
        page,
    )
    assert re.search(
        r'<button class="button" type="submit">Keep the table link on this phone<', page
    )
    assert "Keep it and start a game" not in page
    went = phone.post(table_link, data={"then": "night"})
    assert went.status_code == 302 and went.headers["Location"] == night_url(night_id)
    assert phone.get(night_url(night_id)).status_code == 200
    # Kept as a plain button: the club's page, which leads to the night too.
    other = app.test_client()
    kept = other.post(table_link)
    assert kept.status_code == 302 and kept.headers["Location"] == f"/clubs/{SLUG}"
