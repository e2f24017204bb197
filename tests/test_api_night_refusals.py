"""A club night through the JSON API (issue 29): the setups and bodies it refuses.

Every refusal is a 4xx naming its figure (a JSON pointer into the body), and a refused night
is not kept. The rest of the night API is in test_api_nights.py.
"""

from __future__ import annotations

import pytest
from _api_nights_support import NIGHTS, error, pointers, start, started
from night_club import TWELVE

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night

pytestmark = pytest.mark.usefixtures("quick_hashing")

# ------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("change", "pointer", "words"),
    [
        ({"members": ["Ann"]}, "/members", "members is a list of member ids"),
        ({"members": [1.5]}, "/members", "members is a list of member ids"),
        ({"members": "1,2"}, "/members", "members is a list of member ids"),
        ({"members": [987654]}, "/members", "Member 987654 is not one of Tuesday Club's"),
        ({"members": [10**30]}, "/members", f"Member {10**30} is not one of"),
        ({"members": list(range(41))}, "/members", "At most 40 players a night; members lists 41"),
        ({"rounds": 99}, "/rounds", "1 to 12: not 99"),
        ({"rounds": 10**30}, "/rounds", "not 1000000000000000000000000000000"),
        ({"rounds": 0}, "/rounds", "rounds is how many rounds"),
        ({"rounds": "2"}, "/rounds", "not '2'"),
        ({"rounds": None}, "/rounds", "not None"),
        ({"ruleset": "poker"}, "/ruleset", "'poker' is none of them"),
        ({"ruleset": None}, "/ruleset", "Name the night's rules"),
        ({"saved_rules": 5}, "/ruleset", "not both"),
        ({"ruleset": None, "saved_rules": 987654}, "/saved_rules", "no saved rule set 987654"),
        ({"ruleset": None, "saved_rules": "x"}, "/saved_rules", "saved_rules is the id"),
        ({"partners": "random"}, "/partners", "'random' is none of these"),
        ({"partners": 3}, "/partners", "partners is one of"),
        ({"sit_out": "half"}, "/sit_out", "not 'half'"),
        ({"shape": "eights"}, "/shape", "'eights' is none of the choices"),
        ({"shape": "singles"}, "/shape", "seat partnerships"),
        ({"guests": "Sue, Tom"}, "/guests", "guests is a list of names"),
        ({"guests": ["Sue", 7]}, "/guests", "guests is a list of names"),
        ({"guests": ["Sue", "Tom, Uma"]}, "/guests/1", "Guest 2's name holds a comma"),
        ({"guests": ["Ann"]}, "/guests", "Ann is a member"),
        ({"guests": ["x"] * 21}, "/guests", "At most 20 guests a night; guests lists 21"),
    ],
)
def test_a_night_refused_names_the_figure(app, olga, change, pointer, words):
    answer = start(app, olga, **change)
    assert answer.status_code == 422, answer.get_json()
    found = answer.get_json()["errors"]
    assert any(words in e["message"] for e in found), found
    assert pointer in pointers(answer)
    with app.app_context():
        assert db.session.execute(db.select(Night)).first() is None


def test_too_few_players_for_a_table_is_refused_in_words(app, olga):
    answer = start(app, olga, names=TWELVE[:3])
    refused = error(answer, 422)
    assert "A partnership table needs 4 players; 3 are present." in refused["message"]
    assert pointers(answer) == ["/members"]


def test_bodies_that_are_no_night_are_4xx(app, olga):
    assert olga.post(NIGHTS, data="members", content_type="text/plain").status_code == 415
    assert olga.post(NIGHTS, data="{", content_type="application/json").status_code == 400
    assert olga.post(NIGHTS, json=[1, 2]).status_code == 400
    deep = "[" * 40 + "]" * 40
    assert olga.post(NIGHTS, data=deep, content_type="application/json").status_code == 400
    night = started(app, olga)
    rounds = f"{night['url']}/rounds"
    assert olga.post(rounds, data="1", content_type="text/plain").status_code == 415
    assert olga.post(rounds, json="1").status_code == 400
