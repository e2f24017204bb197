"""How a night ranks, as a club sees it (issue 37): chosen on the new night's form and through
the API (the default "half"; "average" only for nights kept before), said beside the night's
standings on its page and its board, a player not ranked shown "–" with why; "Out" never means
two things ("Sat out" at a night, "Went out" in the club's standings).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from night_club import TWELVE
from test_api_nights import error, matches, pointers, start, started
from test_clubs import SLUG
from test_night_pages import NEW, finish_round, ids, open_night

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.rules import rounding
from scorekeeper.services.nights.ranking import AVERAGE, HALF, OFFERED, RANKINGS, TOTAL

pytestmark = pytest.mark.usefixtures("quick_hashing")


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/api/v1/openapi.json").get_json()


def ranking_of(app, url: str) -> str:
    with app.app_context():
        return db.session.get(Night, int(url.rsplit("/", 1)[1])).ranking


def test_the_form_offers_the_rules_half_first_and_not_the_old_one(app, olga):
    form = olga.get(NEW).text
    assert "<legend>How the night ranks</legend>" in form
    offered = re.findall(r'<input type="radio" name="ranking" value="([^"]+)"', form)
    assert offered == list(OFFERED) and AVERAGE not in offered
    assert re.search(r'name="ranking" value="half" id="[^"]+" checked', form)
    for words in OFFERED.values():
        assert words.replace("'", "&#39;") in form
    # Left out, as an older form would send it: the default, said before any round too.
    url = open_night(app, olga)
    assert ranking_of(app, url) == HALF
    said = f"How the night ranks: {RANKINGS[HALF]}.".replace("'", "&#39;")
    assert said in olga.get(url).text and said in olga.get(f"{url}/board").text


def test_a_night_ranked_by_total_says_so_and_heads_its_column(app, olga):
    url = open_night(app, olga, ranking=TOTAL)
    assert ranking_of(app, url) == TOTAL
    assert olga.post(f"{url}/seat").status_code == 302
    finish_round(app, url, 1)
    page = olga.get(url).text
    said = f"How the night ranks: {RANKINGS[TOTAL]}. {rounding.RULE}</p>"
    assert f'<p class="night-ranking-rule">{said}' in page
    assert '<th scope="col"><abbr title="Total points">Points</abbr></th>' in page
    board = olga.get(f"{url}/board").text
    assert f"How the night ranks: {RANKINGS[TOTAL]}." in board


def test_the_old_rule_and_a_rule_unknown_are_refused_by_name(app, olga):
    for asked in (AVERAGE, "best"):
        data = {"members": [ids(app)[n] for n in TWELVE], "rules": "classic", "rounds": "2"}
        data.update(partners="rotating", sit_out="no game", shape="", ranking=asked)
        refused = olga.post(NEW, data=data)
        assert refused.status_code == 422
        assert f"Choose how the night ranks: &#39;{asked}&#39; is none of" in refused.text
        assert 'href="#ranking"' in refused.text  # the message leads to its field


def test_a_player_gone_after_round_one_is_listed_unranked_with_why(app, olga):
    url = open_night(app, olga, rounds="3")
    assert olga.post(f"{url}/seat").status_code == 302
    finish_round(app, url, 1)
    with app.app_context():
        night = db.session.get(Night, int(url.rsplit("/", 1)[1]))
        ann = next(p.id for p in night.players if p.name == "Ann")
        sat = [n for r in night.rounds for n in r.sitting_out]
    assert sat == []  # twelve at three tables of 4
    assert olga.post(f"{url}/players", data={"leave": ann}).status_code == 302
    for number in (2, 3):
        assert olga.post(f"{url}/seat").status_code == 302
        finish_round(app, url, number)
    page = olga.get(url).text
    row = re.search(r"<tr class=\"unranked\"><td>–</td><th scope=\"row\">Ann ([^\n]*?)</tr>", page)
    assert row, "Ann's row is not marked unranked"
    assert "Not ranked: here for 1 of 3 rounds; ranked from 2" in row.group(1)
    # Rounds sat out are called so; "Out" alone no longer heads any column.
    assert '<abbr title="Rounds sat out">Sat out</abbr>' in page
    assert ">Out<" not in page
    standings = olga.get(f"/clubs/{SLUG}/standings").text
    assert ">Went out</a>" in standings and ">Out<" not in standings


def test_the_api_opens_a_night_with_its_ranking_and_answers_it(app, olga, document):
    night = started(app, olga, ranking=TOTAL)
    matches(document, "Night", night)
    assert (night["ranking"], night["ranking_rule"]) == (TOTAL, RANKINGS[TOTAL])
    assert started(app, olga)["ranking"] == HALF
    for asked in (AVERAGE, "best"):
        refused = start(app, olga, ranking=asked)
        assert "Choose how the night ranks" in error(refused, 422)["message"]
        assert pointers(refused) == ["/ranking"]
    seated = olga.post(f"{night['url']}/rounds", json={"round": 1}).get_json()
    standings = seated["standings"]
    assert all(s["not_ranked"] == "no game yet" and s["score"] is None for s in standings)
    matches(document, "Night", seated)
    described = document["components"]["schemas"]["NightSetup"]["properties"]["ranking"]
    assert described["enum"] == list(OFFERED) and described["default"] == HALF
