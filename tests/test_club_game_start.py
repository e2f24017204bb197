"""A club game started on a phone (issue 28): named for the club's saved rule set, as many
member pickers as the rules seat (a third for a team a tap away), and this phone's last table
filled in, so that a returning table starts in a couple of taps."""

from __future__ import annotations

import re

import pytest
from test_pages import text, values

from scorekeeper.services import accounts, clubs

SLUG = "tuesday"


@pytest.fixture
def club(app):
    """The Tuesday Club: six members; Thursday rules (classic, red three caught -300) by default."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        made = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"):
            clubs.add_member(made, name)
        thursday = clubs.create_saved_rules(
            made, "Thursday rules", "classic", {"red_three_caught": 300}
        )
        clubs.make_default(made, thursday)
        return {"code": made.table_code, "saved": thursday.id}


def keep_table_link(client, club) -> None:
    """This phone keeps the club's table link (tapped on the link's page)."""
    kept = client.post(f"/clubs/{SLUG}/table/{club['code']}")
    assert kept.status_code == 302


def start(client, **sides: str) -> str:
    """Post the club's new-game form as fetched, with these pickers and guests; the game's link."""
    form = client.get(f"/clubs/{SLUG}/games/new")
    data = {**values(form), **pickers(form.get_data(as_text=True)), **sides}
    answer = client.post(f"/clubs/{SLUG}/games/new", data=data)
    assert answer.status_code == 302, text(answer)
    return answer.headers["Location"]


SELECT = re.compile(r'<select[^>]* name="(side\d_member\d)"[^>]*>(.*?)</select>', re.S)
CHOSEN = re.compile(r'<option selected value="([^"]*)"|<option value="([^"]*)" selected')


def pickers(html: str) -> dict[str, str]:
    """Each member picker on the page and the member chosen in it ("" for none)."""
    chosen = {}
    for name, options in SELECT.findall(html):
        found = CHOSEN.search(options)
        chosen[name] = (found[1] or found[2] or "") if found else ""
    return chosen


def test_the_form_is_named_for_the_saved_rule_set(client, club):
    keep_table_link(client, club)
    page = client.get(f"/clubs/{SLUG}/games/new")
    html = page.get_data(as_text=True)
    assert "<title>New Thursday rules game ·" in html
    assert re.search(r"<h1>New Thursday rules game <span", html)
    assert "New Classic partnership game" not in html
    # Which preset it is, said once, below.
    assert "Thursday rules: Tuesday Club's own rules (Classic partnership," in text(page)


def test_a_team_shows_two_pickers_and_a_third_a_tap_away(client, club):
    keep_table_link(client, club)
    html = client.get(f"/clubs/{SLUG}/games/new").get_data(as_text=True)
    side = html.split("data-side-row>")[1].split("data-side-row")[0]
    outside = side.split('<details class="more-seats"')[0]
    assert outside.count("<select") == 2
    more = side.split('<details class="more-seats"')[1].split("</details>")[0]
    assert more.count("<select") == 1 and "A third player on side 1" in more
    # Closed unless a third player is picked.
    assert '<details class="more-seats" open' not in html


def test_an_individual_game_shows_one_picker_a_player(client, club):
    keep_table_link(client, club)
    html = client.get(f"/clubs/{SLUG}/games/new?ruleset=club").get_data(as_text=True)
    assert "more-seats" not in html
    assert len(pickers(html)) == 6  # one for each of the six players the form offers


def test_a_third_player_picked_plays_and_the_form_opens_with_him_next_time(client, club):
    keep_table_link(client, club)
    link = start(
        client,
        side0_member0="Ann",
        side0_member1="Bob",
        side0_member2="Eve",
        side1_member0="Cat",
        side1_member1="Dan",
        side1_member2="Fay",
    )
    board = text(client.get(link))
    assert "Ann & Bob & Eve" in board and "Cat & Dan & Fay" in board
    html = client.get(f"/clubs/{SLUG}/games/new").get_data(as_text=True)
    assert html.count('<details class="more-seats" open') == 2
    assert pickers(html)["side0_member2"] == "Eve"


def test_the_phones_last_table_is_filled_in(client, club):
    keep_table_link(client, club)
    first = client.get(f"/clubs/{SLUG}/games/new")
    assert set(pickers(first.get_data(as_text=True)).values()) == {""}
    assert "last game" not in text(first)
    start(
        client,
        side0_member0="Ann",
        side0_member1="Bob",
        side1_member0="Cat",
        side1_players="Zed",
    )
    again = client.get(f"/clubs/{SLUG}/games/new")
    chosen = pickers(again.get_data(as_text=True))
    assert (chosen["side0_member0"], chosen["side0_member1"]) == ("Ann", "Bob")
    assert (chosen["side1_member0"], chosen["side1_member1"]) == ("Cat", "")
    assert values(again)["side1_players"] == "Zed"  # a guest, typed in again for them
    assert chosen["side2_member0"] == ""
    assert "Filled in with the players of this phone's last game" in text(again)
    # Posted as it stands, it starts the same table.
    link = start(client)
    board = text(client.get(link))
    assert "Ann & Bob" in board and "Cat & Zed" in board


def test_another_phone_starts_blank(app, client, club):
    keep_table_link(client, club)
    start(client, side0_member0="Ann", side0_member1="Bob", side1_member0="Cat")
    other = app.test_client()
    keep_table_link(other, club)
    html = other.get(f"/clubs/{SLUG}/games/new").get_data(as_text=True)
    assert set(pickers(html).values()) == {""}


def test_a_renamed_or_archived_member_is_offered_as_the_club_lists_them(app, client, club):
    keep_table_link(client, club)
    start(client, side0_member0="Ann", side0_member1="Bob", side1_member0="Cat")
    with app.app_context():
        tuesday = clubs.club_by_slug(SLUG)
        bob = next(m for m in tuesday.members if m.name == "Bob")
        cat = next(m for m in tuesday.members if m.name == "Cat")
        bob.name = "Robert"  # renamed since (as issue 28's rename does)
        clubs.set_archived(cat, True)
    again = client.get(f"/clubs/{SLUG}/games/new")
    chosen = pickers(again.get_data(as_text=True))
    assert chosen["side0_member1"] == "Robert"
    # An archived member is no longer offered in a picker: typed in as a guest instead.
    assert chosen["side1_member0"] == ""
    assert values(again)["side1_players"] == "Cat"


def test_an_individual_table_is_not_paired_into_teams(client, club):
    keep_table_link(client, club)
    data = values(client.get(f"/clubs/{SLUG}/games/new?ruleset=club"))
    data.update(side0_member0="Ann", side1_member0="Bob", side2_member0="Cat")
    assert client.post(f"/clubs/{SLUG}/games/new?ruleset=club", data=data).status_code == 302
    # The club rules again: each player a side, as they sat.
    solo = pickers(client.get(f"/clubs/{SLUG}/games/new?ruleset=club").get_data(as_text=True))
    assert [solo[f"side{i}_member0"] for i in range(4)] == ["Ann", "Bob", "Cat", ""]
    # Thursday rules (teams): nobody paired up by guesswork.
    teams = pickers(client.get(f"/clubs/{SLUG}/games/new").get_data(as_text=True))
    assert set(teams.values()) == {""}


def test_a_members_games_and_the_club_lists_name_rule_sets_as_the_club_does(app, client, club):
    from scorekeeper.plumbing.db import db
    from scorekeeper.plumbing.models import SavedRules
    from scorekeeper.rules import DealEntry
    from scorekeeper.services.games import SideSetup, record_game

    sides = [SideSetup("Ann & Bob", ["Ann", "Bob"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
    deal = [DealEntry.from_dict({"books": {"clean": 1}}), DealEntry.from_dict({})]
    with app.app_context():
        tuesday = clubs.club_by_slug(SLUG)
        thursday = db.session.get(SavedRules, club["saved"])
        record_game(
            "classic",
            sides,
            [deal] * 4,
            club=tuesday,
            saved_rules=thursday,
            house_rules={"red_three_caught": 300},
        )
        record_game("classic", sides, [deal] * 4, club=tuesday)
        ann = next(m.id for m in tuesday.members if m.name == "Ann")
    keep_table_link(client, club)
    member = text(client.get(f"/clubs/{SLUG}/members/{ann}?season=all"))
    assert "· Thursday rules" in member and "· Classic partnership" in member
    assert "· classic" not in member
    history = text(client.get(f"/clubs/{SLUG}/games?season=all"))
    assert "· Thursday rules" in history and "· Classic partnership" in history
    assert "· classic" not in history


def test_the_table_link_keeps_and_starts_in_one_tap_then_goes_straight_on(client, club):
    link = f"/clubs/{SLUG}/table/{club['code']}"
    first = client.get(link)
    assert first.status_code == 200
    assert "Keep it and start a game with Thursday rules" in text(first)
    started = client.post(link, data={"then": "start"})
    assert started.status_code == 302
    assert started.headers["Location"] == f"/clubs/{SLUG}/games/new"
    assert "New Thursday rules game" in text(client.get(started.headers["Location"]))
    # Scanned again (next week): the phone keeps it already, so the club's page, no button.
    again = client.get(link)
    assert again.status_code == 302 and again.headers["Location"] == f"/clubs/{SLUG}"
    # A link replaced since is a 404 as ever, kept or not.
    assert client.get(f"/clubs/{SLUG}/table/{'x' * 24}").status_code == 404


def test_a_club_without_a_default_offers_only_keeping_the_link(app, client, club):
    with app.app_context():
        clubs.make_default(clubs.club_by_slug(SLUG), None)
    page = text(client.get(f"/clubs/{SLUG}/table/{club['code']}"))
    assert "Keep the table link on this phone" in page
    assert "Keep it and start" not in page
