"""The phone's scripts hold no refusal's words and no rule's number: the server states them.

Every sentence the engine refuses or warns with lives once, in rules/sentences.py, and the
queue's in services/queue_words.py; the phone's scorer fills the ones it judges from what the
server states (`rules.stated`). So no script under static/ may hold a template's words, the
scorer's scripts may write down no rule's number (each comes from the stated rules or deck),
and no script writes the secret's shape, the step points move in or the figure ceiling.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import rules as engine
from scorekeeper.rules import sentences
from scorekeeper.rules.sentences import SENTENCES
from scorekeeper.rules.stated import stated, words
from scorekeeper.rules.terms import BREAKDOWN_TOTAL, MAX_FIGURE, POINTS_STEP
from scorekeeper.services.queue_words import QUEUE_WORDS

STATIC = Path(__file__).resolve().parents[1] / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
# The scripts that judge a deal by the rules: the phone's scorer.
SCORER = [path for path in SCRIPTS if path.name.startswith("scorer")]
# A figure of a template, and a number written in a script.
FIGURE = re.compile(r"\{\w+(?::,|\|[^|{}]*\|[^{}]*)?\}")
NUMBER = re.compile(r"(?<![\w.$\\])\d[\d_]*(?:\.\d+)?(?![\w.])")


def code_of(path: Path) -> str:
    """A script without its comments (what it does, not what it says of the engine), its \\u
    escapes written out: "\\u00d7" is the × a template holds."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    text = "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)), text)


def words_of(templates: dict[str, str]) -> set[str]:
    """Each template's words between its figures, where there are enough of them to be its
    own (a joiner such as " and " or a fragment of one word is any script's)."""
    found = set()
    for template in templates.values():
        for piece in FIGURE.split(template):
            piece = piece.strip(" ,.:;()'?")
            if len(piece) >= 10 and " " in piece:
                found.add(piece)
    return found


def leaves(value: object) -> Iterator[object]:
    """Every number and text in what the server states, through its objects and lists."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def rule_numbers() -> set[int]:
    """Every number the server states to the phone of any rule set: rules, deck, ceiling, step."""
    found = {
        abs(leaf)
        for preset in engine.PRESETS.values()
        for leaf in leaves({k: v for k, v in stated(preset).items() if k != "sentences"})
        if isinstance(leaf, int) and not isinstance(leaf, bool)
    }
    # 0 and 1 are arithmetic's; 2 a pair (of teams: open books move between two).
    return found - {0, 1, 2}


WORDS = sorted(words_of(SENTENCES))
QUEUE = sorted(words_of(QUEUE_WORDS))
# The scripts that speak of the deals waiting on the phone, in the queue's words.
QUEUED = [p for p in SCRIPTS if p.name in ("offline.js", "sw_outbox.js", "provisional.js")]


def test_the_words_are_found_at_all():
    """The check reads every template: a sentence the phone fills and one of the queue's."""
    assert "is not a multiple of" in WORDS
    assert "is far more than any deal holds" in WORDS
    assert "Its figures are lost" in QUEUE
    assert len(WORDS) > 60 and len(QUEUE) > 20


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_script_holds_a_sentence_of_the_engine(path):
    """Not one template's words in any script: each comes from the server's statement."""
    text = code_of(path)
    assert [words for words in WORDS if words in text] == [], path.name


@pytest.mark.parametrize("path", [*SCORER, *QUEUED], ids=lambda p: p.name)
def test_no_script_holds_a_sentence_of_the_queue(path):
    """The deals waiting on the phone are spoken of in the server's words (queue_words.py)."""
    text = code_of(path)
    assert [words for words in QUEUE if words in text] == [], path.name


def labels() -> set[str]:
    """Every label of two words or more the server states to the phone (a breakdown's lines and
    total, books, cards, figures, bonuses), and each whole sentence of the queue's."""
    return {
        leaf.strip()
        for leaf in leaves([words(), QUEUE_WORDS])
        if isinstance(leaf, str) and " " in leaf.strip()
    }


def test_the_labels_are_found_at_all():
    """The check reads the stated labels: the breakdown's total line among them."""
    assert {BREAKDOWN_TOTAL, "Red threes", "From the other team"} <= labels()
    assert QUEUE_WORDS["sent_404"] in labels()


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_script_holds_a_stated_label(path):
    """A label the server states ("Deal total", "Red threes"), or a sentence of the queue's
    ("This game is no longer on the server."), is read from what it states."""
    text = code_of(path)
    assert [label for label in sorted(labels()) if f'"{label}"' in text] == [], path.name


@pytest.mark.parametrize("path", SCORER, ids=lambda p: p.name)
def test_the_scorer_writes_down_no_rule_number(path):
    """The scorer's numbers are arithmetic's: a rule's, a deck's or the ceiling is stated."""
    numbers = {int(float(n.replace("_", ""))) for n in NUMBER.findall(code_of(path))}
    assert numbers & rule_numbers() == set(), path.name
    assert rule_numbers() >= {MAX_FIGURE, POINTS_STEP, 7, 44, 500}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_script_writes_the_secret_the_step_or_the_ceiling(path):
    """The secret's shape is the server's; points' step and the ceiling come with the rules."""
    code = code_of(path)
    assert not re.search(r"\{22\}|\{32\}", code), f"{path.name}: a secret's or key's shape"
    assert not re.search(rf"%\s*{POINTS_STEP}\b", code), f"{path.name}: points in fives"
    assert not re.search(r"\b1_?000_?000\b|\b1e6\b", code), f"{path.name}: the ceiling"


def test_the_phone_is_stated_each_sentence_it_fills():
    """Every sentence a scorer script names by its code is among those stated to the phone."""
    named = set()
    for path in SCORER:
        named |= set(re.findall(r"say\(stated, \"(\w+)\"", path.read_text()))
        named |= set(re.findall(r"\"((?:what|why|follows)_?\w*)\"", path.read_text()))
    told = sentences.stated()
    assert named and {name for name in named if name in SENTENCES} <= set(told)
    assert json.dumps(told).count("{") < 200  # compact: templates, not a copy of each refusal
