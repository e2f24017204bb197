"""A club night's seating drawn again over HTTP (issue 29): Draw again before a round is seated,
a round seated with no deal drawn again, refusals 422 in words; the whist schedule said on the
page; phones holding the table link run nights only where the club's settings allow.
"""

from __future__ import annotations

import re

import pytest
from night_club import TWELVE
from test_clubs import SLUG
from test_night_pages import NEW, holder, ids, open_night

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.services import clubs, deals
from scorekeeper.services.access import Level

pytestmark = pytest.mark.usefixtures("quick_hashing")

TEN = TWELVE[:10]
NEXT = re.compile(r'<h2 id="next-round">.*?</ol>', re.S)
CARD = re.compile(r'<p class="night-card-title">([^<]+)</p>')


def night_of(app, url: str) -> tuple[int, int]:
    """The night's (draw, version)."""
    with app.app_context():
        night = db.session.get(Night, int(url.rsplit("/", 1)[1]))
        return night.draw, night.version


def allow_tables(olga, allowed: bool) -> None:
    data = {"name": "Tuesday Club", "min_games": "3"}
    if allowed:
        data["tables_run_nights"] = "y"
    assert olga.post(f"/clubs/{SLUG}/settings", data=data).status_code == 302


def test_draw_again_shows_another_seating_and_a_second_tap_is_refused(app, olga):
    url = open_night(app, olga, TEN)
    page = olga.get(url).text
    assert "Draw again</button>" in page
    assert "nobody partners someone again while a new partner can be had" in page
    shown = NEXT.search(page).group()
    answer = olga.post(f"{url}/draw", data={"draw": "0"})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("#next-round")
    page = olga.get(url).text
    assert "Round 1 drawn again: check the new seating, then seat it." in page
    assert NEXT.search(page).group() != shown
    draw, version = night_of(app, url)
    assert draw >= 1 and version == 1
    again = olga.post(f"{url}/draw", data={"draw": "0"})
    assert again.status_code == 422
    assert "Round 1&#39;s seating was drawn again meanwhile: check it, then seat it." in again.text
    assert night_of(app, url) == (draw, version)
    # Seated from what the page showed; a seating drawn again unseen is not seated.
    assert olga.post(f"{url}/seat", data={"draw": "0"}).status_code == 422
    assert olga.post(f"{url}/seat", data={"draw": str(draw)}).status_code == 302


def test_a_round_seated_is_drawn_again_until_a_table_has_a_deal(app, olga):
    url = open_night(app, olga, TEN)
    olga.post(f"{url}/seat", data={"draw": "0"})
    page = olga.get(url).text
    assert "Draw round 1 again</button>" in page
    cards = CARD.findall(page)
    answer = olga.post(f"{url}/rounds/1/draw", data={"draw": "0"})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("#round-1")
    page = olga.get(url).text
    assert "Round 1 drawn again: 2 tables&#39; games started anew." in page
    assert CARD.findall(page) != cards and len(CARD.findall(page)) == 2
    with app.app_context():
        night = db.session.get(Night, int(url.rsplit("/", 1)[1]))
        table = night.rounds[0].tables[-1]
        deals.enter_deal(table.game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        number, draw = table.number, night.draw
        db.session.remove()
    page = olga.get(url).text
    assert "Draw round 1 again" not in page
    refused = olga.post(f"{url}/rounds/1/draw", data={"draw": str(draw)})
    assert refused.status_code == 422
    assert f"Table {number} has a deal: round 1 has started." in refused.text
    assert night_of(app, url)[0] == draw


def test_the_page_says_when_the_rounds_follow_a_whist_schedule(app, olga):
    url = open_night(app, olga, TWELVE[:8])
    page = olga.get(url).text
    assert "Round 1 of 7 of the whist schedule for 8: everyone partners everyone once." in page
    assert "drawing again changes only the table numbers and seats" in page
    # The form says which numbers have a schedule: every 4m and 4m + 1 from 4 to 40 (issue 38).
    assert "known for (4 to 40 players, a multiple of 4 or one more) plays" in olga.get(NEW).text


def test_fixed_partners_say_why_a_later_round_is_not_drawn_again(app, olga):
    url = open_night(app, olga, TWELVE[:8], partners="fixed")
    assert "Draw again</button>" in olga.get(url).text
    olga.post(f"{url}/seat")
    with app.app_context():
        night = db.session.get(Night, int(url.rsplit("/", 1)[1]))
        for table in night.rounds[0].tables:
            for _ in range(4):
                deals.enter_deal(table.game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        db.session.remove()
    page = olga.get(url).text
    assert "Partners are fixed: round 1 drew the pairs and the order they meet in" in page
    assert "Draw again</button>" not in page
    assert olga.post(f"{url}/draw").status_code == 422


def test_the_table_link_runs_nights_only_where_the_club_allows(app, olga):
    url = open_night(app, olga, TEN)
    phone = holder(app)
    page = phone.get(url).text
    assert "Seat round 1" not in page and "Draw again" not in page
    assert f'href="{NEW}"' not in phone.get(f"/clubs/{SLUG}").text
    for path in (NEW, f"{url}/seat", f"{url}/draw", f"{url}/rounds/1/draw", f"{url}/finish"):
        method = phone.get if path == NEW else phone.post
        assert method(path).status_code == 403, path
    assert phone.post(f"{url}/players", data={"guest": "Zoe"}).status_code == 403
    assert night_of(app, url) == (0, 0)

    settings = olga.get(f"/clubs/{SLUG}/settings").text
    assert "Phones holding the table link may open and run club nights" in settings
    allow_tables(olga, True)
    with app.app_context():
        assert clubs.club_by_slug(SLUG).tables_run_nights
    overview = phone.get(f"/clubs/{SLUG}").text
    # A night in progress: the club's page leads to it (issue 37), not to a new night's form.
    assert f'href="{url}"' in overview and "Open tonight's night</a>" not in overview
    assert phone.get(NEW).status_code == 200
    assert "Seat round 1</button>" in phone.get(url).text
    assert phone.post(f"{url}/draw", data={"draw": "0"}).status_code == 302
    assert phone.post(f"{url}/players", data={"guest": "Zoe"}).status_code == 302
    draw, _ = night_of(app, url)
    assert phone.post(f"{url}/seat", data={"draw": str(draw)}).status_code == 302
    assert phone.post(f"{url}/rounds/1/draw", data={"draw": str(draw)}).status_code == 302
    # A night opened by the phone itself.
    data = {"members": [ids(app)[n] for n in TWELVE[:8]], "rules": "classic", "rounds": "1"}
    data.update(partners="rotating", sit_out="no game", shape="")
    assert phone.post(NEW, data=data).status_code == 302

    allow_tables(olga, False)
    assert phone.post(f"{url}/draw").status_code == 403
    assert "Open tonight's night" not in phone.get(f"/clubs/{SLUG}").text


def test_figures_that_are_not_ascii_digits_are_no_draw_and_no_player(app, olga):
    """ "²" passes str.isdigit but is no number: the draw is taken as unsaid, the leaver as none
    chosen (a guest's name is asked for), never a 500."""
    url = open_night(app, olga, TEN)
    assert olga.post(f"{url}/draw", data={"draw": "²"}).status_code == 302
    answer = olga.post(f"{url}/players", data={"leave": "²"})
    assert answer.status_code == 422
    assert "Choose the member come late, or type the guest&#39;s name." in answer.text
