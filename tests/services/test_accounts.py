"""services/accounts.py: sign up, sign in (slowed for whoever guesses), sign out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from werkzeug.security import check_password_hash

from scorekeeper.plumbing.models import LoginAttempt, Organiser
from scorekeeper.services import accounts
from scorekeeper.services.accounts import (
    AccountRefused,
    MustWait,
    SignedIn,
    WrongPassword,
)

from ._support import how_many, kept, kept_one

pytestmark = pytest.mark.usefixtures("quick_hashing")

PASSWORD = "violet-harbour-lantern"
HOME = "203.0.113.5"
NOON = datetime(2025, 3, 4, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    """The throttle's time, held still at NOON until a test moves it (clock[0] = ...)."""
    now = [NOON]
    monkeypatch.setattr(accounts, "_now", lambda: now[0])
    return now


def attempts_kept() -> list[tuple[str, str]]:
    """Every failed sign-in the database holds: (what it is filed under, address)."""
    return [tuple(row) for row in kept(select(LoginAttempt.username, LoginAttempt.address))]


# --- signing up -----------------------------------------------------------------------------


def test_register_keeps_the_account_with_its_password_hashed():
    made = accounts.register("  olga.k_1 ", PASSWORD)
    row = kept_one(select(Organiser.id, Organiser.username, Organiser.password_hash))
    assert (row.id, row.username) == (made.id, "olga.k_1")
    assert row.password_hash != PASSWORD
    assert check_password_hash(row.password_hash, PASSWORD)


@pytest.mark.parametrize(
    ("username", "password", "field", "message"),
    [
        pytest.param(
            "ol",
            PASSWORD,
            "username",
            "A username needs 3 to 60 characters: letters a to z, digits, dots, dashes or "
            "underscores.",
            id="short-name",
        ),
        pytest.param(
            "olga k",
            PASSWORD,
            "username",
            "A username needs 3 to 60 characters: letters a to z, digits, dots, dashes or "
            "underscores.",
            id="space-in-name",
        ),
        pytest.param(
            "olga", "short", "password", "A password needs at least 10 characters.", id="short"
        ),
        pytest.param(
            "olga",
            "Password1!",
            "password",
            "That password is too common: one of the first that anyone guessing would try.",
            id="common",
        ),
    ],
)
def test_register_refuses_and_keeps_nothing(username, password, field, message):
    with pytest.raises(AccountRefused) as refused:
        accounts.register(username, password)
    assert (str(refused.value), refused.value.field) == (message, field)
    assert how_many(Organiser) == 0


def test_a_username_taken_in_any_case_is_refused():
    accounts.register("olga", PASSWORD)
    with pytest.raises(AccountRefused) as refused:
        accounts.register(" OLGA ", "another-fine-passphrase")
    assert (str(refused.value), refused.value.field) == ("The username OLGA is taken.", "username")
    assert kept(select(Organiser.username)) == [("olga",)]


@pytest.mark.parametrize(
    ("password", "message"),
    [
        pytest.param(
            "olgaolga12",
            "That password is built on the username: it needs 10 characters besides the username.",
            id="built-on-the-name",
        ),
        pytest.param(
            "aaaaaaaaaaaa",
            "That password is one character typed over and over: a guesser tries that first.",
            id="one-character",
        ),
        pytest.param(
            "monkeymonkey",
            "That password is a common password typed twice or more: a guesser tries those.",
            id="common-twice",
        ),
        pytest.param(
            "xyxyxyxyxyxy",
            "That password is the same few characters typed again and again: a guesser tries "
            "those.",
            id="few-characters-again",
        ),
        pytest.param(
            "abcdefghij12",
            "That password is mostly letters or digits in order (like abcdef or 654321): a "
            "guesser tries those early, so they do not count, and it needs 10 characters "
            "besides them.",
            id="in-order",
        ),
        pytest.param(
            "qazwsxedc-rt",
            "That password is mostly keys along a row or column of the keyboard (like qwerty "
            "or qazwsx): a guesser tries those early, so they do not count, and it needs 10 "
            "characters besides them.",
            id="keyboard-columns",
        ),
        pytest.param(
            "zzzzzz-mole1",
            "That password is mostly one character typed over and over: a guesser tries those "
            "early, so they do not count, and it needs 10 characters besides them.",
            id="mostly-one-character",
        ),
    ],
)
def test_password_problem_names_the_weakness(password, message):
    assert accounts.password_problem("olga", password) == message


def test_a_password_with_the_name_and_enough_besides_will_do():
    assert accounts.password_problem("olga", "olga-sunshine1") is None
    assert accounts.password_problem("olga", PASSWORD) is None


