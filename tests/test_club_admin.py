"""Running a club through its pages: members (form, archive, merge, delete), organisers."""

from __future__ import annotations

import re

import pytest
from _club_support import (
    SLUG,
    E,
    add_members,
    figures,
    game_links,
    html,
    member_ids,
    new_club,
    record,
    signup,
    solo,
    standings_rows,
    table,
    text,
    tuesday,
)

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Player

pytestmark = pytest.mark.usefixtures("quick_hashing")


# ------------------------------------------------------------------------- member page


def test_member_form_shows_the_last_five_results(app, client):
    signup(client)
    new_club(client)
    add_members(client, SLUG, "Ann", "Bob")
    # Ann's six games, oldest first: W L W W L L. One clean book (500) beats nothing.
    for day, ann_wins in enumerate((True, False, True, True, False, False), start=1):
        win, loss = E(clean=1), E()
        record(
            app, f"2024-02-{day:02d}", solo("Ann", "Bob"), [win, loss] if ann_wins else [loss, win]
        )
    ann = member_ids(app)["Ann"]
    response = client.get(f"/clubs/{SLUG}/members/{ann}?season=all")
    assert re.findall(r'class="form-([wl])"', response.text) == ["l", "w", "w", "l", "l"]
    assert [row[1] for row in table(response, "chart-table")] == [
        "500",
        "0",
        "500",
        "500",
        "0",
        "0",
    ]


# ------------------------------------------------------------------------- members


def test_archive_and_restore(app, client):
    made = tuesday(app, client)
    eve = made.members["Eve"]
    client.post(f"/clubs/{SLUG}/members/{eve}/archive")
    listing = client.get(f"/clubs/{SLUG}/members").text
    assert listing.index("Archived") < listing.index(">Eve<")
    assert "(archived)" in text(client.get(f"/clubs/{SLUG}/members/{eve}"))
    client.post(f"/clubs/{SLUG}/members/{eve}/restore")
    assert "Archived" not in client.get(f"/clubs/{SLUG}/members").text
    assert (
        "Eve" in html(client.get(f"/clubs/{SLUG}/games/new?ruleset=club")).options["side0_member0"]
    )


def test_merge_moves_games_and_combines_standings(app, client):
    made = tuesday(app, client)
    add_members(client, SLUG, "Robert")
    robert = member_ids(app)["Robert"]
    # Robert (Bob under another name) wins one: 2 clean + 2 dirty, out, 100 = 1,800 v Eve 0.
    extra = record(
        app, "2024-03-20", solo("Robert", "Eve"), [E(clean=2, dirty=2, out=True, melded=100), E()]
    )
    response = client.post(
        f"/clubs/{SLUG}/members/{robert}/merge", data={"into": made.members["Bob"]}
    )
    assert response.status_code == 302
    assert response.location.endswith(f"/members/{made.members['Bob']}")
    assert "Robert" not in member_ids(app)
    assert client.get(f"/clubs/{SLUG}/members/{robert}").status_code == 404
    # Bob: 3 games, 1 win, 4,600 + Robert's 1 game, 1 win, 1,800 = 4 games, 2 wins, 6,400.
    shown = figures(client, season="all")
    assert shown["Bob"] == ("4", "2", "6,400")
    assert "Robert" not in shown
    bob = client.get(f"/clubs/{SLUG}/members/{made.members['Bob']}?season=all")
    assert extra in game_links(app, bob)


def test_delete_unused_member_and_refuse_one_with_games(app, client):
    made = tuesday(app, client)
    add_members(client, SLUG, "Zed")
    zed = member_ids(app)["Zed"]
    done = client.post(f"/clubs/{SLUG}/members/{zed}/delete", follow_redirects=True)
    assert "Zed removed" in text(done)
    assert "Zed" not in member_ids(app)

    before = standings_rows(client, season="all")
    refused = client.post(
        f"/clubs/{SLUG}/members/{made.members['Dan']}/delete", follow_redirects=True
    )
    # Dan played g3, g4, g5 (and nothing else).
    assert "Dan played 3 games: archive them, or merge them" in text(refused)
    assert member_ids(app)["Dan"] == made.members["Dan"]
    assert standings_rows(client, season="all") == before
    with app.app_context():
        assert db.session.query(Player).filter_by(member_id=made.members["Dan"]).count() == 3


def test_merging_two_members_of_the_same_game_is_refused(app, client):
    made = tuesday(app, client)
    before = standings_rows(client, season="all")
    # Bob and Cat played each other in g3: they cannot be one person.
    client.post(
        f"/clubs/{SLUG}/members/{made.members['Cat']}/merge", data={"into": made.members["Bob"]}
    )
    assert member_ids(app)["Cat"] == made.members["Cat"]
    assert standings_rows(client, season="all") == before


# ------------------------------------------------------------------------- organisers


def test_creator_is_an_organiser_and_can_add_another(app, client):
    tuesday(app, client)
    settings = client.get(f"/clubs/{SLUG}/settings")
    assert settings.status_code == 200
    assert "olga" in text(settings)
    vera = app.test_client()
    signup(vera, "vera")
    assert vera.get(f"/clubs/{SLUG}/settings").status_code == 404
    missing = client.post(
        f"/clubs/{SLUG}/settings/organisers",
        data={"organiser-name": "nobody"},
        follow_redirects=True,
    )
    assert "No account is called nobody" in text(missing)
    added = client.post(
        f"/clubs/{SLUG}/settings/organisers", data={"organiser-name": "Vera"}, follow_redirects=True
    )
    assert "vera can now run Tuesday Club" in text(added)
    assert vera.get(f"/clubs/{SLUG}/settings").status_code == 200
    add_members(vera, SLUG, "Fay")
    assert "Fay" in member_ids(app)


def test_replacing_the_table_link(app, client):
    tuesday(app, client)
    old = re.search(
        r'value="http://localhost(/clubs/tuesday/table/[^"]+)"',
        client.get(f"/clubs/{SLUG}/settings").text,
    ).group(1)
    phone = app.test_client()
    assert phone.post(old).status_code == 302
    assert phone.get(f"/clubs/{SLUG}/games/new?ruleset=club").status_code == 200
    assert client.post(f"/clubs/{SLUG}/settings/table-link").status_code == 302
    new = re.search(
        r'value="http://localhost(/clubs/tuesday/table/[^"]+)"',
        client.get(f"/clubs/{SLUG}/settings").text,
    ).group(1)
    assert new != old
    assert app.test_client().get(old).status_code == 404
    # The phone's session still holds the old code: it no longer opens anything.
    assert phone.get(f"/clubs/{SLUG}/games/new?ruleset=club").status_code == 404
    assert phone.get(f"/clubs/{SLUG}/standings").status_code == 404
    assert phone.post(new).status_code == 302
    assert phone.get(f"/clubs/{SLUG}/games/new?ruleset=club").status_code == 200
