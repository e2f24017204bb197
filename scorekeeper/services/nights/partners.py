"""What a night's pages say of its partners (issue 38): how they are chosen, in a few words and,
for pairs balanced by rating, how; and fixed partners' pairs once drawn, with the player who has
no partner, if any. The one home of these words: templates/clubs/night.html and the new-night
form read them.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.plumbing.models import Night
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services.nights import pairs as night_pairs
from scorekeeper.services.nights import seating as night_seating
from scorekeeper.services.nights.play import BALANCED_RULING
from scorekeeper.services.nights.seating import BALANCED, FIXED, FIXED_BALANCED, ROTATING

# The lead line of the night's page: "partners stay fixed".
SAID = {
    ROTATING: "partners rotate",
    FIXED: "partners stay fixed",
    BALANCED: "partners balanced by rating",
    FIXED_BALANCED: "partners stay fixed, pairs balanced by rating",
}
# How pairs balanced by rating are drawn, said on the night's form and page.
FIXED_BALANCED_RULING = (
    "Fixed partners balanced by rating: before round 1 the players are ranked by the club's "
    "ratings, and the strongest partners the weakest, the second strongest the second weakest, "
    "and so on, so the pairs are as even as can be; with an odd number of players the middle "
    "one has no partner and plays in for whoever sits out. The pairs then meet in a round "
    "robin as fixed partners do."
)
# Before round 1 is seated the pairs shown are those its draw makes: by lot, a draw again
# draws other pairs; balanced by rating, the ratings make the same pairs again.
NOT_YET_KEPT = "Drawn with round 1: drawing round 1 again draws other pairs."
NOT_YET_KEPT_BALANCED = (
    "Drawn with round 1 from the ratings: drawing round 1 again keeps these pairs and changes "
    "who meets whom first."
)


@dataclass(frozen=True)
class PairsShown:
    """Fixed partners' pairs as the night's page shows them."""

    pairs: tuple[str, ...]  # "Ann & Bob", in the round robin's order
    spare: str  # the sentence on the player without a partner ("" if none)
    kept: bool  # kept with round 1 (else drawn with round 1's seating, not yet seated)


def not_yet_kept(partners: str) -> str:
    """What drawing round 1 again does to pairs shown before it is seated."""
    return NOT_YET_KEPT_BALANCED if partners == FIXED_BALANCED else NOT_YET_KEPT


def ruling(partners: str) -> str:
    """What balancing by rating does, for a night balanced by rating ("" for any other)."""
    return {BALANCED: BALANCED_RULING, FIXED_BALANCED: FIXED_BALANCED_RULING}.get(partners, "")


def said(partners: str) -> str:
    """ "partners stay fixed": how a night's partners are chosen, for its page's lead line."""
    return SAID.get(partners, partners)


def spare_words(name: str) -> str:
    """The sentence on the player without a partner: who sits out goes round, them included."""
    return (
        f"{name} has no partner tonight: each round one player sits out in turn, {name} among "
        f"them, and {name} plays in for whoever sits out."
    )


def shown(night: Night) -> PairsShown | None:
    """A fixed partners' night's pairs: those kept with round 1, else those round 1's draw
    makes; None for other partners (or no pairs can be drawn)."""
    if not night_seating.is_fixed(night.partners):
        return None
    names = {night_pairs.player_key(p): p.name for p in night.players}
    if night.pairs:
        by_id = {p.id: p.name for p in night.players}
        pairs = [tuple(by_id[i] for i in team) for team in night.pairs["teams"]]
        spare = [by_id[i] for i in night.pairs.get("spare", [])]
    elif night.rounds or night.finished_at is not None:
        return None  # a night kept before issue 38: its pairs are its round 1's
    else:
        drawn = night_seating.pairs_drawn(night)
        pairs = [tuple(names[k] for k in team) for team in drawn.teams]
        spare = [names[k] for k in drawn.spare]
    return PairsShown(
        tuple(PARTNERS.join(team) for team in pairs),
        spare_words(spare[0]) if spare else "",
        bool(night.pairs),
    )
