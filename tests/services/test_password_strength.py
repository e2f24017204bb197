"""services/passwords.py (issue 39): the passwords the third attack signed up with are refused,
each saying what is wrong with it in plain words, and strong ones are still accepted."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from scorekeeper.plumbing.models import Organiser
from scorekeeper.services import accounts, passwords

from ._support import kept

pytestmark = pytest.mark.usefixtures("quick_hashing")

GUESSED = "That password would be guessed quickly: it is "
ADVICE = (
    ". A guesser's first tries join such pieces: make it longer, with words of your own that "
    "nobody would put together."
)


@pytest.mark.parametrize(
    ("username", "password", "why"),
    [
        ("olga", "passwordpassword1", "a common password typed twice and a digit"),
        ("olga", "monkeymonkey1", "a common password typed twice and a digit"),
        ("olga", "hunter2hunter", "two common passwords"),
        ("olga", "abcd1234abcd", "a common password and letters or digits in order"),
        (
            "olga",
            "alice2alice2x",
            "one piece typed twice (a common name and a digit) and one other character",
        ),
        ("olga", "correcthorse", "a common word and a common password"),
        ("olga", "butterflies", "a common word"),
        (
            "olga",
            "drowssapdrowssap9",
            "a common password written backwards typed twice and a digit",
        ),
    ],
)
def test_the_attacks_passwords_and_their_kind_are_refused_saying_why(username, password, why):
    assert accounts.password_problem(username, password) == GUESSED + why + ADVICE
    with pytest.raises(accounts.AccountRefused) as refused:
        accounts.register(username, password)
    assert refused.value.field == "password"
    assert kept(select(func.count()).select_from(Organiser))[0][0] == 0


def test_the_username_inside_it_is_refused_as_the_username():
    assert accounts.password_problem("alice", "alice2alice2x") == (
        "That password is built on the username: it needs 10 characters besides the username."
    )
    # A username zxcvbn is told of: the rest is long, but a guesser starts with the name.
    assert accounts.password_problem("maximiliano", "maximilianomaximiliano7") is not None


@pytest.mark.parametrize(
    "password",
    [
        "tK4p9wQz2mRx",  # random-looking
        "Vq7#LmZ2pR8w",
        "quixotic marmalade zeppelin",  # a long passphrase of uncommon words
        "glacier-tuba-sapphire-orchid",
        "xylophone ember quokka",
        "7vR!e2Qx9LmB",
    ],
)
def test_strong_passwords_are_accepted(password):
    assert accounts.password_problem("olga", password) is None
    assert accounts.register("olga", password).username == "olga"


def test_the_refusal_is_shown_beside_the_password_field(app):
    answer = app.test_client().post(
        "/signup", data={"username": "olga", "password": "monkeymonkey1"}
    )
    assert answer.status_code == 422
    assert "a common password typed twice and a digit" in answer.text
    assert "monkeymonkey1" not in answer.text  # the password is never shown back


def test_many_stand_ins_are_left_to_the_other_rules_unjudged(monkeypatch):
    """zxcvbn tries every reading of 4, @, 1, |, 7...: past a few kinds it is not asked."""
    import zxcvbn

    def too_dear(*_args, **_kwargs):
        raise AssertionError("zxcvbn asked")

    monkeypatch.setattr(zxcvbn, "zxcvbn", too_dear)
    assert passwords.guessed_problem("olga", "4@8({[<3691!|7+05$2%" * 3) is None
    with pytest.raises(AssertionError, match="zxcvbn asked"):
        passwords.guessed_problem("olga", "p@ssw0rd-dragon")


def test_only_the_first_characters_are_judged():
    strong = "quixotic marmalade zeppelin orchids"
    assert len(strong) <= passwords.JUDGED
    assert passwords.guessed_problem("olga", strong + " password" * 10) is None
