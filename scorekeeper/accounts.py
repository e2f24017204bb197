"""Organisers' accounts: sign up, sign in, sign out, and slowing down whoever guesses passwords."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from importlib.resources import files

from sqlalchemy import delete, func, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from .db import db
from .models import LoginAttempt, Organiser
from .rules.terms import MAX_NAME, MIN_PASSWORD, MIN_USERNAME

# Plain ASCII, so that the database's lower() and Python agree on what "the same" means.
USERNAME = re.compile(rf"[A-Za-z0-9._-]{{{MIN_USERNAME},{MAX_NAME}}}")
# Failures are counted over a day (as long as they are kept), so a patient guesser stays slowed.
LOGIN_WINDOW = timedelta(days=1)
# Free failures of one (account, address) pair before it waits 1 s, 2 s, 4 s... per failure.
LOGIN_FAILURES = 5
# Free failures with usernames no account has, per address: more than for an account, since a
# club behind one address mistypes names too, and such a failure never comes near a password.
UNKNOWN_FAILURES = 10
LOGIN_MAX_WAIT = timedelta(minutes=15)
# How a failure with a username no account has is filed: what was typed is never kept.
UNKNOWN = "?"


class AccountRefused(ValueError):
    """An account that cannot be made, in words for the person signing up."""

    def __init__(self, message: str, field: str = "username") -> None:
        super().__init__(message)
        self.field = field  # the form field the refusal is about


@dataclass(frozen=True)
class SignedIn:
    """The password matched: this organiser is signed in."""

    organiser: Organiser


@dataclass(frozen=True)
class WrongPassword:
    """No account with that username and password (which of the two is not said)."""


@dataclass(frozen=True)
class MustWait:
    """Too many failures lately for this account (or unknown names) from this address."""

    seconds: int


SignInOutcome = SignedIn | WrongPassword | MustWait


def _now() -> datetime:
    """The time the throttle counts by (a test moves it on)."""
    return datetime.now(UTC)


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords, lower case."""
    text = files(__package__).joinpath("data/common-passwords.txt").read_text("utf-8")
    return frozenset(
        line.strip().lower() for line in text.splitlines() if line.strip() and line[0] != "#"
    )


def password_problem(username: str, password: str) -> str | None:
    """Why this password will not do for this username, or None."""
    if len(password) < MIN_PASSWORD:
        return f"A password needs at least {MIN_PASSWORD} characters."
    lowered, name = password.lower(), username.strip().lower()
    # The username is no secret: it does not count towards the length, and what is left once
    # it is taken out must not be a common password either ("olgapassword").
    rest = lowered.replace(name, "") if name else lowered
    if name and rest != lowered and len(rest) < MIN_PASSWORD:
        return (
            f"That password is built on the username: it needs {MIN_PASSWORD} characters "
            "besides the username."
        )
    common = common_passwords()
    if lowered in common or rest in common or lowered.rstrip("!.?*#@$") in common:
        return "That password is too common: one of the first that anyone guessing would try."
    return None


def register(username: str, password: str) -> Organiser:
    """A new organiser account, its password hashed."""
    username = username.strip()
    if not USERNAME.fullmatch(username):
        raise AccountRefused(
            f"A username needs {MIN_USERNAME} to {MAX_NAME} characters: letters a to z, "
            "digits, dots, dashes or underscores."
        )
    problem = password_problem(username, password)
    if problem:
        raise AccountRefused(problem, field="password")
    # Hashed before the name is looked up, so "taken" costs the same time as a new account.
    password_hash = generate_password_hash(password)
    if organiser_named(username) is not None:
        raise AccountRefused(f"The username {username} is taken.")
    organiser = Organiser(username=username, password_hash=password_hash)
    db.session.add(organiser)
    db.session.commit()
    return organiser


def organiser_named(username: str) -> Organiser | None:
    """An organiser by username (case-insensitive)."""
    if not USERNAME.fullmatch(username.strip()):
        return None  # no account has such a name; never send it to the database
    query = select(Organiser).where(func.lower(Organiser.username) == username.strip().lower())
    return db.session.execute(query).scalar_one_or_none()


_dummy: dict[object, str] = {}


def _dummy_hash() -> str:
    """A hash of nothing anyone types, made the way a password is hashed now (made once)."""
    # Keyed by the hashing function, so it always has the method and cost real hashes have.
    if generate_password_hash not in _dummy:
        _dummy.clear()
        _dummy[generate_password_hash] = generate_password_hash("\x00 no account \x00")
    return _dummy[generate_password_hash]


def _matches(organiser: Organiser | None, password: str) -> bool:
    """Whether this is the organiser's password; an unknown name costs a hash check too."""
    # Checked first, never short-circuited: a quick answer for an unknown name tells names apart.
    stored = organiser.password_hash if organiser is not None else _dummy_hash()
    matched = check_password_hash(stored, password)
    return organiser is not None and matched


def authenticate(username: str, password: str) -> Organiser | None:
    """The organiser whose password this is, or None (unthrottled: sign-in uses `sign_in`)."""
    organiser = organiser_named(username)
    return organiser if _matches(organiser, password) else None


def sign_in(username: str, password: str, address: str) -> SignInOutcome:
    """Check a sign-in, slowed per (account, address) pair and per address for unknown names."""
    address = address[:64]
    organiser = organiser_named(username)
    filed = organiser.username if organiser is not None else UNKNOWN
    wait = _wait(filed, address)
    if wait:
        return MustWait(wait)
    # Filed before the slow hash check, so that guesses sent side by side count each other;
    # taken back if the password matches.
    attempt = LoginAttempt(username=filed, address=address, at=_now())
    db.session.add(attempt)
    db.session.commit()
    matched = _matches(organiser, password)  # checks a hash whoever the name is
    if organiser is None or not matched:
        _forget_old()
        return WrongPassword()
    # Whoever knows the password is not slowed next time by the typos before it.
    db.session.execute(delete(LoginAttempt).where(*_pair(filed, address)))
    db.session.commit()
    return SignedIn(organiser)


def _pair(filed: str, address: str) -> tuple:
    """The conditions that pick one (account or unknown names, address) pair's failures."""
    return (func.lower(LoginAttempt.username) == filed.lower(), LoginAttempt.address == address)


def _wait(filed: str, address: str) -> int:
    """Whole seconds this pair must still wait before its next try (0: none)."""
    now = _now()
    count, last = db.session.execute(
        select(func.count(), func.max(LoginAttempt.at)).where(
            *_pair(filed, address), LoginAttempt.at >= now - LOGIN_WINDOW
        )
    ).one()
    free = UNKNOWN_FAILURES if filed == UNKNOWN else LOGIN_FAILURES
    if count < free or last is None:
        return 0
    if last.tzinfo is None:
        last = last.replace(tzinfo=UTC)  # SQLite hands back naive times, stored as UTC
    # Doubling per failure past the free ones; the exponent is bounded before 2** grows huge.
    delay = min(2.0 ** min(count - free, 32), LOGIN_MAX_WAIT.total_seconds())
    remaining = (last - now).total_seconds() + delay
    return max(0, math.ceil(remaining - 1e-6))


def _forget_old() -> None:
    """Forget failed sign-ins older than the window."""
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.at < _now() - LOGIN_WINDOW))
    db.session.commit()


def sign_out(organiser: Organiser) -> None:
    """End every session of this organiser, on every phone: their generation moves on."""
    db.session.execute(
        update(Organiser)
        .where(Organiser.id == organiser.id)
        .values(session_generation=Organiser.session_generation + 1)
    )
    db.session.commit()
