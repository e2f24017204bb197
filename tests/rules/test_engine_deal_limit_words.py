"""The deal limit's refusal counts its deals as people do: 1 deal, 2 deals."""

import pytest

from scorekeeper.rules import DealRefused, extend, play, ruleset

from ._engine_support import NOTHING, teams

BLANK = [NOTHING, NOTHING]


@pytest.mark.parametrize(("limit", "words"), [(1, "limit of 1 deal:"), (2, "limit of 2 deals:")])
def test_the_limit_reached_names_its_deals_in_the_right_number(limit, words):
    rules = ruleset("ten-thousand", {"deal_limit": limit})
    progress = play(rules, 3, teams(2), [BLANK] * limit)
    with pytest.raises(DealRefused) as refused:
        extend(rules, 3, teams(2), progress, BLANK)
    assert words in refused.value.refusals[0].message
