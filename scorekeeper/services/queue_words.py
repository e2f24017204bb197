"""What a phone says of the deals waiting on it to be sent (static/offline.js, scorer_form.js).

The one home of these sentences: they reach the phone with what its scorer is told of a game
(services/scorer.py, GET /t/<secret>/scorer, kept by the worker for no signal), so the phone's
scripts copy none. `{deal}`, `{winners}`, `{total}` and `{why}` are filled in on the phone.
No sentence ends on a colon: each says all it means (issue 40).
"""

from __future__ import annotations

QUEUE_WORDS: dict[str, str] = {
    # The server's breakdown of the figures on a form differs from the phone's: it is shown.
    "differs": (
        "This phone worked out other figures than the server's; the server's are shown, and "
        "they are what is saved."
    ),
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
    # The list of what waits (offline.js): each deal, correction or side's line as its row names
    # it and as its Discard button and question do (a side's name is never lowercased).
    "row_deal": "Deal {deal}",
    "row_correction": "Correction of deal {deal}",
    "row_line": "Line for {side}, deal {deal}",
    "said_deal": "deal {deal}",
    "said_correction": "correction of deal {deal}",
    "said_line": "the line for {side}, deal {deal}",
    "entered": "{what}, entered at {at}",
    "row_waiting": "{what} · waiting to send",
    "waiting": "waiting to send.",
    "open": "Open it",
    "discard": "Discard",
    "discard_label": "Discard {what}",
    "discard_sure": "Discard {what}? Its figures are lost.",
    "a_side": "A side",
    # The server's answer to a deal the phone sent, by its status (sw_outbox.js keeps the status).
    "sent_409": (
        "Another phone saved this deal meanwhile, or the game ended. Look at both and decide."
    ),
    "sent_422": "The server refused a figure. Open it to see which.",
    "sent_400": "This phone's session ran out. Open it to send it again.",
    "sent_403": "This phone may no longer enter deals in this game.",
    "sent_404": "This game is no longer on the server.",
    "sent_other": "It could not be sent. Open it to try again.",
    # A side's own line meets other things than a whole deal does.
    "line_409": (
        "The deal was saved meanwhile, or another phone sent a later line for this side. "
        "Open it to see both."
    ),
    "line_422": "The server refused a figure of this line. Open it to see which.",
}

# What the deal and line forms say themselves (static/scorer_form.js), which their `data-stated`
# carries: the rest is said on the pages that list the deals waiting, which ask for it.
ON_THE_FORM = ("refused_save", "unjudged", "unjudged_after", "differs")
