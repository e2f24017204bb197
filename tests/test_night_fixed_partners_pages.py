"""Fixed partners over HTTP (issue 38): the form opens a night of fixed pairs balanced by
rating; the night's page shows the pairs once drawn (before round 1, as its draw makes them;
after, as kept) and, with an odd number, who has no partner and what they do.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
import test_api_nights as api
from night_club import TWELVE
from test_night_pages import NEW, ids

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services.nights import partners as night_partners

pytestmark = pytest.mark.usefixtures("quick_hashing")

NINE = TWELVE[:9]


def open_fixed(app, olga, partners: str) -> str:
    data = {"members": [ids(app)[n] for n in NINE], "rules": "classic", "rounds": ""}
    data.update(partners=partners, sit_out="no game", shape="")
    answer = olga.post(NEW, data=data)
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def pairs_on(page: str) -> tuple[list[str], str]:
    """The pairs listed under "Tonight's pairs", and the sentence on the player without one."""
    section = re.search(r'<section [^>]*id="pairs">(.*?)</section>', page, re.S)
    assert section, "the night's page shows tonight's pairs"
    pairs = [unescape(p) for p in re.findall(r"<li>([^<]+)</li>", section.group(1))]
    spare = re.search(r'<p id="spare">([^<]+)</p>', section.group(1))
    return pairs, unescape(spare.group(1)) if spare else ""


def kept(app, url: str) -> tuple[list[str], list[str], str]:
    """The night's pairs as kept ("Ann & Bob"), its spare's name, and its partners."""
    with app.app_context():
        night = db.session.get(Night, int(url.rsplit("/", 1)[1]))
        name = {p.id: p.name for p in night.players}
        pairs = [PARTNERS.join(name[i] for i in t) for t in night.pairs["teams"]]
        spare = [name[i] for i in night.pairs["spare"]]
        partners = night.partners
        db.session.remove()
    return pairs, spare, partners


def test_a_form_opens_fixed_pairs_balanced_by_rating_and_the_page_shows_them(app, olga):
    form = olga.get(NEW)
    assert 'value="fixed_balanced"' in form.text
    assert night_partners.FIXED_BALANCED_RULING in unescape(form.text)
    url = open_fixed(app, olga, "fixed_balanced")
    page = unescape(olga.get(url).text)
    assert night_partners.SAID["fixed_balanced"] in page
    assert night_partners.FIXED_BALANCED_RULING in page
    before, spare_before = pairs_on(page)
    # Nine players: four pairs drawn before round 1, the ninth without a partner.
    # Drawn from the ratings: a draw again keeps them (by lot it would draw others).
    assert len(before) == 4 and night_partners.NOT_YET_KEPT_BALANCED in page
    assert night_partners.NOT_YET_KEPT not in page
    seated = olga.post(f"{url}/seat", data={"round": "1"})
    assert seated.status_code == 302, seated.text
    after_page = unescape(olga.get(url).text)
    after, spare_after = pairs_on(after_page)
    assert night_partners.NOT_YET_KEPT_BALANCED not in after_page
    pairs, spare, partners = kept(app, url)
    assert partners == "fixed_balanced"
    # What the page showed before round 1 is what round 1 kept, and what it shows now.
    assert before == after == pairs
    assert len(spare) == 1 and spare_before == spare_after == night_partners.spare_words(spare[0])
    assert f"{spare[0]} has no partner tonight" in spare_after
    assert f"{spare[0]} plays in for whoever sits out" in spare_after
    # The room's board says it too, in the same words.
    board = unescape(olga.get(f"{url}/board").text)
    assert " · ".join(pairs) in board and spare_after in board


def test_fixed_partners_by_lot_show_their_pairs_and_no_spare_with_an_even_number(app, olga):
    data = {"members": [ids(app)[n] for n in TWELVE[:8]], "rules": "classic", "rounds": ""}
    data.update(partners="fixed", sit_out="no game", shape="")
    url = olga.post(NEW, data=data).headers["Location"]
    assert olga.post(f"{url}/seat", data={"round": "1"}).status_code == 302
    page = unescape(olga.get(url).text)
    shown, spare = pairs_on(page)
    assert shown == kept(app, url)[0] and spare == ""
    assert night_partners.SAID["fixed"] in page


def test_rotating_partners_show_no_pairs(app, olga):
    data = {"members": [ids(app)[n] for n in TWELVE[:8]], "rules": "classic", "rounds": "2"}
    data.update(partners="rotating", sit_out="no game", shape="")
    url = olga.post(NEW, data=data).headers["Location"]
    assert 'id="pairs"' not in olga.get(url).text
    assert "Tonight's pairs" not in unescape(olga.get(f"{url}/board").text)


def test_the_api_opens_fixed_pairs_balanced_by_rating(app, olga, client):
    document = client.get("/api/v1/openapi.json").get_json()
    night = api.started(app, olga, names=NINE, partners="fixed_balanced", rounds=3)
    api.matches(document, "Night", night)
    assert night["partners"] == "fixed_balanced"
    # Nine: four pairs and one without a partner, who sits round 1 out or plays in.
    assert len(night["next_round"]["sitting_out"]) == 1
    assert api.seat(olga, night, 1).status_code in (200, 201)
    pairs, spare, partners = kept(app, night["url"])
    assert partners == "fixed_balanced" and len(pairs) == 4 and len(spare) == 1
