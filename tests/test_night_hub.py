"""The organiser's phone (issue 37) over HTTP: one Nights hub (the night in progress first, a
way to open one, the past), the club's navigation, a new night's form that leads to a night in
progress, check-in, rounds left blank as the schedule needs, and an ended night showing its
results alone."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from night_club import TWELVE
from test_clubs import SLUG, add_members
from test_night_pages import NEW, finish_round, holder, ids, open_night

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.rules.whist import whist_rounds
from scorekeeper.services import clubs
from scorekeeper.services.nights.planning import DEFAULT_ROUNDS

pytestmark = pytest.mark.usefixtures("quick_hashing")

HUB = f"/clubs/{SLUG}/nights"
PLAN = f"/clubs/{SLUG}/nights/plan"
THIRTEENTH = "Max"


def night_of(app, url: str) -> Night:
    with app.app_context():
        return db.session.get(Night, int(url.rsplit("/", 1)[1]))


def players_of(app, url: str) -> dict[str, Player]:
    """The night's players by name, as plain values."""
    with app.app_context():
        night = db.session.get(Night, int(url.rsplit("/", 1)[1]))
        return {
            p.name: Player(p.id, p.member_id, p.by_self, p.from_round, p.left_after)
            for p in night.players
        }


@dataclass
class Player:
    id: int
    member_id: int | None
    by_self: bool
    from_round: int
    left_after: int | None


def nav_of(page: str) -> str:
    return re.search(r'<nav class="subnav".*?</nav>', page, re.S).group(0)


def allow_self_check_in(app, on: bool = True) -> None:
    with app.app_context():
        clubs.club_by_slug(SLUG).self_check_in = on
        db.session.commit()


# ------------------------------------------------------------------- the hub and the nav


def test_the_nav_has_one_entry_for_nights_and_no_plan_or_new_night(app, olga):
    nav = nav_of(olga.get(f"/clubs/{SLUG}/members").text)
    assert f'href="{HUB}"' in nav and ">Nights<" in nav
    assert f'href="{NEW}"' not in nav and f'href="{PLAN}"' not in nav
    assert "Tonight's tables" not in nav and "Club night" not in nav
    # Two lines: the night's reach, then the club's lists and setup (Settings the organisers').
    lines = nav.split("<i></i>")
    assert len(lines) == 2
    assert re.findall(r">([^<]+)</a>", lines[0]) == ["Club", "Nights", "Standings", "Games"]
    assert re.findall(r">([^<]+)</a>", lines[1]) == ["Members", "Seasons", "Rule sets", "Settings"]
    # The page the visitor is on is marked.
    assert 'href="/clubs/tuesday/members" aria-current="page"' in nav


def test_a_table_link_phone_sees_nights_but_no_settings_nor_a_way_to_open_one(app, olga):
    phone = holder(app)
    nav = nav_of(phone.get(f"/clubs/{SLUG}").text)
    assert f'href="{HUB}"' in nav and "Settings" not in nav
    hub = phone.get(HUB)
    assert hub.status_code == 200 and hub.headers["Cache-Control"].startswith("no-store")
    assert f'href="{NEW}"' not in hub.text and "Open a night" not in hub.text
    # Where the club lets the table link run nights, it may open one from the hub.
    with app.app_context():
        clubs.club_by_slug(SLUG).tables_run_nights = True
        db.session.commit()
    assert f'href="{NEW}"' in phone.get(HUB).text
    # A stranger finds no hub in a private club.
    assert app.test_client().get(HUB).status_code == 404


