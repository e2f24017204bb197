"""A club's saved rule sets: a preset and the numbers the club plays differently, checked as a
new game's rules are, one of them the club's default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, SavedRules
from scorekeeper.rules import Refusal, RuleSet
from scorekeeper.rules.house import off_the_fives
from scorekeeper.rules.terms import MAX_NAME
from scorekeeper.services import games
from scorekeeper.services.club_refusals import ClubRefused, RulesRefused, check_name
from scorekeeper.services.names import squeezed
from scorekeeper.services.ratings import kept


def saved_rules(club: Club, rules_id: int) -> SavedRules | None:
    """One of the club's saved rule sets by id, or None (another club's is None too)."""
    found = db.session.get(SavedRules, rules_id) if 0 < rules_id < 2**63 else None
    return found if found is not None and found.club_id == club.id else None


def default_rules(club: Club) -> SavedRules | None:
    """The club's default saved rule set, if it has one."""
    return next((rules for rules in club.saved_rules if rules.is_default), None)


def create_saved_rules(
    club: Club, name: str, ruleset: str, house_rules: Mapping[str, Any] | None = None
) -> SavedRules:
    """A new saved rule set: a preset and the club's changes, checked as a new game's are."""
    name = _saved_name(club, name, None)
    overrides = dict(house_rules or {})
    _check_rules(ruleset, overrides)
    saved = SavedRules(name=name, ruleset=ruleset, house_rules=overrides, is_default=False)
    club.saved_rules.append(saved)
    db.session.commit()
    return saved


def update_saved_rules(saved: SavedRules, name: str, house_rules: Mapping[str, Any]) -> None:
    """Rename a saved rule set or change its numbers; games already started keep their own."""
    name = _saved_name(saved.club, name, saved)
    overrides = dict(house_rules or {})
    _check_rules(saved.ruleset, overrides)
    saved.name, saved.house_rules = name, overrides
    db.session.commit()


def delete_saved_rules(saved: SavedRules) -> None:
    """Remove a saved rule set; its games keep their numbers and the name they started with."""
    # The foreign key sets it NULL too; said here as well, so the session's games agree.
    db.session.execute(
        update(Game).where(Game.saved_rules_id == saved.id).values(saved_rules_id=None)
    )
    kept.forget_scope(saved.club_id, f"{kept.SAVED}{saved.id}")
    db.session.delete(saved)
    db.session.commit()


def make_default(club: Club, saved: SavedRules | None) -> None:
    """The saved rule set club games start from unless another is chosen; None for no default."""
    if saved is not None and saved.club_id != club.id:
        raise ClubRefused("Choose one of this club's own rule sets.")
    for rules in club.saved_rules:
        rules.is_default = saved is not None and rules.id == saved.id
    db.session.commit()


def games_by_saved_rules(club: Club) -> dict[int, int]:
    """How many finished games each of the club's saved rule sets was played with, by its id."""
    query = (
        select(Game.saved_rules_id, func.count())
        .where(
            Game.club_id == club.id,
            Game.saved_rules_id.is_not(None),
            Game.finished_at.is_not(None),
        )
        .group_by(Game.saved_rules_id)
    )
    return {rules_id: count for rules_id, count in db.session.execute(query)}


def _saved_name(club: Club, name: str, saved: SavedRules | None) -> str:
    """The name cleaned, or ClubRefused: printable, short, and no other of the club's has it."""
    name = squeezed(name or "")
    check_name(name, "The rule set's name")
    if not 1 <= len(name) <= MAX_NAME:
        raise ClubRefused(f"A rule set needs a name of up to {MAX_NAME} characters.")
    for other in club.saved_rules:
        if other is not saved and other.name.casefold() == name.casefold():
            raise ClubRefused(f"The club already has a rule set called {other.name}.")
    return name


def _check_rules(ruleset: str, overrides: dict[str, Any]) -> RuleSet:
    """The preset with these house rules, or RulesRefused naming each rule (as a new game)."""
    try:
        rules = games.rules_for(ruleset, overrides)
    except games.GameRefused as exc:
        raise RulesRefused([_rule_problem(r) for r in exc.refusals]) from exc
    # Points off the fives would be refused when a game starts from these rules: refused now.
    off = off_the_fives(rules)
    if off:
        raise RulesRefused(off)
    return rules


def _rule_problem(refusal: Refusal) -> tuple[str, str]:
    """A refusal of a house rule as (the rule's path, or "" for none; the message)."""
    path = refusal.figures[0][1] if refusal.figures else ""
    return path.removeprefix("rules.") if path.startswith("rules.") else "", refusal.message
