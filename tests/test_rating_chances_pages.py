"""Chances and balancing by rating over HTTP (issue 30): a club game's scoreboard says each
side's chance before deal 1 and not after it, a casual game's never; the club game form's
"Balance partners by rating"; the night form's balanced partners, its ruling, its refusals.
"""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator
from night_club import TWELVE
from sqlalchemy import select
from test_api_nights import NIGHTS
from test_club_game_start import pickers
from test_clubs import SLUG
from test_night_pages import NEW, ids, open_night
from test_pages import text, values

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs, deals, games
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup

pytestmark = pytest.mark.usefixtures("quick_hashing")

WON = [DealEntry.from_dict({"books": {"clean": 1}}, 0), DealEntry.from_dict({}, 1)]
PAR = re.compile(
    r"Par, each side's chance from the club's ratings as the game started: "
    r"Ann & Bob (\d+)% · Cat & Dan (\d+)%"
)


@pytest.fixture
def rated(app, olga):
    """Ann and Bob have beaten Cat and Dan six times: rated strong and weak."""
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        sides = [SideSetup("Ann & Bob", ["Ann", "Bob"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
        for _ in range(6):
            games.record_game(
                "classic",
                sides,
                [WON] * 4,
                club=club,
            )
        db.session.remove()
    return olga


def start(client, balance: bool = False, **seats: str):
    """The club game form as fetched, these members picked (side0_member0="Ann", ...), sent."""
    form = client.get(f"/clubs/{SLUG}/games/new?ruleset=classic")
    data = {**values(form), **pickers(form.text), **seats}
    data.pop("balance", None)
    if balance:
        data["balance"] = "y"
    return client.post(f"/clubs/{SLUG}/games/new?ruleset=classic", data=data)


TABLE = {"side0_member0": "Ann", "side0_member1": "Bob", "side1_member0": "Cat"}
TABLE["side1_member1"] = "Dan"


def test_the_scoreboard_keeps_the_par_the_game_started_with(app, rated):
    """Par (issue 42): each side's chance as the game started, shown through the game and
    after it, whatever the ratings do since; a game kept before par shows the chances now,
    before deal 1 only."""
    answer = start(rated, **TABLE)
    assert answer.status_code == 302, text(answer)
    board = rated.get(answer.headers["Location"])
    found = PAR.search(text(board))
    assert found, text(board)
    strong, weak = int(found[1]), int(found[2])
    assert strong + weak == 100 and strong > weak
    secret = answer.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        game = db.session.execute(select(Game).where(Game.secret == secret)).scalar_one()
        deals.enter_deal(game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        # Cat and Dan win six times after it started: their rating rises, the par stays.
        club = clubs.club_by_slug(SLUG)
        sides = [SideSetup("Cat & Dan", ["Cat", "Dan"]), SideSetup("Ann & Bob", ["Ann", "Bob"])]
        for _ in range(6):
            games.record_game("classic", sides, [WON] * 4, club=club)
        db.session.remove()
    again = PAR.search(text(rated.get(answer.headers["Location"])))
    assert again and (int(again[1]), int(again[2])) == (strong, weak)
    # The same table started now: Cat and Dan's par is higher than it was.
    later = PAR.search(text(rated.get(start(rated, **TABLE).headers["Location"])))
    assert later and int(later[2]) > weak
    with app.app_context():
        for side in (
            db.session.execute(select(Game).where(Game.secret == secret)).scalar_one().sides
        ):
            side.par = None
        db.session.commit()
    kept_before = text(rated.get(answer.headers["Location"]))
    assert not PAR.search(kept_before) and "Chances from" not in kept_before


def test_a_casual_game_shows_no_chances(client):
    sides = {"side0_players": "Ann, Bob", "side1_players": "Cat, Dan"}
    form = client.get("/games/new?ruleset=classic")
    assert "Balance partners by rating" not in form.text
    answer = client.post("/games/new?ruleset=classic", data={**values(form), **sides})
    assert answer.status_code == 302, text(answer)
    assert "Chances from" not in text(client.get(answer.headers["Location"]))


def test_the_club_form_balances_partners_when_asked(app, rated):
    form = rated.get(f"/clubs/{SLUG}/games/new?ruleset=classic")
    assert re.search(r'<button [^>]*type="submit" name="balance" value="y"', form.text)
    assert "Balance partners by rating, then start" in text(form)
    answer = start(rated, balance=True, **TABLE)
    assert answer.status_code == 302, text(answer)
    board = text(rated.get(answer.headers["Location"]))
    # Ann and Bob, the strong pair, are parted: each sits with Cat or Dan.
    assert re.search(r"Game started: (Ann & (Cat|Dan)) v (Bob & (Cat|Dan))\.", board), board
    odds = [int(n) for n in re.findall(r"(\d+)%", board.split("Par, each side's chance")[1][:140])]
    assert sum(odds) == 100 and abs(odds[0] - odds[1]) < 10


def test_a_club_game_that_cannot_be_balanced_is_refused_in_words(rated):
    answer = start(rated, balance=True, side0_member2="Eve", **TABLE)
    assert answer.status_code == 422
    assert "Partners are balanced in sides of one size; these sides hold 3, 2." in text(answer)


def test_the_night_form_offers_balanced_partners_and_says_what_it_does(app, rated):
    form = rated.get(NEW)
    assert 'value="balanced"' in form.text
    assert "Partners balanced by rating every round" in text(form)
    assert "partners may repeat where balance asks it" in text(form)
    url = open_night(app, rated, ["Ann", "Bob", "Cat", "Dan"], partners="balanced")
    page = text(rated.get(url))
    assert "partners balanced by rating" in page
    # The next round's one table: Ann and Bob parted, each side's chance shown.
    seating = re.search(r"Table 1 · (\w+) & (\w+) v (\w+) & (\w+) Chances: ([^.]*?%)[^%]*%", page)
    assert seating, page
    sides = [{seating[1], seating[2]}, {seating[3], seating[4]}]
    assert all(len(side & {"Ann", "Bob"}) == 1 for side in sides), seating[0]
    board = rated.get(url + "/board")
    assert "Chances:" in board.text


def test_balanced_individual_tables_are_refused_in_words(app, rated):
    data = {"members": [ids(app)[n] for n in TWELVE[:4]], "rules": "classic", "rounds": "2"}
    data.update(partners="balanced", sit_out="no game", shape="singles")
    answer = rated.post(NEW, data=data)
    assert answer.status_code == 422
    assert "Individual tables have no partners to balance." in text(answer)


def test_the_api_says_a_balanced_nights_chances_until_the_table_deals(app, rated):
    """The night's answer carries what its page says: each side's chance, next round and seated,
    summing to 100, Ann and Bob parted; null once the table has dealt, and never where partners
    rotate."""
    members = [ids(app)[n] for n in ("Ann", "Bob", "Cat", "Dan")]
    body = {"members": members, "ruleset": "classic", "rounds": 1, "partners": "balanced"}
    night = rated.post(NIGHTS, json=body).get_json()
    document = rated.get("/api/v1/openapi.json").get_json()
    schema = {"$ref": "#/components/schemas/Night", "components": document["components"]}
    Draft202012Validator(schema).validate(night)
    (planned,) = night["next_round"]["tables"]
    assert sum(planned["chances"]) == 100
    assert all(len(set(side) & {"Ann", "Bob"}) == 1 for side in planned["sides"])

    seated = rated.post(f"{night['url']}/rounds", json={"round": 1}).get_json()
    Draft202012Validator(schema).validate(seated)
    (table,) = seated["rounds"][0]["tables"]
    assert [s["chance"] for s in table["sides"]] == planned["chances"]
    game = table["game"]
    # The game keeps them as its par (issue 42), in the game's answer too.
    kept = rated.get(f"/api/v1/games/{game['id']}", headers={"X-Game-Key": game["key"]})
    assert [s["par"] for s in kept.get_json()["sides"]] == planned["chances"]
    dealt = rated.post(
        f"/api/v1/games/{game['id']}/deals",
        json={"scores": [{"books": {"clean": 1}}, {}]},
        headers={"X-Game-Key": game["key"]},
    )
    assert dealt.status_code == 201, dealt.get_json()
    (table,) = rated.get(night["url"]).get_json()["rounds"][0]["tables"]
    assert [s["chance"] for s in table["sides"]] == [None, None]

    rotating = rated.post(NIGHTS, json={**body, "partners": "rotating"}).get_json()
    assert rotating["next_round"]["tables"][0]["chances"] == []


def test_a_nights_results_show_each_players_par_and_its_board_does_not(app, rated):
    """Par over a night (issue 42): once a table finishes, the night's results give each
    player their wins and their par, the wins expected from their side's chance as it
    started; the board on the television keeps to the race."""
    url = open_night(app, rated, ["Ann", "Bob", "Cat", "Dan"], partners="rotating")
    assert rated.post(f"{url}/seat").status_code == 302
    page = rated.get(url).text
    assert ">Par</abbr>" not in page
    [secret] = re.findall(r'<img class="night-qr" src="/t/([\w-]+)/invite.svg', page)
    with app.app_context():
        game = db.session.execute(select(Game).where(Game.secret == secret)).scalar_one()
        par = {p.name: side.par for side in game.sides for p in side.players}
        assert sum(side.par or 0 for side in game.sides) == 100, par
        for _ in range(4):
            deals.enter_deal(game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        winners = {p.name for p in game.sides[0].players}
        db.session.remove()
    assert None not in par.values()
    page = rated.get(url).text
    assert ">Par</abbr>" in page
    for name, pc in par.items():
        # Games, wins, par.
        row = re.search(
            rf'<th scope="row">{name}</th>.*?<td>1</td><td>(\d)</td><td>([\d.]+)</td>', page
        )
        assert row, (name, page)
        assert (int(row[1]), row[2]) == (int(name in winners), f"{pc / 100:.1f}")
    assert ">Par</abbr>" not in rated.get(url + "/board").text
