"""What a password must be (issue 39 and before): long enough, not the username with little
besides, not a common one, not one piece typed again and again, not mostly a keyboard line or
letters in order, and not quickly guessed by zxcvbn's estimate (its words ours: `GUESSABLE`).

Every refusal is said here, in plain words, for the password field of the sign-up form.
"""

from __future__ import annotations

import threading
from functools import cache
from importlib.resources import files
from typing import Any

from scorekeeper.rules.terms import MIN_PASSWORD


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords, lower case."""
    text = files("scorekeeper").joinpath("data/common-passwords.txt").read_text("utf-8")
    return frozenset(
        line.strip().lower() for line in text.splitlines() if line.strip() and line[0] != "#"
    )


# What people put at the end of a password to pass a rule ("password!"): no help to it.
TRAILING = "!.?*#@$"
# A run this long along a line of the keyboard or the alphabet, or of one character, counts as
# a pattern. Four would catch words ("liberty" holds "erty"); the patterns people pick
# ("qwerty", "123456", "qazwsx") are longer.
PATTERN_RUN = 5
# The lines a guesser walks, each read both ways: the alphabet and the digits in order, the
# rows of a QWERTY keyboard, and its columns top to bottom ("1qaz2wsx", "qazwsx") or bottom up.
ORDERED = ("abcdefghijklmnopqrstuvwxyz", "01234567890")
KEY_ROWS = ("`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./")
KEY_COLUMNS = ("1qaz", "2wsx", "3edc", "4rfv", "5tgb", "6yhn", "7ujm", "8ik,", "9ol.", "0p;/")
# How each kind of pattern is named in a refusal.
PATTERN_WORDS = {
    "ordered": "letters or digits in order (like abcdef or 654321)",
    "keyboard": "keys along a row or column of the keyboard (like qwerty or qazwsx)",
    "repeated": "one character typed over and over",
}


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
    if lowered in common or rest in common or lowered.rstrip(TRAILING) in common:
        return "That password is too common: one of the first that anyone guessing would try."
    return (
        _repeat_problem(lowered.rstrip(TRAILING), common)
        or _pattern_problem(rest)
        or guessed_problem(username, password)
    )


def _repeat_problem(lowered: str, common: frozenset[str]) -> str | None:
    """Why a password that is one piece typed again and again will not do, or None."""
    unit = _repeated_unit(lowered)
    if unit is None:
        return None
    if len(unit) == 1:
        return "That password is one character typed over and over: a guesser tries that first."
    # A common password, not a few letters that a list of them also holds ("abc").
    if len(unit) >= PATTERN_RUN and (unit in common or unit.rstrip(TRAILING) in common):
        return "That password is a common password typed twice or more: a guesser tries those."
    return "That password is the same few characters typed again and again: a guesser tries those."


def _repeated_unit(text: str) -> str | None:
    """The shortest piece the text repeats at least twice ("abc" in "abcabcab"), or None."""
    # The longest border of the whole text (KMP's failure function): the text repeats its
    # first len(text) - border characters.
    border = [0] * (len(text) + 1)
    border[0], k = -1, -1
    for i, char in enumerate(text):
        while k >= 0 and text[k] != char:
            k = border[k]
        k += 1
        border[i + 1] = k
    period = len(text) - border[len(text)]
    return text[:period] if text and 2 * period <= len(text) else None


def _pattern_problem(text: str) -> str | None:
    """Why a password that is mostly keyboard lines, letters in order or one character will
    not do, or None: like the username, a pattern does not count towards the length."""
    found = _patterns(text)
    left = len(text) - sum(len(run) for run, _ in found)
    if left >= MIN_PASSWORD:
        return None
    _, kind = max(found, key=lambda each: len(each[0]))
    return (
        f"That password is mostly {PATTERN_WORDS[kind]}: a guesser tries those early, so they "
        f"do not count, and it needs {MIN_PASSWORD} characters besides them."
    )


@cache
def _walks() -> dict[str, str]:
    """Every piece of a line a guesser walks, at least two characters long, with its kind."""
    down = KEY_COLUMNS
    up = tuple(column[::-1] for column in KEY_COLUMNS)
    # Down every column, up every column, and down and up in turn (1qazxsw2, zaq12wsx).
    turns = tuple(up[n] if n % 2 else down[n] for n in range(len(down)))
    other_turns = tuple(down[n] if n % 2 else up[n] for n in range(len(down)))
    walked = ["".join(side) for side in (down, up, turns, other_turns)]
    # Each also without the digits' row (qazwsx).
    columns = (*walked, *("".join(c for c in line if not c.isdigit()) for line in walked))
    lines = {line: "ordered" for line in ORDERED}
    for line in (*KEY_ROWS, *columns):
        lines.setdefault(line, "keyboard")
    pieces: dict[str, str] = {}
    for line, kind in lines.items():
        for text in (line, line[::-1]):
            for start in range(len(text)):
                for end in range(start + 2, len(text) + 1):
                    pieces.setdefault(text[start:end], kind)
    return pieces


def _patterns(text: str) -> list[tuple[str, str]]:
    """The runs of PATTERN_RUN or more characters along a walked line or of one character, each
    with its kind, read from the left, each the longest starting where it starts."""
    walks, found, start = _walks(), [], 0
    while start < len(text):
        end = start + 1
        while end < len(text) and text[end] == text[start]:
            end += 1
        best, kind = end, "repeated"
        end = start + 2
        while end <= len(text) and text[start:end] in walks:
            end += 1
        if end - 1 - start > best - start:
            best, kind = end - 1, walks[text[start : end - 1]]
        if best - start >= PATTERN_RUN:
            found.append((text[start:best], kind))
            start = best
        else:
            start += 1
    return found


# --- how quickly a guesser finds it (zxcvbn) ---------------------------------------------------

# Fewer guesses than this and a password is refused: zxcvbn's score 3, "safely unguessable"
# against a guesser holding a stolen slow hash (and far beyond one throttled at sign-in).
GUESSES_NEEDED = 10**8
# zxcvbn judges at most this many first characters: its dictionary search grows with the square
# of the length (72, its own most, cost up to 0.3 s), and a password whose first 40 characters
# hold nothing guessable is no quick guess whatever follows.
JUDGED = 40
# Characters zxcvbn reads as letters in disguise (p@ssw0rd): it tries every reading of those it
# finds, so a password of many of them costs it seconds (a 72-character one 14.7 s). One with
# more than this many different ones is no dictionary word a guesser tries early, and is left
# to the rules above.
STAND_INS = frozenset("4@8({[<3691!|7+05$2%")
MOST_STAND_INS = 6
# What each guessable piece of a password is called, once and many times. zxcvbn's own feedback
# ("This is similar to a commonly used password.") names no piece, and not in our words.
GUESSABLE = {
    "passwords": ("a common password", "common passwords"),
    "english_wikipedia": ("a common word", "common words"),
    "us_tv_and_film": ("a common word", "common words"),
    "female_names": ("a common name", "common names"),
    "male_names": ("a common name", "common names"),
    "surnames": ("a common name", "common names"),
    "user_inputs": ("the username", "the username"),
    "sequence": ("letters or digits in order", "letters or digits in order"),
    "spatial": ("keys along the keyboard", "keys along the keyboard"),
    "regex": ("a recent year", "recent years"),
    "date": ("a date", "dates"),
    "digit": ("a digit", "digits"),
    "character": ("one other character", "other characters"),
    # Any kind a later zxcvbn finds that has no words here yet.
    "other": ("a piece a guesser tries early", "pieces a guesser tries early"),
}
REVERSED = "written backwards"
LOOK_ALIKE = "with letters swapped for digits or symbols"
TIMES = {2: "twice", 3: "three times"}
COUNTED = {2: "two", 3: "three", 4: "four"}
GUESSED = (
    "That password would be guessed quickly: it is {parts}. A guesser's first tries join such "
    "pieces: make it longer, with words of your own that nobody would put together."
)

# zxcvbn keeps the username in a module-wide dictionary while it judges: one judgement at a time.
_judging = threading.Lock()


def guessed_problem(username: str, password: str) -> str | None:
    """Why a password is quickly guessed by zxcvbn's estimate, in our words, or None."""
    from zxcvbn import zxcvbn  # its dictionaries load on first use, not when the app starts

    judging = password[:JUDGED]
    if len(STAND_INS.intersection(judging)) > MOST_STAND_INS:
        return None
    with _judging:
        judged = zxcvbn(judging, user_inputs=[username.strip().lower()])
    if judged["guesses"] >= GUESSES_NEEDED:
        return None
    return GUESSED.format(parts=_joined(_parts(judged["sequence"])))


