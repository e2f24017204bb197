"""Which characters a typed name may hold, and how its spaces are kept: one rule for every name.

Sides, players, clubs, members, seasons and the phones entering a deal all ask `name_problem`
(the refusal) or `cleaned` (a display name tidied instead). Every name is kept `squeezed`, so
"Ann  Smith" typed as a member, a player, a side or a night's guest is one name, "Ann Smith"
(migration 0026 squeezed the names kept before). Pure Python, no Flask: it could later move
beside `has_control` in `rules/terms.py`.
"""

from __future__ import annotations

import unicodedata

from scorekeeper.rules.terms import CONTROL_MESSAGE, MAX_DEVICE_NAME, has_control

# What each rule refuses, after the name of the field ("Names", "Side 1's name"...): with
# "Names", the control rule reads exactly as rules.terms.CONTROL_MESSAGE.
_MESSAGES = {
    "broken": "cannot hold broken text (a lone surrogate, U+D800 to U+DFFF).",
    "control": CONTROL_MESSAGE.removeprefix("Names "),
    "invisible": (
        "cannot hold invisible or text-direction characters "
        "(zero-width spaces, joiners, right-to-left marks)."
    ),
}

# Every format character (category Cf) is invisible: the bidi controls (U+200E, U+200F,
# U+202A-U+202E, U+2066-U+2069, U+061C), zero-width spaces and joiners (U+200B-U+200D, U+2060,
# U+FEFF), the soft hyphen and the tag characters that can smuggle hidden text. A name with one
# looks like another name, or reverses the text after it on every page that shows it. The line
# and paragraph separators (Zl, Zp) break a line like the controls has_control refuses.
_INVISIBLE = frozenset({"Cf", "Zl", "Zp"})


def _kind(char: str) -> str | None:
    """Which rule a character breaks: 'control', 'broken', 'invisible', or None."""
    if has_control(char):
        return "control"
    category = unicodedata.category(char)
    if category == "Cs":
        return "broken"
    if category in _INVISIBLE:
        return "invisible"
    return None


def name_problem(text: str, what: str = "Names") -> str | None:
    """Why a typed name cannot be kept, as "<what> cannot hold ..."; None if it can."""
    kinds = {_kind(char) for char in text}
    # The most alarming first: a lone surrogate cannot even be stored.
    for kind in ("broken", "control", "invisible"):
        if kind in kinds:
            return f"{what} {_MESSAGES[kind]}"
    return None


def has_surrogate(text: str) -> bool:
    """Whether text holds a lone surrogate: no database, page or JSON answer can encode it."""
    return any(_kind(char) == "broken" for char in text)


def squeezed(text: str) -> str:
    """A name as it is kept: each run of spaces, tabs or line breaks one space, none at the ends."""
    return " ".join(text.split())


def name_key(text: str) -> str:
    """What two names are told apart by: squeezed, whatever their case ("ann  SMITH", Ann Smith)."""
    return squeezed(text).casefold()


def cleaned(text: str) -> str:
    """The name without the characters `name_problem` refuses, its spaces tidied."""
    # Tabs and line breaks part words: they become spaces before the rest are dropped.
    return squeezed("".join(char for char in squeezed(text) if _kind(char) is None))


# What the table calls a phone that gave no name (and no organiser is signed in on it).
SOMEONE = "Someone"


def phone_name(text: str | None, default: str = SOMEONE) -> str:
    """The name a phone goes by at the table ("Other phones see you as"): cleaned and short.

    The one place a sender's name is cleaned, cut to MAX_DEVICE_NAME and defaulted: a line's
    sender, a deal's saver, Play again's starter and a phone entering a deal all go through it.
    """
    return (cleaned(text or "") or default)[:MAX_DEVICE_NAME].strip() or default
