"""plumbing/alike_keys.py and the look-alike check that asks the database by them (issue 39):
every pair of names the rule calls alike shares a key, so asking by key misses none; the keys
follow a member's name wherever it is set; migration 0021 keys the members already kept."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import random
import sqlite3
from pathlib import Path

import pytest
from flask_migrate import upgrade
from sqlalchemy import insert, select, update

from scorekeeper import create_app
from scorekeeper.plumbing import alike_keys
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Member
from scorekeeper.services import clubs, members
from scorekeeper.services.members import Alike, Unsure

from ._support import kept

pytestmark = pytest.mark.usefixtures("quick_hashing")

MIGRATION = (
    Path(__file__).resolve().parents[2]
    / "scorekeeper/migrations/versions/0021_member_alike_keys.py"
)


def shares_a_key(asked: str, member: str) -> bool:
    """Whether asking for `asked`'s look-alikes by key finds `member`."""
    heads, tails = alike_keys.asked(asked)
    return alike_keys.head(member) in heads or alike_keys.tail(member) in tails


def one_edit(draw: random.Random, name: str, alphabet: str) -> str:
    """The name with one letter added, dropped, changed, or two neighbours swapped."""
    place = draw.randrange(len(name) + 1)
    kind = draw.choice(("add", "drop", "change", "swap"))
    if kind == "add" or len(name) < 2:
        return name[:place] + draw.choice(alphabet) + name[place:]
    place = min(place, len(name) - 2)
    if kind == "drop":
        return name[:place] + name[place + 1 :]
    if kind == "change":
        return name[:place] + draw.choice(alphabet) + name[place + 1 :]
    return name[:place] + name[place + 1] + name[place] + name[place + 2 :]


def test_every_pair_the_rule_calls_alike_shares_a_key():
    draw = random.Random(39)
    alphabet = "abcab1é -"  # few letters, so that edits often make names the rule calls alike
    checked = 0
    for _ in range(20_000):
        name = "".join(draw.choices(alphabet, k=draw.randint(1, 14)))
        other = one_edit(draw, name, alphabet)
        if draw.random() < 0.2:
            other = other.upper().replace(" ", "-")  # case and punctuation aside
        if members.looks_alike(name, other):
            checked += 1
            assert shares_a_key(name, other), (name, other)
            assert shares_a_key(other, name), (name, other)
    assert checked > 10_000  # the draw made enough alike pairs to mean something


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ann", "Anne"),
        ("Micheal", "Michael"),
        ("Catherine", "Katherine"),
        ("Mary-Ann", "mary ann"),
        ("Zoë", "zoe"),
        ("Élodie Marchand-Dubois", "Elodie Marchand Duboi"),
        ("A" * 60, "A" * 59),  # longer than the keys keep: grouped, not missed
        ("Ab", "Ba"),
    ],
)
def test_the_examples_share_a_key(one, other):
    assert members.looks_alike(one, other)
    assert shares_a_key(one, other) and shares_a_key(other, one)


def test_a_name_asks_for_few_keys_whatever_the_club():
    heads, tails = alike_keys.asked("Catherine Zeta")
    # 13 letters: names of 12 to 14 letters, by their first or last (n - 1) // 2 letters.
    assert heads == {"12:cathe", "13:cather", "14:cather"}
    assert tails == {"12:ezeta", "13:nezeta", "14:nezeta"}


def test_the_keys_follow_the_name_when_set_renamed_or_inserted_in_bulk(club):
    ann = next(m for m in club.members if m.name == "Ann")
    assert (ann.alike_head, ann.alike_tail) == (alike_keys.head("Ann"), alike_keys.tail("Ann"))
    members.rename_member(ann, "Annabel Lee")
    row = kept(select(Member.alike_head, Member.alike_tail).where(Member.id == ann.id))[0]
    assert tuple(row) == (alike_keys.head("Annabel Lee"), alike_keys.tail("Annabel Lee"))
    # A bulk insert that leaves the keys out gets them from the name all the same.
    db.session.execute(insert(Member), [{"club_id": club.id, "name": "Bartholomew Cubbins"}])
    db.session.commit()
    row = kept(select(Member.alike_head).where(Member.name == "Bartholomew Cubbins"))[0]
    assert row.alike_head == alike_keys.head("Bartholomew Cubbins")