def _parts(sequence: list[dict[str, Any]]) -> list[str]:
    """Each piece zxcvbn found, in words, neighbours of one kind counted together."""
    named: list[tuple[tuple[str, str], str]] = []  # (its words, once and many), what follows
    for match in sequence:
        if match["pattern"] == "repeat":
            base = _joined(_parts(match["base_matches"]))
            times = TIMES.get(int(match["repeat_count"]), f"{int(match['repeat_count'])} times")
            said = (
                f"{base} typed {times}"
                if " and " not in base
                else f"one piece typed {times} ({base})"
            )
            named.append(((said, said), ""))
            continue
        kind, extra = _kind(match)
        token = match["token"]
        if kind in ("digit", "character") and len(token) > 1:
            many = GUESSABLE[kind][1]
            named.append(((f"{len(token)} {many}", f"{len(token)} {many}"), ""))
            continue
        named.append((GUESSABLE.get(kind, GUESSABLE["other"]), extra))
    parts: list[str] = []
    count = 0
    for n, (words, extra) in enumerate(named):
        count += 1
        if n + 1 < len(named) and named[n + 1] == (words, extra) and words[0] != words[1]:
            continue
        said = words[0] if count == 1 else f"{COUNTED.get(count, count)} {words[1]}"
        parts.append(f"{said} {extra}" if extra else said)
        count = 0
    return parts


def _kind(match: dict[str, Any]) -> tuple[str, str]:
    """What kind of piece one match is, and any words that follow its name."""
    pattern = match["pattern"]
    if pattern == "dictionary":
        extra = " ".join(
            words
            for flag, words in ((match["reversed"], REVERSED), (match["l33t"], LOOK_ALIKE))
            if flag
        )
        return match["dictionary_name"], extra
    if pattern == "bruteforce":
        return ("digit" if match["token"].isdigit() else "character"), ""
    return pattern, ""


def _joined(parts: list[str]) -> str:
    """ "a, b and c"."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
