"""Who may do what with a club's saved rule sets: only its organisers change them, another
club's organiser cannot touch them, no bad input is a server error, every form needs its CSRF
token.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "Thursday rules" here: club rules with a
red three caught costing 300. A deal scores books + red threes + going out + melded - leftover.
"""

from __future__ import annotations

import re

import pytest
from saved_rules_club import SLUG, THURSDAY, save_rules, table_phone, thursday
from test_clubs import new_club, signup

from scorekeeper.services import clubs

pytestmark = pytest.mark.usefixtures("quick_hashing")


# ------------------------------------------------------------------------- who may


def test_only_organisers_change_rule_sets(app, client):
    saved_id = thursday(app, client)
    changes = [
        ("get", f"/clubs/{SLUG}/rule-sets/new", None),
        ("get", f"/clubs/{SLUG}/rule-sets/new?ruleset=club", None),
        ("post", f"/clubs/{SLUG}/rule-sets/new?ruleset=club", {"name": "Mine"}),
        ("get", f"/clubs/{SLUG}/rule-sets/{saved_id}/edit", None),
        ("post", f"/clubs/{SLUG}/rule-sets/{saved_id}/edit", {"name": "Mine"}),
        ("get", f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", None),
        ("post", f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", {}),
        ("post", f"/clubs/{SLUG}/rule-sets/default", {"saved": str(saved_id)}),
    ]
    stranger, phone = app.test_client(), table_phone(app)
    for method, url, data in changes:
        # A private club stays hidden from a stranger; the table link may play, not change.
        assert getattr(stranger, method)(url, data=data).status_code == 404, url
        assert getattr(phone, method)(url, data=data).status_code == 403, url
    # They may read what the table plays by, as far as the club lets them.
    assert stranger.get(f"/clubs/{SLUG}/rule-sets").status_code == 404
    assert stranger.get(f"/clubs/{SLUG}/rules/{saved_id}").status_code == 404
    assert phone.get(f"/clubs/{SLUG}/rule-sets").status_code == 200
    assert phone.get(f"/clubs/{SLUG}/rules/{saved_id}").status_code == 200
    listing = phone.get(f"/clubs/{SLUG}/rule-sets").text
    assert "/edit" not in listing and "/delete" not in listing and 'name="saved"' not in listing
    with app.app_context():
        (saved,) = clubs.club_by_slug(SLUG).saved_rules
        assert (saved.name, saved.house_rules, saved.is_default) == (
            "Thursday rules",
            THURSDAY,
            False,
        )


def test_another_clubs_organiser_cannot_touch_them(app, client):
    saved_id = thursday(app, client)
    intruder = app.test_client()
    signup(intruder, "ivan", "another-long-password")
    new_club(intruder, "ivans", "Ivan's club", public=True)
    # Another club's saved rule set is no rule set of this one.
    for url in (
        f"/clubs/ivans/rule-sets/{saved_id}/edit",
        f"/clubs/ivans/rules/{saved_id}",
        f"/clubs/ivans/games/new?saved={saved_id}",
    ):
        assert intruder.get(url).status_code == 404, url
    # Nor can it be Ivan's default: his list again, the same answer as for an id never saved.
    answer = intruder.post("/clubs/ivans/rule-sets/default", data={"saved": str(saved_id)})
    assert answer.status_code == 422
    assert "not one of the club&#39;s rule sets now" in answer.get_data(as_text=True)
    assert "Thursday rules" not in answer.get_data(as_text=True)


def test_no_bad_input_is_a_server_error(app, client):
    """Each bad input gets the one answer the views give it."""
    saved_id = thursday(app, client)
    # Refused names: the form again, saying why.
    for name in ["", " ", "x" * 500, "\x00", "\u202e"]:
        answer = client.post(f"/clubs/{SLUG}/rule-sets/new?ruleset=club", data={"name": name})
        assert answer.status_code == 422, repr(name)
    # Figures that are no whole number are refused; one with spaces round it is read.
    for figure, status in (
        ("-5", 422),
        ("abc", 422),
        ("9" * 40, 422),
        ("1e3", 422),
        ("３００", 422),
        (" 300 ", 302),
    ):
        answer = save_rules(client, "Weird", red_three_caught=figure)
        assert answer.status_code == status, repr(figure)
    # The default: a value no button sends (none, over 20 characters, not a number, no rule set
    # of this club's) shows the list again (422) saying the default was not changed.
    for value in ("", "9" * 40, "x", "-1", "0", "none ", str(saved_id + 7)):
        answer = client.post(f"/clubs/{SLUG}/rule-sets/default", data={"saved": value})
        assert answer.status_code == 422, repr(value)
        page = answer.get_data(as_text=True)
        assert "not one of the club&#39;s rule sets now" in page, repr(value)
        assert "Make Thursday rules the default" in page, repr(value)
    with app.app_context():
        assert not any(saved.is_default for saved in clubs.club_by_slug(SLUG).saved_rules)
    # A preset that is none: the page that lists the presets to choose from.
    for path, status in (
        ("/rule-sets/new?ruleset=%00", 200),
        ("/rule-sets/new?ruleset=" + "x" * 5000, 200),
        (f"/rule-sets/{saved_id + 7}/edit", 404),
        ("/rule-sets/99999999999999999999999/edit", 404),
        ("/rules/0", 404),
        ("/rules/99999999999999999999999", 404),
        ("/games/new?saved=abc", 404),
        ("/games/new?saved=0", 404),
    ):
        assert client.get(f"/clubs/{SLUG}{path}").status_code == status, path
    edit = client.post(
        f"/clubs/{SLUG}/rule-sets/{saved_id}/edit",
        data={"name": "Thursday rules", "rule_melded_black_threes": "sometimes"},
    )
    assert edit.status_code == 422


def test_every_rule_set_form_needs_its_csrf_token(app, client):
    saved_id = thursday(app, client)
    app.config["WTF_CSRF_ENABLED"] = True
    posts = [
        (f"/clubs/{SLUG}/rule-sets/new?ruleset=club", {"name": "Forged"}),
        (f"/clubs/{SLUG}/rule-sets/{saved_id}/edit", {"name": "Forged"}),
        (f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", {}),
        (f"/clubs/{SLUG}/rule-sets/default", {"saved": str(saved_id)}),
    ]
    # Every one is marked refilled_when_expired: its page comes back with a fresh token and
    # says the form had expired (422); nothing is done.
    expired = (
        "This form had expired",
        "This form had expired",
        "This form had expired",
        "the page had expired",
    )
    for (url, data), words in zip(posts, expired, strict=True):
        answer = client.post(url, data=data)
        assert answer.status_code == 422, url
        assert words in answer.get_data(as_text=True), url
    with app.app_context():
        (saved,) = clubs.club_by_slug(SLUG).saved_rules
        assert (saved.name, saved.is_default) == ("Thursday rules", False)
    # With the page's token, the same post goes through.
    page = client.get(f"/clubs/{SLUG}/rule-sets/{saved_id}/delete").text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    token = token or re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    deleted = client.post(
        f"/clubs/{SLUG}/rule-sets/{saved_id}/delete", data={"csrf_token": token.group(1)}
    )
    assert deleted.status_code == 302
    with app.app_context():
        assert clubs.club_by_slug(SLUG).saved_rules == []