def test_a_renamed_member_is_looked_alike_by_the_new_name_only(club):
    cat = next(m for m in club.members if m.name == "Cat")
    members.rename_member(cat, "Catherine")
    outcome = members.add_members(club, "Katherine\nCot")
    assert isinstance(outcome, Unsure)
    assert outcome.listed.alike == (Alike("Katherine", "Catherine", "already a member"),)


def test_a_member_added_without_keys_by_older_code_is_still_asked_about(club):
    """During a rollout a host on the code before 0021 adds members with no keys."""
    db.session.execute(
        update(Member).where(Member.name == "Cat").values(alike_head=None, alike_tail=None)
    )
    db.session.commit()
    outcome = members.add_members(club, "Catt\ncat")
    assert isinstance(outcome, Unsure)
    assert outcome.listed.alike == (Alike("Catt", "Cat", "already a member"),)
    assert [str(s) for s in outcome.listed.skipped] == ["cat is already a member, as Cat"]


def test_the_first_alike_by_name_is_the_one_named_among_many(club):
    rows = [{"club_id": club.id, "name": f"Player {n:04d}"} for n in range(2000)]
    db.session.execute(insert(Member), [alike_keys.keyed(row) for row in rows])
    clubs.add_member(club, "Jonathan Smyth")
    clubs.add_member(club, "Jonathan Smith")
    outcome = members.add_members(club, "jonathan smeth\nplayer 0007\nPLAYER-0008\nNew One")
    assert isinstance(outcome, Unsure)
    # Both Jonathans look like the first name: the one the member list shows first is named.
    assert outcome.listed.alike == (
        Alike("jonathan smeth", "Jonathan Smith", "already a member"),
        Alike("PLAYER-0008", "Player 0008", "already a member"),
    )
    assert [str(s) for s in outcome.listed.skipped] == [
        "player 0007 is already a member, as Player 0007"
    ]


def test_migration_0021_keys_as_the_code_does():
    spec = importlib.util.spec_from_file_location("migration_0021", MIGRATION)
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    assert migration.KEY_LENGTH == alike_keys.KEY_LENGTH
    for name in ("Ann", "Mary-Ann O'Neil", "Zoë", "🙂", "A" * 60, "ﷺ Ahmed", "Table 12"):
        assert migration._keys(name) == (alike_keys.head(name), alike_keys.tail(name)), name


def test_migration_0021_keys_the_members_already_kept(tmp_path):
    path = tmp_path / "old.sqlite"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    names = ["Ann", "Mary-Ann O'Neil", "Zoë", "🙂"]
    with app.app_context():
        with contextlib.redirect_stderr(io.StringIO()):
            upgrade(revision="0020")
        old = sqlite3.connect(path)
        old.executemany(
            "INSERT INTO member (club_id, name, archived, created_at) VALUES (1, ?, 0, ?)",
            [(name, "2026-12-01 20:00:00") for name in names],
        )
        old.commit()
        old.close()
        with contextlib.redirect_stderr(io.StringIO()):
            upgrade()
        new = sqlite3.connect(path)
        keyed = new.execute(
            "SELECT name, alike_head, alike_tail FROM member ORDER BY id"
        ).fetchall()
        indexes = {row[1] for row in new.execute("PRAGMA index_list(member)")}
        new.close()
        db.session.remove()
        db.engine.dispose()
    assert keyed == [(name, alike_keys.head(name), alike_keys.tail(name)) for name in names]
    assert {"ix_member_alike_head", "ix_member_alike_tail"} <= indexes
