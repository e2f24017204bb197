"""A game in words: its rules' name and changes, the winners, the whole game as text to share."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Game
from scorekeeper.rules import Progress
from scorekeeper.rules.terms import (
    MELDED_BLACK_THREES,
    MELDED_BLACK_THREES_LABEL,
    figure,
    signed,
)
from scorekeeper.services.games.replay import progress_of, rules_of


def changed_rules(game: Game) -> list[tuple[str, str, str]]:
    """A game's house rules: (what, the preset's rule, the game's rule), as a card shows them."""
    preset_rules, played_rules = engine.PRESETS[game.ruleset], rules_of(game)
    preset = {k.path: k for k in engine.knobs(preset_rules)}
    played = {k.path: k for k in engine.knobs(played_rules)}
    changed = [
        (knob.label, f"{preset[path].value:,}" if path in preset else "0", f"{knob.value:,}")
        for path, knob in played.items()
        if path not in preset or preset[path].value != knob.value
    ]
    if preset_rules.melded_black_threes != played_rules.melded_black_threes:
        changed.append(
            (
                MELDED_BLACK_THREES_LABEL,
                MELDED_BLACK_THREES[preset_rules.melded_black_threes],
                MELDED_BLACK_THREES[played_rules.melded_black_threes],
            )
        )
    return changed


def rules_title(game: Game) -> str:
    """The name a game's rules go by: the club's saved rule set, else the preset's."""
    return rules_called(game.rules_name, game.ruleset)


def rules_called(rules_name: str | None, ruleset: str) -> str:
    """What a club calls a game's rules, from the game's two columns: the saved rule set's name
    it started with ("Thursday rules"), else its preset's ("Classic partnership")."""
    preset = engine.PRESETS.get(ruleset)
    return rules_name or (preset.name if preset else ruleset)


def winners_text(game: Game, progress: Progress) -> str:
    """Who won, for any side name: "Winner: Us, 7,975" or "Shared win: A and B, 2,000 each"."""
    if not progress.winners:
        return ""
    names = " and ".join(game.sides[i].name for i in progress.winners)
    best = figure(progress.totals[progress.winners[0]])
    if len(progress.winners) > 1:
        return f"Shared win: {names}, {best} each"
    return f"Winner: {names}, {best}"


def summary_text(game: Game) -> str:
    """The game in plain text to share: rules, date, sides, every deal, the totals, the winner."""
    progress = progress_of(game)

    def line(figures: Sequence[int], shown: Callable[[int], str] = figure) -> str:
        pairs = zip(game.sides, figures, strict=True)
        return ", ".join(f"{side.name} {shown(n)}" for side, n in pairs)

    lines = [f"Hand and Foot: {rules_title(game)}, {game.played_on.strftime('%d %b %Y')}"]
    for side in game.sides:
        players = [p.name for p in side.players]
        lines.append(side.name if players == [side.name] else f"{side.name}: {', '.join(players)}")
    lines.append("")
    for result in progress.deals:
        lines.append(f"Deal {result.number}: {line([s.total for s in result.scores], signed)}")
    lines.append(f"Final: {line(progress.totals)}")
    if progress.finished:
        lines.append(winners_text(game, progress))
    return "\n".join(lines) + "\n"


ASIDE = re.compile(r" \(.*?\)")


def rules_described(game: Game, longest: int = 120) -> str:
    """A game's rules in a line: the preset's name and what the table changed in it."""
    # "Red three caught (points lost)" reads as "red three caught" in a name.
    changes = [f"{ASIDE.sub('', what).lower()} {played}" for what, _, played in changed_rules(game)]
    text = ", ".join([rules_of(game).name, *changes])
    return text if len(text) <= longest else text[: longest - 1].rstrip(", ") + "…"