def test_organiser_named_ignores_case_and_spaces_and_never_asks_for_a_bad_name():
    olga = accounts.register("Olga", PASSWORD)
    assert accounts.organiser_named(" olga ") is olga
    assert accounts.organiser_named("OLGA") is olga
    assert accounts.organiser_named("olga%") is None
    assert accounts.organiser_named("ann") is None


# --- signing in -----------------------------------------------------------------------------


def test_a_wrong_password_is_filed_under_a_hash_of_the_name_typed(clock):
    accounts.register("olga", PASSWORD)
    assert accounts.sign_in("Olga ", "not-the-password", HOME) == WrongPassword()
    # A name with no account is told apart in nothing: the same answer, the same filing.
    assert accounts.sign_in("nobody", PASSWORD, HOME) == WrongPassword()
    assert attempts_kept() == [
        (accounts.filed_name("olga"), HOME),
        (accounts.filed_name("nobody"), HOME),
    ]
    assert all("olga" not in filed and "nobody" not in filed for filed, _ in attempts_kept())


def test_signing_in_forgets_the_typos_of_that_name_from_that_address(clock):
    olga = accounts.register("olga", PASSWORD)
    accounts.sign_in("olga", "typo-one-123", HOME)
    accounts.sign_in("olga", "typo-two-123", "198.51.100.7")
    accounts.sign_in("ann", "typo-three-1", HOME)
    assert accounts.sign_in("OLGA", PASSWORD, HOME) == SignedIn(olga)
    assert sorted(attempts_kept()) == sorted(
        [(accounts.filed_name("olga"), "198.51.100.7"), (accounts.filed_name("ann"), HOME)]
    )


def test_past_five_failures_each_try_of_the_name_waits_twice_as_long(clock):
    accounts.register("olga", PASSWORD)
    for _ in range(5):
        assert accounts.sign_in("olga", "wrong-password-1", HOME) == WrongPassword()
    # The sixth waits a second; asked while waiting, nothing is filed and no password checked.
    assert accounts.sign_in("olga", PASSWORD, HOME) == MustWait(1)
    assert len(attempts_kept()) == 5
    # Another address, and another name from this one, are not held up.
    assert isinstance(accounts.sign_in("olga", PASSWORD, "198.51.100.7"), SignedIn)
    assert accounts.sign_in("ann", "wrong-password-1", HOME) == WrongPassword()
    clock[0] = NOON + timedelta(seconds=1)
    assert accounts.sign_in("olga", "wrong-password-1", HOME) == WrongPassword()
    # Six failures: two seconds from the last.
    assert accounts.sign_in("olga", PASSWORD, HOME) == MustWait(2)
    clock[0] = NOON + timedelta(seconds=3)
    assert isinstance(accounts.sign_in("olga", PASSWORD, HOME), SignedIn)


def test_fifty_failures_from_one_address_slow_every_name_from_it(clock):
    for n in range(50):
        assert accounts.sign_in(f"guess{n}", "wrong-password-1", HOME) == WrongPassword()
    assert accounts.sign_in("olga", PASSWORD, HOME) == MustWait(1, whole_address=True)
    assert len(attempts_kept()) == 50


def test_the_wait_is_at_most_fifteen_minutes(clock):
    for hour in range(15):
        clock[0] = NOON + timedelta(hours=hour)  # each try after its wait
        assert accounts.sign_in("olga", "wrong-password-1", HOME) == WrongPassword()
    # Ten failures past the free ones: 2**10 seconds would be 17 minutes.
    assert accounts.sign_in("olga", "wrong-password-1", HOME) == MustWait(15 * 60)


def test_failures_older_than_a_day_are_forgotten(clock):
    accounts.sign_in("olga", "wrong-password-1", HOME)
    clock[0] = NOON + timedelta(days=1, seconds=1)
    accounts.sign_in("ann", "wrong-password-1", HOME)
    assert attempts_kept() == [(accounts.filed_name("ann"), HOME)]


def test_a_name_is_filed_the_same_however_typed_and_keyed_by_the_secret(app):
    filed = accounts.filed_name("olga")
    assert len(filed) == 32 and int(filed, 16) >= 0
    assert accounts.filed_name("  OLGA ") == filed
    assert accounts.filed_name("olga2") != filed
    app.secret_key = "another-secret"
    assert accounts.filed_name("olga") != filed


def test_sign_out_moves_the_generation_on():
    olga = accounts.register("olga", PASSWORD)
    accounts.sign_out(olga)
    accounts.sign_out(olga)
    assert kept(select(Organiser.session_generation)) == [(2,)]
