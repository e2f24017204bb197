"""Who is holding this phone: asked once, up front, on a game's first page, so that the table's
news and each deal's history name people ("Ann saved deal 1"), not "Someone".

The answer is kept in the phone's session (a form post, web/naming.py: it works without a
script) and, by static/comfort.js, in the phone's storage (`hf-name`, which live.js and form.js
send with each line and deal). A name skipped is kept as "": the phone is not asked again, and
goes by its organiser's name or "Someone" (`default_sender`). It is changed where it always
was: "Other phones see you as" on a deal or line form.
"""

from __future__ import annotations

from flask import session
from flask_login import current_user

from scorekeeper.rules.terms import MAX_DEVICE_NAME
from scorekeeper.services.names import SOMEONE, cleaned

NAME = "name"  # session key: the name this phone goes by, "" once skipped; absent until asked


def kept_name() -> str:
    """The name this phone gave the table ("" if it skipped, or was never asked)."""
    kept = session.get(NAME)
    return kept if isinstance(kept, str) else ""


def keep_name(given: str | None) -> None:
    """Keep the name this phone goes by, cleaned and cut (`names.cleaned`); None or "" skips."""
    session[NAME] = cleaned(given or "")[:MAX_DEVICE_NAME].strip()
    session.permanent = True


def default_sender() -> str:
    """The name a phone goes by when its request names none: the one it gave, else its
    signed-in organiser's, else Someone."""
    if kept_name():
        return kept_name()
    return current_user.username if current_user.is_authenticated else SOMEONE


def ask_name() -> bool:
    """Whether a game's page asks who is holding the phone: only until it answered or skipped.

    A signed-in organiser goes by their own name, and is not asked.
    """
    return NAME not in session and not current_user.is_authenticated
