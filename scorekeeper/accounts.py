"""Organisers' accounts: sign up, sign in, and slowing down whoever guesses passwords."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select
from werkzeug.security import check_password_hash, generate_password_hash

from .db import db
from .models import LoginAttempt, Organiser
from .rules.terms import MAX_NAME, MIN_PASSWORD, MIN_USERNAME

# Plain ASCII, so that the database's lower() and Python agree on what "the same" means.
USERNAME = re.compile(rf"[A-Za-z0-9._-]{{{MIN_USERNAME},{MAX_NAME}}}")
LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_FAILURES = 5


class AccountRefused(ValueError):
    """An account that cannot be made, in words for the person signing up."""


def register(username: str, password: str) -> Organiser:
    """A new organiser account, its password hashed."""
    username = username.strip()
    if not USERNAME.fullmatch(username):
        raise AccountRefused(
            f"A username needs {MIN_USERNAME} to {MAX_NAME} characters: letters a to z, "
            "digits, dots, dashes or underscores."
        )
    if len(password) < MIN_PASSWORD:
        raise AccountRefused(f"A password needs at least {MIN_PASSWORD} characters.")
    if organiser_named(username) is not None:
        raise AccountRefused(f"The username {username} is taken.")
    organiser = Organiser(username=username, password_hash=generate_password_hash(password))
    db.session.add(organiser)
    db.session.commit()
    return organiser


def organiser_named(username: str) -> Organiser | None:
    """An organiser by username (case-insensitive)."""
    if not USERNAME.fullmatch(username.strip()):
        return None  # no account has such a name; never send it to the database
    query = select(Organiser).where(func.lower(Organiser.username) == username.strip().lower())
    return db.session.execute(query).scalar_one_or_none()


def authenticate(username: str, password: str) -> Organiser | None:
    """The organiser whose password this is, or None."""
    organiser = organiser_named(username)
    if organiser is None or not check_password_hash(organiser.password_hash, password):
        return None
    return organiser


def login_blocked(username: str, address: str) -> bool:
    """Too many failed sign-ins lately, for this username or from this address."""
    since = datetime.now(UTC) - LOGIN_WINDOW
    query = select(func.count()).where(
        LoginAttempt.at >= since,
        (func.lower(LoginAttempt.username) == _attempted(username).lower())
        | (LoginAttempt.address == address[:64]),
    )
    return db.session.execute(query).scalar_one() >= LOGIN_FAILURES


def _attempted(username: str) -> str:
    """The username as a sign-in attempt is filed: a name no account could have is '?'."""
    return username.strip() if USERNAME.fullmatch(username.strip()) else "?"


def record_failed_login(username: str, address: str) -> None:
    """Remember a failed sign-in (and forget those older than a day)."""
    now = datetime.now(UTC)
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.at < now - timedelta(days=1)))
    db.session.add(LoginAttempt(username=_attempted(username), address=address[:64], at=now))
    db.session.commit()
