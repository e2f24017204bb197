"""Rebuild every stored figure from the deals' entries: after a preset is fixed, or a restore.

The entries are the record. Each deal score's total, each side's figures, each game's
finished mark, the club members' results and their nightly sums are derived from them
(`figures.py`), and so are the club players' ratings (`ratings/kept.py`); this replays every
game through the engine and puts right whatever differs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import RESULT_FIGURES, Club, Deal, Game, MemberDay, Side
from scorekeeper.services import figures, games
from scorekeeper.services.ratings import kept

BATCH = 200


@dataclass
class Report:
    """What a recompute found different from the entries, and put right."""

    games: int = 0
    deal_totals: int = 0
    sides: int = 0
    finished: int = 0
    member_results: int = 0
    clubs: int = 0
    # Rating and rating-step rows that differed from the games folded again in order.
    ratings: int = 0
    # Games whose deals no longer add up under today's rules: left exactly as they were.
    refused: list[tuple[int, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether anything stored differed from what the entries give."""
        return any(
            (
                self.deal_totals,
                self.sides,
                self.finished,
                self.member_results,
                self.clubs,
                self.ratings,
            )
        )

    def lines(self) -> list[str]:
        """The report in words, one line per kind of figure."""
        lines = [
            f"{self.games:,} games replayed from their entries.",
            f"Deal totals put right: {self.deal_totals:,}",
            f"Sides' figures put right: {self.sides:,}",
            f"Games finished or unfinished put right: {self.finished:,}",
            f"Games whose members' results were put right: {self.member_results:,}",
            f"Clubs whose nightly sums were put right: {self.clubs:,}",
            f"Ratings and rating steps put right: {self.ratings:,}",
        ]
        for game_id, why in self.refused:
            lines.append(f"Game {game_id} left as it was: {why}")
        if not self.changed:
            lines.append("Every stored figure already matched the entries.")
        return lines


def recompute(*, dry_run: bool = False, progress: Callable[[int], None] | None = None) -> Report:
    """Replay every game and rebuild what is stored from it; with dry_run, only report."""
    report = Report()
    # Nights first, from the results as stored: a result put right below re-adds its own night
    # when it is committed, which would hide a night that was wrong on its own.
    for club_id in db.session.execute(select(Club.id)).scalars():
        report.clubs += _rebuild_nights(club_id)
    _finish(dry_run)
    last = 0
    while True:
        query = (
            select(Game)
            .where(Game.id > last)
            .order_by(Game.id)
            .limit(BATCH)
            .options(
                selectinload(Game.sides).selectinload(Side.players),
                selectinload(Game.deals).selectinload(Deal.scores),
                selectinload(Game.results),
                selectinload(Game.club),
            )
        )
        batch = list(db.session.execute(query).scalars())
        if not batch:
            break
        for game in batch:
            _recompute_game(game, report)
        last = batch[-1].id
        _finish(dry_run)
        if progress is not None:
            progress(report.games)
    # Ratings last, from the games as put right above (a game finished or not since).
    for club in db.session.execute(select(Club).order_by(Club.id)).scalars():
        report.ratings += kept.recompute_club(club, dry_run=dry_run)
        _finish(dry_run)
    return report


def _finish(dry_run: bool) -> None:
    if dry_run:
        db.session.rollback()
    else:
        db.session.commit()


def _recompute_game(game: Game, report: Report) -> None:
    report.games += 1
    entries = games.entries_of(game)
    try:
        # Stored deals are recomputed as they were saved, not checked again.
        rules, sides = games.rules_of(game), games.sides_of(game)
        progress = engine.play(rules, game.decks, sides, entries, check=False)
    except (engine.DealRefused, engine.RulesError) as exc:
        report.refused.append((game.id, str(exc)))
        return
    for deal, result in zip(game.deals, progress.deals, strict=True):
        for row, score in zip(deal.scores, result.scores, strict=True):
            if row.total != score.total:
                row.total = score.total
                report.deal_totals += 1
    kept = figures.side_figures(len(game.sides), progress, entries)
    for side, side_figures in zip(game.sides, kept, strict=True):
        if any(getattr(side, name) != value for name, value in side_figures.items()):
            report.sides += 1
            for name, value in side_figures.items():
                setattr(side, name, value)
    finished = games.finished_when(game, progress, games.now())
    if finished != game.finished_at:
        report.finished += 1
        game.finished_at = finished
    if game.club is not None and _results(game) != _expected_results(game, progress.finished):
        report.member_results += 1
        figures.keep_member_results(game, progress.finished)


def _results(game: Game) -> list[tuple]:
    """The member results stored for a game, comparable."""
    return sorted(
        (r.member_id, r.side_id, r.played_on, r.ruleset, *(getattr(r, n) for n in RESULT_FIGURES))
        for r in game.results
    )


def _expected_results(game: Game, finished: bool) -> list[tuple]:
    """The member results the game's sides give (none until it is finished)."""
    return sorted(
        (
            player.member_id,
            side.id,
            game.played_on,
            game.ruleset,
            *(getattr(side, n) for n in RESULT_FIGURES),
        )
        for side, player in figures.member_results_of(game, finished)
    )


def _rebuild_nights(club_id: int) -> int:
    """Re-add every club night's sums from the members' results: 1 if they differed, else 0."""
    before = _nights(club_id)
    figures.refresh_member_days(club_id)
    return int(_nights(club_id) != before)


def _nights(club_id: int) -> list[tuple]:
    columns = (
        MemberDay.member_id,
        MemberDay.played_on,
        MemberDay.ruleset,
        MemberDay.games,
        *(getattr(MemberDay, n) for n in RESULT_FIGURES),
    )
    query = select(*columns).where(MemberDay.club_id == club_id)
    return sorted(tuple(row) for row in db.session.execute(query))
