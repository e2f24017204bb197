"""Organisers' accounts: sign up, sign in, sign out, and slowing down whoever guesses passwords."""

from __future__ import annotations

import hashlib
import hmac
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.plumbing.addresses import ADDRESS_LENGTH
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import LoginAttempt, Organiser
from scorekeeper.rules.terms import MAX_NAME, MIN_USERNAME
from scorekeeper.services import creations

# The password rules live in services/passwords.py; callers and tests ask accounts for them too.
from scorekeeper.services.passwords import common_passwords, password_problem  # noqa: F401

# Plain ASCII, so that the database's lower() and Python agree on what "the same" means.
USERNAME = re.compile(rf"[A-Za-z0-9._-]{{{MIN_USERNAME},{MAX_NAME}}}")
# Failures are counted over a day (as long as they are kept), so a patient guesser stays slowed.
LOGIN_WINDOW = timedelta(days=1)
# Free failures of one typed username from one address before each further try waits 1 s,
# 2 s, 4 s... The same for every name, an account's or not: a count that differed (it was 5 for
# an account, 10 for names with none) told anyone which names have an account.
LOGIN_FAILURES = 5
# Free failures from one address whatever names are typed, before every sign-in from there
# waits the same way. It bounds the password checks (each a deliberately slow hash) that one
# address can ask for by trying name after name; a club behind one address has a few
# organisers, each slowed by their own typos long before their club is.
ADDRESS_FAILURES = 50
LOGIN_MAX_WAIT = timedelta(minutes=15)
# How many hex digits of the keyed hash a failure is filed under (128 bits: no two names meet).
FILED_DIGITS = 32


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
    """Too many failures lately for this username from this address (or from it at all)."""

    seconds: int
    whole_address: bool = False  # every name from the address waits, not only this one


SignInOutcome = SignedIn | WrongPassword | MustWait


def _now() -> datetime:
    """The time the throttle counts by (a test moves it on)."""
    return datetime.now(UTC)


def register(username: str, password: str, made_from: str | None = None) -> Organiser:
    """A new organiser account, its password hashed; OverAllowance past the allowance of
    sign-ups of the address it is `made_from` (creations.py; None: not counted)."""
    username = username.strip()
    if not USERNAME.fullmatch(username):
        raise AccountRefused(
            f"A username needs {MIN_USERNAME} to {MAX_NAME} characters: letters a to z, "
            "digits, dots, dashes or underscores."
        )
    problem = password_problem(username, password)
    if problem:
        raise AccountRefused(problem, field="password")
    # Counted before the hash: a stream of sign-ups past the allowance costs no hashing.
    creations.count(creations.SIGNUP, made_from)
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


def sign_in(username: str, password: str, address: str) -> SignInOutcome:
    """Check a sign-in, slowed per (typed username, address) and per address.

    Whether the name is an account's changes nothing the throttle does: every typed name gets
    the same free failures and the same waits, filed under a keyed hash (what was typed is
    never stored), so no count of failures tells which names have an account.
    """
    address, filed = address[:ADDRESS_LENGTH], filed_name(username)
    wait = _wait(filed, address)
    if wait:
        return wait
    # Filed before the slow hash check, so that guesses sent side by side count each other;
    # taken back if the password matches.
    attempt = LoginAttempt(username=filed, address=address, at=_now())
    db.session.add(attempt)
    db.session.commit()
    organiser = organiser_named(username)
    matched = _matches(organiser, password)  # checks a hash whoever the name is
    if organiser is None or not matched:
        _forget_old()
        return WrongPassword()
    # Whoever knows the password is not slowed next time by the typos before it.
    db.session.execute(delete(LoginAttempt).where(*_pair(filed, address)))
    db.session.commit()
    return SignedIn(organiser)


def filed_name(username: str) -> str:
    """What a failed sign-in is filed under for this typed username: a keyed hash of it.

    Lower-cased and trimmed as accounts are found (organiser_named), so "Olga " and "olga" are
    one name; keyed with the app's secret key, so the stored hashes cannot be tried against a
    list of names.
    """
    key = str(current_app.secret_key or "").encode()
    typed = username.strip().lower().encode()
    return hmac.new(key, typed, hashlib.sha256).hexdigest()[:FILED_DIGITS]


def _pair(filed: str, address: str) -> tuple:
    """The conditions that pick one (typed username, address) pair's failures."""
    return (LoginAttempt.username == filed, LoginAttempt.address == address)


def _wait(filed: str, address: str) -> MustWait | None:
    """How long this pair (or the whole address) must still wait before its next try, if at all."""
    now = _now()
    named = LoginAttempt.username == filed
    pair, pair_last, everyone, last = db.session.execute(
        select(
            func.count().filter(named),
            func.max(LoginAttempt.at).filter(named),
            func.count(),
            func.max(LoginAttempt.at),
        ).where(LoginAttempt.address == address, LoginAttempt.at >= now - LOGIN_WINDOW)
    ).one()
    for_name = _seconds_left(pair - LOGIN_FAILURES, pair_last, now)
    for_address = _seconds_left(everyone - ADDRESS_FAILURES, last, now)
    if not for_name and not for_address:
        return None
    return MustWait(max(for_name, for_address), whole_address=for_address > for_name)


def _seconds_left(past_free: int, last: datetime | None, now: datetime) -> int:
    """Whole seconds left of the wait after `past_free` failures beyond the free ones (0: none)."""
    if past_free < 0 or last is None:
        return 0
    if last.tzinfo is None:
        last = last.replace(tzinfo=UTC)  # SQLite hands back naive times, stored as UTC
    # Doubling per failure past the free ones; the exponent is bounded before 2** grows huge.
    delay = min(2.0 ** min(past_free, 32), LOGIN_MAX_WAIT.total_seconds())
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
