"""Helpers shared by the tests of deals refused (test_engine_refusals*.py): refusals found, one."""

import pytest

from scorekeeper.rules import DealEntry, DealRefused, check_deal, ruleset, score_deal

from ._engine_support import teams

E = DealEntry


def refusals_of(key, decks, entries, sides=None):
    """The refusals of one deal; also checks score_deal raises exactly those."""
    rules = ruleset(key)
    sides = sides or teams(len(entries))
    found = check_deal(rules, decks, sides, entries)
    if found:
        with pytest.raises(DealRefused) as refused:
            score_deal(rules, decks, sides, entries)
        assert refused.value.refusals == found
    return found


def only(found):
    """The single refusal of a list that must hold exactly one."""
    assert len(found) == 1, found
    return found[0]