def test_the_hub_puts_the_night_in_progress_first_then_opening_then_the_past(app, olga):
    empty = olga.get(HUB).text
    assert "No night in progress." in empty and f'href="{NEW}"' in empty
    assert f'href="{PLAN}"' in empty  # the plan is reached from here, not a tab
    first = open_night(app, olga, rounds="1")
    assert olga.post(f"{first}/seat", data={"round": "1"}).status_code == 302
    finish_round(app, first, 1)
    assert olga.post(f"{first}/finish").status_code == 302
    assert night_of(app, first).finished_at is not None
    second = open_night(app, olga)
    olga.post(f"{second}/seat", data={"round": "1"})
    page = olga.get(HUB).text
    going = page.index(f'href="{second}"')
    assert ">Tonight · Round 1 of 2</a>" in page
    assert going < page.index("Open another night") < page.index(f'href="{first}"')
    assert page.count(f'href="{first}"') == 1 and page.count(f'href="{second}"') == 1


def test_a_new_night_form_leads_to_the_night_in_progress(app, olga):
    assert 'id="in-progress"' not in olga.get(NEW).text
    url = open_night(app, olga)
    form = olga.get(NEW).text
    notice = re.search(r'<div class="card notice" id="in-progress">.*?</div>', form, re.S).group(0)
    assert f'href="{url}"' in notice and "Tonight · Round 1 of 2 to seat" in notice
    # A second night stays possible, on purpose: behind its own summary.
    assert "<summary>Open a second night as well</summary>" in form
    second = open_night(app, olga)
    assert second != url


# ------------------------------------------------------------------------------ check-in


def test_the_check_in_form_has_everyone_nobody_and_a_count_in_the_page_s_words(app, olga):
    form = olga.get(NEW).text
    assert 'data-tick="all" hidden>Everyone on the list</button>' in form
    assert 'data-tick="none" hidden>Nobody</button>' in form
    assert 'data-count="{n} here" data-count-none="Nobody ticked yet">Nobody ticked yet<' in form
    assert "/static/checkin.js?v=" in form
    # Each member's whole row is the label that ticks them.
    rows = re.findall(r'<label class="check tick" for="member-\d+"><input type="checkbox"', form)
    assert len(rows) == len(TWELVE)
    # Sent back with problems, the count is the server's.
    sent = olga.post(NEW, data={"members": [ids(app)[n] for n in TWELVE[:5]], "rules": "x"})
    assert sent.status_code == 422 and 'data-count-none="Nobody ticked yet">5 here<' in sent.text


def test_self_check_in_only_where_the_club_allows_it(app, olga):
    url = open_night(app, olga, names=TWELVE[:8])
    phone = holder(app)
    max_id = ids(app)["Ivy"]
    assert "I'm here" not in phone.get(url).text
    assert phone.post(f"{url}/here", data={"member": max_id}).status_code == 403
    allow_self_check_in(app)
    page = phone.get(url).text
    assert "I&#39;m here</button>" in page or "I'm here</button>" in page
    answer = phone.post(f"{url}/here", data={"member": max_id})
    assert answer.status_code == 302
    ivy = players_of(app, url)["Ivy"]
    assert ivy.by_self and ivy.from_round == 1
    # Twice is refused in words; an organiser's page lists them with an Undo.
    again = phone.post(f"{url}/here", data={"member": max_id})
    assert again.status_code == 422 and "Ivy is already at tonight" in again.text
    organiser = olga.get(url).text
    assert "Checked in from their phone" in organiser and "Ivy · from round 1" in organiser
    # A stranger cannot check in at all.
    assert app.test_client().post(f"{url}/here", data={"member": max_id}).status_code == 404
    # The setting lives on the settings page, in its words.
    settings = olga.get(f"/clubs/{SLUG}/settings").text
    assert "Players may check themselves in from their own phone through the table link" in settings


