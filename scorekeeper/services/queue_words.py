"""What a phone says of the deals waiting on it to be sent (static/offline.js, scorer_form.js).

The one home of these sentences: they reach the phone with what its scorer is told of a game
(services/scorer.py, GET /t/<secret>/scorer, kept by the worker for no signal), so the phone's
scripts copy none. `{deal}`, `{winners}`, `{total}` and `{why}` are filled in on the phone.
No sentence ends on a colon: each says all it means (issue 40).
"""

from __future__ import annotations

QUEUE_WORDS: dict[str, str] = {
    # Save tapped on figures the phone refuses: nothing is sent or kept to send.
    "refused_save": (
        "Not saved. This phone refuses the figures listed below, as the server would; "
        "correct them, then save."
    ),
    # Figures the phone cannot judge (no words of the game name them): the server judges.
    "unjudged": (
        "This phone cannot work these figures out; they are sent as they are, and the "
        "server judges them when the deal is saved."
    ),
    "unjudged_after": (
        "This phone cannot work this deal out until deal {deal}, waiting before it, is sent; "
        "the server judges it when it is saved."
    ),
    # The scoreboard with the deals waiting counted.
    "provisional": "With the deals waiting to send on this phone, provisional until they are sent.",
    "over": (
        "By these, the game is over, won by {winners} with {total}; no next deal is offered "
        "until the server has them."
    ),
    "partial": "Deals from {deal} on are not in these totals.",
    "chart": (
        "The chart shows only the deals the server has; those waiting to send are listed below."
    ),
    # A deal waiting, as its row says why it is not counted.
    "row_refused": "Not counted; this phone refuses it. {why}",
    "row_unjudged": "Not counted; the server judges it when it is sent.",
    "row_after": "Not counted until deal {deal} is sent.",
    "row_stale": "Not counted; the server has a deal {deal} already.",
    # A deal waiting behind one the server refused, which the person fixes or discards first.
    "behind": "waiting to send after deal {deal}, which needs you first.",
}
