"""What each count gives and how a group stands to its whist schedule, in words (issue 38):
the new night's form lists every count's tables under the rules chosen and says what those
ticked give; the plan of tonight's tables and a kept night's next round say it of their count;
the night's page says when tonight's whist schedule stopped (someone came or left) and whether
tonight's group goes on with the schedule of the club's earlier nights or starts it afresh.
"""

from __future__ import annotations

import html
import re

import pytest
from night_club import TWELVE
from test_clubs import SLUG
from test_night_pages import NEW, finish_round, ids, open_night

pytestmark = pytest.mark.usefixtures("quick_hashing")

TEN = "10 players: 1 table of 6 and 1 table of 4, nobody sits out."
NINE = "9 players: 2 tables of 4, 1 sits out each round."
NEXT = re.compile(r'<h2 id="next-round">.*?</ol>', re.S)
TABLE = re.compile(r"<li>Table \d · ([^<]+?)(?:<br>|</li>)")


def text(answer) -> str:
    return html.unescape(answer.text)


def next_sides(page: str) -> list[int]:
    """Teams at each table of the next round as the page lists it, largest first."""
    listed = NEXT.search(page).group(0)
    return sorted((title.count(" v ") + 1 for title in TABLE.findall(listed)), reverse=True)


@pytest.mark.parametrize(("count", "words", "sides"), [(10, TEN, [3, 2]), (9, NINE, [2, 2])])
def test_a_sixes_night_says_what_its_count_gives_and_is_seated_so(app, olga, count, words, sides):
    url = open_night(app, olga, TWELVE[:count], shape="sixes")
    page = text(olga.get(url))
    assert f'<p id="room-words">{words}</p>' in page
    # The words are the seating's: the next round's tables have those teams.
    assert next_sides(page) == sides
    # A player come late changes the next round's count, and its words with it.
    assert olga.post(f"{url}/players", data={"guest": "Zoe"}).status_code == 302
    later = text(olga.get(url))
    assert f'<p id="room-words">{count + 1} players: ' in later
    assert words not in later


def test_the_form_lists_each_count_and_says_what_those_ticked_give(app, olga):
    form = text(olga.get(NEW))
    counts = re.search(r'<details class="room-counts".*?</details>', form, re.S).group(0)
    assert "Three teams of two, tables of 6" in counts
    assert f"<li>{TEN}</li>" in counts and f"<li>{NINE}</li>" in counts
    assert "<li>8 players: 2 tables of 4, nobody sits out.</li>" in counts
    assert 'id="room-ticked"' not in form  # nobody is ticked yet
    for count, words in ((10, TEN), (9, NINE)):
        data = {"members": [ids(app)[n] for n in TWELVE[:count]], "rules": "classic"}
        data.update(partners="rotating", sit_out="no game", shape="sixes", rounds="99")
        sent = olga.post(NEW, data=data)
        assert sent.status_code == 422  # 99 rounds: the form comes back, ticks kept
        assert f'<p class="hint" id="room-ticked">{words}</p>' in text(sent)


def test_the_plan_of_tonights_tables_says_what_its_count_gives(app, olga):
    members = [ids(app)[n] for n in TWELVE[:10]]
    answer = olga.get(
        f"/clubs/{SLUG}/nights/plan",
        query_string={"members": members, "shape": "sixes", "rounds": "1", "seat": "1"},
    )
    assert answer.status_code == 200
    assert f'<p id="room-words">{TEN}</p>' in text(answer)


def group_change(page: str) -> str:
    found = re.search(r'<p id="group-change">([^<]*)</p>', page)
    return found.group(1) if found else ""


def play(app, olga, url: str, rounds: int) -> None:
    for number in range(1, rounds + 1):
        assert olga.post(f"{url}/seat").status_code == 302
        finish_round(app, url, number)


def test_a_late_arrival_stops_tonights_whist_schedule_and_the_page_says_so(app, olga):
    url = open_night(app, olga, TWELVE[:8], rounds="4")
    assert group_change(text(olga.get(url))) == ""  # the first group of 8: nothing to add
    play(app, olga, url, 2)
    assert olga.post(f"{url}/players", data={"member": ids(app)["Ivy"]}).status_code == 302
    page = text(olga.get(url))
    assert group_change(page) == (
        "The whist schedule for 8 stopped after round 2: Ivy came. From round 3 the rounds are "
        "drawn so nobody partners anyone twice where that can be avoided, tonight's and the "
        "last 90 days' partners counted."
    )
    assert "of the whist schedule for" not in NEXT.search(page).group(0)
    # Round 3 played round by round, and Ann gone after it: the words still name where the
    # schedule stopped and why.
    assert olga.post(f"{url}/seat").status_code == 302
    finish_round(app, url, 3)
    assert olga.post(f"{url}/players", data={"leave": ids(app)["Ann"]}).status_code == 302
    assert "stopped after round 2: Ivy came." in group_change(text(olga.get(url)))


def test_an_early_leaver_stops_it_too(app, olga):
    url = open_night(app, olga, TWELVE[:9], rounds="3")
    play(app, olga, url, 1)
    assert olga.post(f"{url}/players", data={"leave": ids(app)["Bob"]}).status_code == 302
    said = group_change(text(olga.get(url)))
    assert said.startswith("The whist schedule for 9 stopped after round 1: Bob left. ")


def test_the_same_group_goes_on_and_another_starts_afresh_and_the_page_says_which(app, olga):
    first = open_night(app, olga, TWELVE[:8], rounds="2")
    play(app, olga, first, 2)
    assert olga.post(f"{first}/finish").status_code == 302
    same = text(olga.get(open_night(app, olga, TWELVE[:8], rounds="2")))
    assert group_change(same) == (
        "The same 8 played 2 rounds of the whist schedule for 8 at the club's earlier nights "
        "of the last 90 days: tonight goes on from its round 3."
    )
    assert "Round 3 of 7 of the whist schedule for 8" in same
    other = text(olga.get(open_night(app, olga, TWELVE[1:9], rounds="2")))
    said = group_change(other)
    assert said.startswith("Tonight's 8 are not the 8 of the club's night of ")
    assert said.endswith(
        "(Ivy is here, Ann is not): the whist schedule for 8 starts afresh from its round 1; "
        "partners of earlier nights may partner again."
    )
    assert "Round 1 of 7 of the whist schedule for 8" in other
    # Nine have a schedule of their own, and no earlier night had nine: nothing to add.
    assert group_change(text(olga.get(open_night(app, olga, TWELVE[:9], rounds="2")))) == ""
