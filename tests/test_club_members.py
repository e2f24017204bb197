"""The organiser's phone (issue 28, part A) through the pages: members added as a list, names
alike asked about, a member renamed everywhere the records show them, and a club's web address
made from its name.

"club" rules (individuals): clean book 500, dirty 300, going out +100 (needs 2 clean + 2 dirty),
four deals; "classic" (partnerships) as test_clubs.py says.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from test_clubs import (
    SLUG,
    E,
    classic_partnership,
    figures,
    member_ids,
    new_club,
    record,
    signup,
    solo,
    text,
)

pytestmark = pytest.mark.usefixtures("quick_hashing")

MEMBERS = f"/clubs/{SLUG}/members"


@pytest.fixture
def olga(app, client):
    """Olga signed in, running the Tuesday Club with Ann, Bob and Cat."""
    signup(client)
    new_club(client)
    added = client.post(MEMBERS, data={"names": "Ann, Bob, Cat"})
    assert added.status_code == 302, text(added)
    return client


def field_value(response, name: str) -> str | None:
    """The value an input or textarea of that name holds on the page, unescaped."""
    page = response.get_data(as_text=True)
    found = re.search(rf'<textarea[^>]*name="{name}"[^>]*>\r?\n?(.*?)</textarea>', page, re.S)
    found = found or re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    if found is None:
        return None
    return found.group(1).replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&")


# --- a list of members --------------------------------------------------------------------------


def test_eight_members_in_one_submission(app, client, olga):
    typed = "Dan, Eve\r\nFay\r\n Gus ,Hal\r\nIvy\r\nJay\r\nKim"
    added = client.post(MEMBERS, data={"names": typed})
    assert added.status_code == 302
    assert added.location.endswith(f"{MEMBERS}#member-list")
    shown = text(client.get(added.location))
    assert "8 members added: Dan, Eve, Fay, Gus, Hal, Ivy, Jay, Kim." in shown
    assert "11 members" in shown
    assert sorted(member_ids(app)) == sorted("Ann Bob Cat Dan Eve Fay Gus Hal Ivy Jay Kim".split())


def test_members_already_and_repeats_are_left_out_and_said(app, client, olga):
    added = client.post(MEMBERS, data={"names": "bob\nDan\nDan"}, follow_redirects=True)
    assert (
        "1 member added: Dan. Not added again: bob is already a member, as Bob; "
        "Dan is in the list twice." in text(added)
    )
    assert sorted(member_ids(app)) == ["Ann", "Bob", "Cat", "Dan"]


def test_a_name_alike_is_asked_about_then_added_when_confirmed(app, client, olga):
    typed = "Anne\r\nDan"
    asked = client.post(MEMBERS, data={"names": typed})
    assert asked.status_code == 200
    shown = text(asked)
    assert "Add 2 anyway?" in shown
    assert "Anne looks like Ann, already a member." in shown
    assert "To be added: Anne, Dan." in shown
    assert "Names that look alike are asked about before they are added" in shown
    # Nothing saved yet; the list is kept, both in the form below and in the confirmation.
    assert sorted(member_ids(app)) == ["Ann", "Bob", "Cat"]
    assert field_value(asked, "names") == typed
    assert 'name="confirm" value="yes"' in asked.get_data(as_text=True)

    added = client.post(MEMBERS, data={"names": typed, "confirm": "yes"})
    assert added.status_code == 302
    assert "2 members added: Anne, Dan." in text(client.get(added.location))
    assert sorted(member_ids(app)) == ["Ann", "Anne", "Bob", "Cat", "Dan"]


def test_a_refused_list_names_each_name_and_saves_nobody(app, client, olga):
    typed = "Dan\nE\u200bve\n" + "x" * 61
    refused = client.post(MEMBERS, data={"names": typed, "confirm": "yes"})
    assert refused.status_code == 422
    shown = text(refused)
    assert "Nothing was saved" in shown
    assert "Name 2 (Eve) cannot hold invisible or text-direction characters" in shown
    assert "Name 3 (xxxxxxxxxxxxxxxxxxxxxxxx…) is 61 characters long" in shown
    page = refused.get_data(as_text=True)
    assert re.search(r'<textarea[^>]*aria-describedby="[^"]*names-error', page)
    assert 'id="names-error"' in page
    assert field_value(refused, "names") == typed
    assert sorted(member_ids(app)) == ["Ann", "Bob", "Cat"]


def test_one_name_alone_is_still_added(app, client, olga):
    assert client.post(MEMBERS, data={"name": "Dan"}).status_code == 302
    refused = client.post(MEMBERS, data={"name": "bob"})
    assert refused.status_code == 422
    assert "bob is already a member." in text(refused)
    assert field_value(refused, "names") == "bob"
    assert sorted(member_ids(app)) == ["Ann", "Bob", "Cat", "Dan"]


def test_only_organisers_add_members(app, client, olga):
    stranger = app.test_client()
    answer = stranger.post(MEMBERS, data={"names": "Mallory, Trent", "confirm": "yes"})
    assert answer.status_code == 404  # a private club
    assert "Mallory" not in member_ids(app)
    assert "New members" not in text(stranger.get(f"/clubs/{SLUG}"))


# --- renaming --------------------------------------------------------------------------------


def everything_shown(client) -> dict[str, str]:
    """The standings, the history and every CSV, as their text."""
    pages = {
        "standings": text(client.get(f"/clubs/{SLUG}/standings?season=all")),
        "history": text(client.get(f"/clubs/{SLUG}/games?season=all")),
    }
    for kind in ("games", "deals", "standings"):
        answer = client.get(f"/clubs/{SLUG}/export/{kind}.csv?season=all")
        assert answer.status_code == 200
        pages[f"{kind}.csv"] = answer.get_data(as_text=True)
    return pages


def test_a_renamed_member_is_called_so_in_every_page_and_export(app, client, olga):
    # Ann 2 clean + 2 dirty, out, 400 melded = 2,100 beats Bob 1 clean = 500.
    record(
        app,
        "2024-03-05",
        solo("Ann", "Bob"),
        [E(clean=2, dirty=2, out=True, melded=400), E(clean=1)],
    )
    classic_partnership(app)  # "Ann & Cat" beat "Bob & Gus" (Gus a guest)
    ann = member_ids(app)["Ann"]
    before = everything_shown(client)
    assert all(re.search(r"\bAnn\b", shown) for shown in before.values())

    renamed = client.post(f"{MEMBERS}/{ann}/rename", data={"new_name": " Anne  Marie "})
    assert renamed.status_code == 302
    assert renamed.location.endswith(f"{MEMBERS}/{ann}")
    page = client.get(f"{MEMBERS}/{ann}?season=all")
    assert "Ann is now called Anne Marie, in every game they played." in text(page)
    assert "<h1>Anne Marie" in page.get_data(as_text=True)
    assert member_ids(app)["Anne Marie"] == ann

    after = everything_shown(client)
    for where, shown in after.items():
        assert not re.search(r"\bAnn\b", shown), where
        assert "Anne Marie" in shown, where
    # Each side named after its players takes the new name; the figures stay.
    assert figures(client, season="all")["Anne Marie"] == ("2", "2", "5,800")
    games = list(csv.DictReader(io.StringIO(after["games.csv"])))
    assert [(g["side_1"], g["side_1_players"], g["winners"]) for g in games] == [
        ("Anne Marie", "Anne Marie", "Anne Marie"),
        ("Anne Marie & Cat", "Anne Marie; Cat", "Anne Marie & Cat"),
    ]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("cat", "Cat is already a member: choose another name, or merge Ann into Cat"),
        ("Ann\u202e", "The new name cannot hold invisible or text-direction characters"),
        ("", "A member needs a name of up to 60 characters."),
    ],
    ids=["another member's", "invisible", "blank"],
)
def test_a_refused_rename_is_said_beside_the_field(app, client, olga, name, said):
    ann = member_ids(app)["Ann"]
    refused = client.post(f"{MEMBERS}/{ann}/rename", data={"new_name": name})
    assert refused.status_code == 422
    assert said in text(refused)
    page = refused.get_data(as_text=True)
    assert 'id="new_name-error"' in page and 'aria-invalid="true"' in page
    assert field_value(refused, "new_name") == name
    assert sorted(member_ids(app)) == ["Ann", "Bob", "Cat"]


def test_only_organisers_rename_and_only_with_the_forms_token(app, client, olga):
    ann = member_ids(app)["Ann"]
    assert (
        app.test_client().post(f"{MEMBERS}/{ann}/rename", data={"new_name": "X"}).status_code == 404
    )
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        expired = client.post(f"{MEMBERS}/{ann}/rename", data={"new_name": "Anne"})
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    # Sent without its token (or with one expired), it comes back filled in, saving nothing.
    assert expired.status_code == 422
    assert "This form had expired" in text(expired)
    assert field_value(expired, "new_name") == "Anne"
    assert sorted(member_ids(app)) == ["Ann", "Bob", "Cat"]
    assert client.post(f"{MEMBERS}/999999/rename", data={"new_name": "X"}).status_code == 404


# --- the club's address from its name -----------------------------------------------------------


def test_a_club_made_from_its_name_alone_and_the_next_free_address(app, client):
    signup(client)
    made = client.post("/clubs/new", data={"name": "Tuesday Club", "slug": ""})
    assert made.status_code == 302
    assert made.location.endswith("/clubs/tuesday-club/members")
    again = client.post("/clubs/new", data={"name": "Tuesday Club!", "slug": ""})
    assert again.location.endswith("/clubs/tuesday-club-2/members")

    taken = client.post("/clubs/new", data={"name": "Tuesday Club", "slug": "tuesday-club"})
    assert taken.status_code == 422
    assert "The web address tuesday-club is taken: tuesday-club-3 is free." in text(taken)
    # The free one is filled in: one tap on Create takes it.
    assert field_value(taken, "slug") == "tuesday-club-3"
    page = taken.get_data(as_text=True)
    assert 'data-slug-from="name"' in page and "/static/slug.js?v=" in page
