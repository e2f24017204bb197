"""A game's state as the API answers it, built as its models (answers.py): the GameState, a game
just started (NewGame), and each side's own line of the next deal (Parts)."""

from __future__ import annotations

from flask import url_for

from scorekeeper.plumbing.models import Game
from scorekeeper.rules.terms import DEALS_PER_PAGE
from scorekeeper.services import game_view, history_read, links, side_lines
from scorekeeper.web.api.answers import (
    DealScore,
    GameDeal,
    GameSide,
    GameState,
    NewGame,
    NextGame,
    Part,
    Parts,
    SavedRulesLink,
)
from scorekeeper.web.api.history_answers import deal_agreement, deal_history


def part(line: side_lines.Line) -> Part:
    """One side's line of the next deal as the API gives it."""
    entry = line.entry.to_dict() if line.entry is not None else None
    return Part(
        side=line.side,
        name=line.name,
        is_in=line.is_in,
        sent_by=line.sent_by,
        mine=line.mine,
        problem=line.problem,
        entry=entry,
    )


def parts_answer(number: int | None, lines: list[side_lines.Line]) -> Parts:
    """The next deal's lines, one per side, while the deal waits for those not in."""
    return Parts(deal=number, saved=False, parts=[part(line) for line in lines])


def new_game(game: Game, link: str) -> GameState:
    """A game just started: its state, and the secret and `link` told once, to its starter."""
    return game_state(game, answer=NewGame, key=game.secret, link=link)


def game_state(
    game: Game, deals_from: int = 1, answer: type[GameState] = GameState, **told: str
) -> GameState:
    """The game as the JSON API shows it: its totals, and DEALS_PER_PAGE deals from `deals_from`
    (as `answer`, with what else it is `told`)."""
    view = game_view.game_view(game)
    total = len(view.entries)
    last = deals_from - 1 + DEALS_PER_PAGE
    following = url_for(".game", game_id=game.id, deals_from=last + 1) if last < total else None
    # Each listed deal's history and agreement (issue 40): one query for the page's deals.
    records = history_read.deal_records(game, deals_from, last)
    names = [side.name for side in view.sides]
    saved, upcoming = game.saved_rules, view.next_game
    return answer(
        id=game.id,
        url=links.path_of(game),
        ruleset=game.ruleset,
        house_rules=game.house_rules or {},
        # The club's saved rule set the game started from, as it is called now; and its name
        # when the game started (kept if the saved rule set is renamed or deleted since).
        saved_rules=SavedRulesLink(id=saved.id, name=saved.name) if saved is not None else None,
        rules_name=game.rules_name,
        # The rules in force: the preset with the house rules applied.
        rules=view.rules.to_dict(),
        decks=view.decks,
        finished=view.finished,
        winners=[side.name for side in view.winners],
        # None when no deal can be entered: the game is over, or holds its most deals.
        next_deal=view.next_deal,
        deal_limit=view.rules.deal_limit,
        deal_limit_reached=view.deal_limit_reached,
        # Who sits where (partners apart) and who deals: the deal passes to the left.
        first_dealer=view.first_dealer,
        seats=view.seats,
        next_dealer=view.next_dealer,
        sides=[
            GameSide(
                name=side.name,
                players=side.players,
                total=total,
                next_opening_minimum=least,
                par=kept.par,
            )
            for side, total, least, kept in zip(
                view.sides, view.totals, view.next_minimums, game.sides, strict=True
            )
        ],
        deals=[
            GameDeal(
                number=deal.number,
                version=deal.version,
                dealer=deal.dealer,
                warnings=deal.warnings,
                scores=[
                    DealScore(
                        side=side.name,
                        total=score.total,
                        running_total=running,
                        minimum_applied=least,
                        breakdown=score.breakdown(),
                        entry=entry,
                    )
                    for side, score, running, least, entry in zip(
                        view.sides,
                        deal.scores,
                        deal.totals,
                        deal.minimums,
                        deal.entries,
                        strict=True,
                    )
                ],
                history=deal_history(records[deal.number]),
                agreement=deal_agreement(records[deal.number].agreement, names),
            )
            for deal in view.deals(deals_from, last)
        ],
        deals_total=total,
        deals_from=deals_from,
        next=following,
        # Each side's own line of the next deal, as sent so far (none once no deal can be added).
        parts=[part(line) for line in view.lines],
        # The table's next game (Play again): whoever reads this game holds its link already.
        next_game=(
            NextGame(id=upcoming.id, url=upcoming.path, started_by=upcoming.started_by)
            if upcoming is not None
            else None
        ),
        **told,
    )
