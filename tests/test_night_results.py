"""A club night in the club's records, over HTTP (issue 29): the history lists a finished night
with its winners, a member's page their place, the standings filter to the nights' games and
count night wins (page, CSV, API); an unfinished night is in none of them; each shown only to
those who may see it, and linked only where the visitor may open the night.

The night: 8 members, 2 rounds on 2 tables, every game played out by `finish_round` (the first
side makes a clean book in each of 4 deals, 500 each: 2,000 to 0). Each player's points are
counted by hand from the seating the night kept: 2,000 for each round on a table's first side.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest
from sqlalchemy import event, select
from test_clubs import SLUG, add_members, new_club, record, signup, solo, text
from test_night_pages import finish_round, holder, ids

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.services import clubs

pytestmark = pytest.mark.usefixtures("quick_hashing")

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
HISTORY = f"/clubs/{SLUG}/games"
STANDINGS = f"/clubs/{SLUG}/standings"


def club_of_eight(client, public: bool = False) -> None:
    signup(client)
    new_club(client, public=public)
    add_members(client, SLUG, *EIGHT)


def night_of_eight(app, olga, rounds_played: int = 2) -> str:
    """A night of the eight over 2 rounds, `rounds_played` of them seated and played out."""
    data = {"members": list(ids(app).values()), "rules": "classic", "rounds": "2"}
    data.update(partners="rotating", sit_out="no game", shape="")
    answer = olga.post(f"/clubs/{SLUG}/nights/new", data=data)
    assert answer.status_code == 302, answer.text
    url = answer.headers["Location"]
    for number in range(1, rounds_played + 1):
        assert olga.post(f"{url}/seat").status_code == 302
        finish_round(app, url, number)
    return url


def by_hand(app) -> dict[str, int]:
    """Each player's night points, from the seating kept: 2,000 a round on a first side."""
    with app.app_context():
        night = db.session.execute(select(Night)).scalar_one()
        names = {p.id: p.name for p in night.players}
        points = dict.fromkeys(names.values(), 0)
        for played in night.rounds:
            for table in played.tables:
                for player in table.sides[0]:
                    points[names[player]] += 2000
        return points


def winners_of(points: dict[str, int]) -> list[str]:
    best = max(points.values())
    return sorted(name for name, won in points.items() if won == best)


@pytest.fixture
def olga(app, client):
    """Olga, signed in, runs the private Tuesday Club of eight members."""
    club_of_eight(client)
    return client


def test_a_finished_night_is_in_the_history_with_its_winners(app, olga):
    url = night_of_eight(app, olga, rounds_played=1)
    # Round 1 of 2 played: not finished, not listed.
    page = olga.get(HISTORY)
    assert page.status_code == 200 and "Club nights" not in page.text
    assert f'href="{url}"' not in page.text
    assert olga.post(f"{url}/seat").status_code == 302
    finish_round(app, url, 2)
    winners = winners_of(by_hand(app))
    page = olga.get(HISTORY)
    shown = text(page)
    assert "Club nights" in shown
    assert f'href="{url}"' in page.text
    said = "Winners (first place shared)" if len(winners) > 1 else "Winner"
    assert f"{said}: ★ {', '.join(winners)}" in shown
    assert "Classic partnership · 8 players · 2 rounds" in shown
    # Its 4 games are in the history as any club game is.
    assert len(re.findall(r'href="/t/[\w-]+"', page.text)) == 4
    # The night's board and page, once it is over, say so.
    board = olga.get(f"{url}/board").text
    assert "Final standings" in board and "Tonight's standings" not in board


def test_the_nights_listed_keep_to_the_filters(app, olga):
    url = night_of_eight(app, olga)
    today = date.today().isoformat()
    assert f'href="{url}"' in olga.get(HISTORY, query_string={"start": today}).text
    before = {"season": "all", "end": "2000-01-01"}
    assert f'href="{url}"' not in olga.get(HISTORY, query_string=before).text
    other_rules = {"season": "all", "ruleset": "club"}
    assert f'href="{url}"' not in olga.get(HISTORY, query_string=other_rules).text
    bob = ids(app)["Bob"]
    assert f'href="{url}"' in olga.get(HISTORY, query_string={"player": bob}).text


def test_a_members_page_lists_their_place_at_the_night(app, olga):
    url = night_of_eight(app, olga)
    points = by_hand(app)
    for name, member_id in ids(app).items():
        page = olga.get(f"/clubs/{SLUG}/members/{member_id}")
        place = 1 + sum(other > points[name] for other in points.values())
        star = "★ " if place == 1 else ""
        assert f"{star}Place {place} of 8 · {points[name]:,} points · 2 games" in text(page)
        assert f'href="{url}"' in page.text