def test_undo_removes_a_player_not_yet_seated_and_marks_a_seated_one_gone(app, olga):
    allow_self_check_in(app)
    url = open_night(app, olga, names=TWELVE[:8])
    phone = holder(app)
    for name in ("Ivy", "Jon", "Kit", "Lou"):
        assert phone.post(f"{url}/here", data={"member": ids(app)[name]}).status_code == 302
    players = {name: p.id for name, p in players_of(app, url).items()}
    # Not seated yet: taken off.
    assert olga.post(f"{url}/here/undo", data={"player": players["Ivy"]}).status_code == 302
    assert "Ivy" not in players_of(app, url)
    # Seated in round 1, then undone: gone from round 2, round 1 kept.
    assert olga.post(f"{url}/seat", data={"round": "1"}).status_code == 302
    assert olga.post(f"{url}/here/undo", data={"player": players["Jon"]}).status_code == 302
    jon = players_of(app, url)["Jon"]
    assert jon.left_after == 1 and not jon.by_self
    # Only a check-in from a phone is undone, and only by those who run the night.
    assert olga.post(f"{url}/here/undo", data={"player": players["Ann"]}).status_code == 422
    assert phone.post(f"{url}/here/undo", data={"player": players["Kit"]}).status_code == 403


def test_check_in_and_undo_need_their_csrf_token(app, olga):
    allow_self_check_in(app)
    url = open_night(app, olga, names=TWELVE[:8])
    phone = holder(app)
    app.config["WTF_CSRF_ENABLED"] = True
    answer = phone.post(f"{url}/here", data={"member": ids(app)["Ivy"]})
    assert answer.status_code == 400
    assert "Ivy" not in players_of(app, url)
    page = phone.get(url).text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    sent = {"member": ids(app)["Ivy"], "csrf_token": token}
    assert phone.post(f"{url}/here", data=sent).status_code == 302
    ivy = players_of(app, url)["Ivy"]
    assert olga.post(f"{url}/here/undo", data={"player": ivy.id}).status_code == 400
    assert players_of(app, url)["Ivy"].by_self


# -------------------------------------------------------------------- rounds as needed


def test_rounds_left_blank_are_what_the_schedule_needs(app, olga):
    add_members(olga, SLUG, THIRTEENTH)
    thirteen = [*TWELVE, THIRTEENTH]
    whist = open_night(app, olga, names=thirteen, rounds="")
    assert night_of(app, whist).rounds_planned == min(len(whist_rounds(13)), MOST_ROUNDS)
    eight = open_night(app, olga, names=TWELVE[:8], rounds="")
    assert night_of(app, eight).rounds_planned == len(whist_rounds(8))
    # Fixed pairs: 10 players are 5 pairs, each resting once in a round robin of 5 rounds.
    pairs = open_night(app, olga, names=TWELVE[:10], rounds="", partners="fixed")
    assert night_of(app, pairs).rounds_planned == 5
    # No schedule for 10 rotating: the usual default; a number typed is kept.
    ten = open_night(app, olga, names=TWELVE[:10], rounds="")
    assert night_of(app, ten).rounds_planned == DEFAULT_ROUNDS
    assert night_of(app, open_night(app, olga, rounds="2")).rounds_planned == 2
    # The page says what blank means, and a number out of range is refused in words.
    assert "Left blank, as the schedule needs" in olga.get(NEW).text
    data = {"members": [ids(app)[n] for n in TWELVE], "rules": "classic", "rounds": "0"}
    refused = olga.post(NEW, data={**data, "partners": "rotating", "sit_out": "no game"})
    assert refused.status_code == 422 and f"A night has 1 to {MOST_ROUNDS} rounds" in refused.text


# ------------------------------------------------------------------------- an ended night


def test_an_ended_night_shows_its_results_only(app, olga):
    allow_self_check_in(app)
    url = open_night(app, olga, rounds="2")
    assert olga.post(f"{url}/seat", data={"round": "1"}).status_code == 302
    playing = olga.get(url).text
    assert 'class="night-qr"' in playing and 'id="players"' in playing
    assert "Draw round 1 again" in playing
    finish_round(app, url, 1)
    assert olga.post(f"{url}/finish").status_code == 302
    for page in (olga.get(url).text, holder(app).get(url).text):
        assert 'id="results"' in page and "Final standings" in page
        assert 'class="night-qr"' not in page and "scan to score" not in page
        assert "/invite.svg" not in page
        for control in ("/seat", "/draw", "/players", "/here", "/finish", "Draw again"):
            assert control not in page, control
        assert 'id="players"' not in page and "I&#39;m here" not in page
