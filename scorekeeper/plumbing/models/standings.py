"""A member's figures in a club's games, kept for the standings: per game, and per club night."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Date, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.clubs import Club, Member
from scorekeeper.plumbing.models.games import Side

# What a side counts up over a game, kept on it and on its members' results.
COUNTS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "special_books",
    "went_out",
    "red_threes_caught",
)
# The columns a standings query reads, all in one index so the database never visits the table.
RESULT_FIGURES = ("won", "final_total", "deals_played", *COUNTS)


class MemberResult(db.Model):
    """A member's result in one finished club game: their side's figures, for the standings.

    Kept in step by the score sheet whenever a club game is saved; a partner shares the team's
    figures. One narrow row per member and game lets the database sum standings from one index.
    """

    __tablename__ = "member_result"
    __table_args__ = (
        Index(
            "ix_member_result_standings",
            "club_id",
            "member_id",
            "played_on",
            "ruleset",
            "saved_rules_id",
            *RESULT_FIGURES,
        ),
        Index("ix_member_result_member", "member_id", "played_on"),
        # A club night's results, re-added into member_day after every change.
        Index("ix_member_result_day", "club_id", "played_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"))
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"))
    played_on: Mapped[date] = mapped_column(Date)
    ruleset: Mapped[str] = mapped_column(String(40))
    # The club's saved rule set the game was played under; 0 for none (a plain number, not a
    # key: a deleted saved rule set leaves its games' results as they were).
    saved_rules_id: Mapped[int] = mapped_column(default=0)
    won: Mapped[bool]
    final_total: Mapped[int]
    deals_played: Mapped[int]
    clean_books: Mapped[int]
    dirty_books: Mapped[int]
    wild_books: Mapped[int]
    special_books: Mapped[int]
    went_out: Mapped[int]
    red_threes_caught: Mapped[int]

    club: Mapped[Club] = relationship()
    member: Mapped[Member] = relationship()
    side: Mapped[Side] = relationship()


class MemberDay(db.Model):
    """A member's results summed over one club night and rule set: what standings add up.

    Rebuilt from `member_result` for a club's day whenever a game of that day changes, so a
    season's standings read a few rows per club night instead of one per member and game.
    """

    __tablename__ = "member_day"
    __table_args__ = (
        UniqueConstraint(
            "club_id", "played_on", "ruleset", "saved_rules_id", "member_id", name="uq_member_day"
        ),
        Index(
            "ix_member_day_standings",
            "club_id",
            "played_on",
            "member_id",
            "ruleset",
            "saved_rules_id",
            "games",
            *RESULT_FIGURES,
        ),
        # The same figures in member order, without the day: the standings over every season
        # (or one rule set) sum them member by member as they come, with no sort of every row
        # (at 10,000 games, 29 ms became 13 on SQLite). A date range still reads the index
        # above, whose days it can skip to; this one, without the day, cannot answer it alone.
        Index(
            "ix_member_day_by_member",
            "club_id",
            "member_id",
            "ruleset",
            "saved_rules_id",
            "games",
            *RESULT_FIGURES,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    # Derived figures: they go with their member (who, with games, cannot be deleted anyway).
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id", ondelete="CASCADE"))
    played_on: Mapped[date] = mapped_column(Date)
    ruleset: Mapped[str] = mapped_column(String(40))
    saved_rules_id: Mapped[int] = mapped_column(default=0)
    games: Mapped[int]
    # Here `won` counts the games won that day.
    won: Mapped[int]
    final_total: Mapped[int]
    deals_played: Mapped[int]
    clean_books: Mapped[int]
    dirty_books: Mapped[int]
    wild_books: Mapped[int]
    special_books: Mapped[int]
    went_out: Mapped[int]
    red_threes_caught: Mapped[int]
