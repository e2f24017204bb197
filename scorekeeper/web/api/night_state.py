"""A club night as the API answers it, built as its models (NightBrief, Night: club_answers.py):
its date, rules and rounds, each round's tables with their games (their keys only to those who
may score them), the night's standings and the next round as the engine seats it now."""

from __future__ import annotations

from typing import Any

from flask import url_for

from scorekeeper.plumbing.models import Night
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services import links
from scorekeeper.services.access import TO_ENTER, may_run_nights
from scorekeeper.services.games.words import rules_called
from scorekeeper.services.nights import board as night_board
from scorekeeper.web.access import Level
from scorekeeper.web.api.club_answers import Night as NightAnswer
from scorekeeper.web.api.club_answers import (
    NightBrief,
    NightGame,
    NightRound,
    NightSide,
    NightStanding,
    NightTable,
)
from scorekeeper.web.sharing import base_url


def night_brief(night: Night, slug: str) -> NightBrief:
    """A night as a list shows it."""
    return NightBrief(**_about(night, slug), players=len(night.players))


def _about(night: Night, slug: str) -> dict[str, Any]:
    """What a night is (NightAbout's fields): its date, rules, tables, partners and rounds."""
    return {
        "id": night.id,
        "url": url_for(".night", slug=slug, night_id=night.id),
        "played_on": night.played_on.isoformat(),
        "rules_called": rules_called(night.rules_name, night.ruleset),
        "ruleset": night.ruleset,
        "saved_rules_id": night.saved_rules_id,
        "shape": night.shape,
        "partners": night.partners,
        "sit_out": night.sit_out,
        "ranking": night.ranking,
        "rounds_planned": night.rounds_planned,
        "rounds_seated": len(night.rounds),
        "finished_at": night.finished_at.isoformat() if night.finished_at else None,
    }


def night_answer(night: Night, slug: str, level: Level) -> NightAnswer:
    """The night as its page shows it; its games' keys only to those who may score them."""
    view = night_board.night_view(night)
    scoring = level >= TO_ENTER
    return NightAnswer(
        **_about(night, slug),
        may_run=may_run_nights(night.club, level),
        draw=night.draw,
        sit_out_rule=view.sit_out_rule,
        ranking_rule=view.ranking_rule,
        players=night.players,
        rounds=[
            NightRound(
                number=r.number,
                tables=[_table(t, scoring) for t in r.tables],
                sitting_out=r.sitting_out,
            )
            for r in view.rounds
        ],
        round_over=view.round_over,
        done=view.done,
        standings=[
            NightStanding(
                rank=s.rank,
                name=s.name,
                points=s.points,
                games=s.games,
                wins=s.wins,
                sat_out=s.sat_out,
                average=s.average,
                score=s.score,
                not_ranked=s.unranked or None,
            )
            for s in view.standings
        ],
        next_round=view.next_round,
        why_no_next=view.why_no_next or None,
    )


def _table(table: night_board.BoardTable, scoring: bool) -> NightTable:
    """A table of a round: its sides, their totals, and its game for those who may score it."""
    scores, chances = dict(enumerate(table.scores)), dict(enumerate(table.chances))
    game = None
    if scoring and table.secret is not None and table.game_id is not None:
        path = links.LINK_PREFIX + table.secret
        link = base_url().rstrip("/") + path
        game = NightGame(id=table.game_id, key=table.secret, url=path, link=link)
    return NightTable(
        number=table.number,
        title=table.title,
        sides=[
            NightSide(
                name=PARTNERS.join(side),
                players=side,
                total=scores[i].total if i in scores else None,
                won=scores[i].won if i in scores else False,
                chance=chances.get(i),
            )
            for i, side in enumerate(table.sides)
        ],
        deals=table.deals,
        finished=table.finished,
        game=game,
    )