def test_standings_at_nights_and_night_wins(app, olga):
    night_of_eight(app, olga)
    points = by_hand(app)
    winners = winners_of(points)
    # A club game outside the night: Ann beats Bob, 500 to 0 (3 more deals of nothing).
    record(app, date.today().isoformat(), solo("Ann", "Bob"), [{"books": {"clean": 1}}, {}])
    every = _standings(olga)
    at_nights = _standings(olga, games="nights")
    assert (every["Ann"]["games"], at_nights["Ann"]["games"]) == ("3", "2")
    assert (every["Bob"]["games"], at_nights["Bob"]["games"]) == ("3", "2")
    assert every.keys() == at_nights.keys() == set(EIGHT)
    for name in EIGHT:
        assert at_nights[name]["points"] == f"{points[name]:,}"
        assert at_nights[name]["night wins"] == every[name]["night wins"]
        assert at_nights[name]["night wins"] == ("1" if name in winners else "0")
    page = olga.get(STANDINGS, query_string={"games": "nights", "sort": "night_wins"})
    assert "Only the games played at the club's nights count." in text(page)
    assert "a first place shared is a win for each who shares it" in text(page)
    assert 'aria-sort="descending"><a href="' in page.text
    first = re.findall(r'<th scope="row"><a href="[^"]+">(\w+)</a>', page.text)
    assert sorted(first[: len(winners)]) == winners
    # The CSV, as the page.
    exported = olga.get(f"/clubs/{SLUG}/export/standings.csv", query_string={"games": "nights"})
    lines = {r["player"]: r for r in csv.DictReader(io.StringIO(exported.text))}
    assert {n: lines[n]["night_wins"] for n in EIGHT} == {
        n: "1" if n in winners else "0" for n in EIGHT
    }
    assert lines["Ann"]["games"] == "2"


def test_the_api_counts_night_wins_and_filters_to_nights(app, olga):
    night_of_eight(app, olga)
    winners = winners_of(by_hand(app))
    record(app, date.today().isoformat(), solo("Ann", "Bob"), [{"books": {"clean": 1}}, {}])
    phone = holder(app)
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    api = f"/api/v1/clubs/{SLUG}/standings"
    headers = {"X-Table-Code": code}
    every = {r["player"]: r for r in phone.get(api, headers=headers).get_json()}
    nights = {r["player"]: r for r in phone.get(f"{api}?games=nights", headers=headers).get_json()}
    assert (every["Ann"]["games"], nights["Ann"]["games"]) == (3, 2)
    assert {n: r["night_wins"] for n, r in nights.items()} == {n: int(n in winners) for n in EIGHT}
    refused = phone.get(f"{api}?games=evenings", headers=headers)
    assert refused.status_code == 422
    assert "games is 'all' or 'nights', not 'evenings'." in refused.text


def test_a_filter_not_offered_is_said_by_its_name(app, olga):
    page = olga.get(STANDINGS, query_string={"games": "evenings"})
    assert page.status_code == 200
    assert "Games: Not a valid choice" in text(page)


def test_an_unfinished_night_counts_no_win_and_is_on_no_members_page(app, olga):
    url = night_of_eight(app, olga, rounds_played=1)
    # No night won yet: no Night wins column, unless the nights' games are asked for.
    assert all("night wins" not in row for row in _standings(olga).values())
    at_nights = _standings(olga, games="nights").values()
    assert {row["night wins"] for row in at_nights} == {"0"}
    ann = ids(app)["Ann"]
    assert f'href="{url}"' not in olga.get(f"/clubs/{SLUG}/members/{ann}").text


def test_who_sees_the_nights_and_who_may_open_them(app, client):
    club_of_eight(client, public=True)
    url = night_of_eight(app, client)
    stranger = app.test_client()
    page = stranger.get(HISTORY)
    assert page.status_code == 200 and "Club nights" in page.text
    assert f'href="{url}"' not in page.text  # shown, not linked: the night needs the table link
    assert "A night's page opens with the club's table link." in text(page)
    assert stranger.get(url).status_code == 403
    ann = ids(app)["Ann"]
    member_page = stranger.get(f"/clubs/{SLUG}/members/{ann}")
    assert "Place " in text(member_page) and f'href="{url}"' not in member_page.text
    phone = holder(app)
    assert f'href="{url}"' in phone.get(HISTORY).text
    assert f'href="{url}"' in phone.get(f"/clubs/{SLUG}/members/{ann}").text


def test_a_private_clubs_nights_are_hidden_from_strangers(app, olga):
    night_of_eight(app, olga)
    stranger = app.test_client()
    ann = ids(app)["Ann"]
    for address in (
        HISTORY,
        f"{STANDINGS}?games=nights",
        f"/clubs/{SLUG}/members/{ann}",
        f"/clubs/{SLUG}/export/standings.csv?games=nights",
        f"/api/v1/clubs/{SLUG}/standings?games=nights",
    ):
        assert stranger.get(address).status_code == 404, address


def _standings(client, **args: str) -> dict[str, dict[str, str]]:
    """The standings page's table: player -> {heading: cell}, headings in lower case."""
    page = client.get(STANDINGS, query_string=args)
    assert page.status_code == 200
    headings = [
        re.sub(r"<[^>]+>", "", h).strip().lower()
        for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', page.text)
    ]
    rows = {}
    for row in re.findall(r"<tr[^>]*>\s*<td>.*?</tr>", page.text, re.S):
        cells = [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        line = dict(zip(headings, cells, strict=True))
        rows[line["player"]] = line
    return rows


def selects(app, client, address: str) -> int:
    """How many queries a page costs."""
    asked: list[str] = []

    def count(_connection, _cursor, statement, *_):
        if statement.lstrip().upper().startswith("SELECT"):
            asked.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        assert client.get(address).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(asked)


def test_the_nights_cost_the_standings_a_fixed_few_queries(app, olga):
    """No nights: one query more than before them (the nights asked, none found); any number
    of nights: one more again (their tables)."""
    none = selects(app, olga, STANDINGS)
    night_of_eight(app, olga)
    one = selects(app, olga, STANDINGS)
    night_of_eight(app, olga)
    assert one == none + 1
    assert selects(app, olga, STANDINGS) == one
    assert selects(app, olga, HISTORY) == selects(app, olga, f"{HISTORY}?games=nights")
