"""A club night kept (issue 29): its players, its rounds and each round's tables' games."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Date, DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.games import SECRET_LENGTH
from scorekeeper.plumbing.models.times import now, today
from scorekeeper.rules.terms import MAX_NAME

if TYPE_CHECKING:
    from scorekeeper.plumbing.models.clubs import Club, Member
    from scorekeeper.plumbing.models.games import Game


class Night(db.Model):
    """One evening of a club's tables: the rules every table plays, how it seats, its rounds."""

    __tablename__ = "night"
    __table_args__ = (UniqueConstraint("board_secret", name="uq_night_board_secret"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    played_on: Mapped[date] = mapped_column(Date, default=today)
    # The rules, as a game keeps them: the preset, its house rules, the saved rule set and its
    # name then (kept if the saved rule set is renamed or deleted since).
    ruleset: Mapped[str] = mapped_column(String(40))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    saved_rules_id: Mapped[int | None] = mapped_column(
        ForeignKey("saved_rules.id", ondelete="SET NULL")
    )
    rules_name: Mapped[str | None] = mapped_column(String(MAX_NAME))
    shape: Mapped[str] = mapped_column(String(16))  # services/nights.SHAPES: fours, sixes...
    partners: Mapped[str] = mapped_column(String(16))  # rotating | fixed
    rounds_planned: Mapped[int]
    # How a round sat out counts in the night's standings: "no game" (not counted: ranked by
    # the average of the games played) or "zero" (a game of 0 points).
    sit_out: Mapped[str] = mapped_column(String(16))
    # How the night's standings rank its players (services/nights/ranking.RANKINGS). Nights kept
    # before issue 37 rank as they did then: "average" (per game, every player ranked).
    ranking: Mapped[str] = mapped_column(String(16), default="average", server_default="average")
    # The read-only link of the night's board and results (/n/<secret>): for the hall's TV and
    # for everyone afterwards; it scores nothing. Replaced (revoked) by its organisers; made
    # when the night opens (None for a night kept before issue 37 until one is asked for).
    board_secret: Mapped[str | None] = mapped_column(String(SECRET_LENGTH))
    # One more with every change (a round seated, a player come or gone): the board's ETag,
    # with its tables' games' live versions.
    version: Mapped[int] = mapped_column(default=0)
    # How many times the next round's seating was drawn again ("Draw again", or a round with no
    # deal yet reseated): part of the seed, so each draw is another seating, and every reload
    # of one draw the same.
    draw: Mapped[int] = mapped_column(default=0)
    # Fixed partners (issue 38): the pairs drawn with round 1, in their round robin's order, as
    # night_player ids, and the spare (the player without a pair, who plays in for whoever sits
    # out): {"teams": [[id, id], ...], "spare": [id]}. None: not fixed, round 1 not seated, or a
    # night kept before issue 38 (its pairs are round 1's partners).
    pairs: Mapped[dict[str, list[Any]] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    club: Mapped[Club] = relationship()
    players: Mapped[list[NightPlayer]] = relationship(
        back_populates="night", order_by="NightPlayer.id", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[NightRound]] = relationship(
        back_populates="night", order_by="NightRound.number", cascade="all, delete-orphan"
    )


class NightPlayer(db.Model):
    """Someone at the night: a member (None: a guest, or a member deleted since) and the name
    they had that night; from which round, and after which round they left (None: still here)."""

    __tablename__ = "night_player"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"), index=True)
    # Indexed: a member deleted or merged finds their nights' rows by it.
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("member.id", ondelete="SET NULL"), index=True
    )
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    from_round: Mapped[int] = mapped_column(default=1)
    left_after: Mapped[int | None]
    # Checked in from their own phone through the table link (where the club allows it), not
    # ticked by the organiser: the night's page marks them, and an organiser may undo it.
    by_self: Mapped[bool] = mapped_column(default=False, server_default=sa_false())

    night: Mapped[Night] = relationship(back_populates="players")
    member: Mapped[Member | None] = relationship()


class NightRound(db.Model):
    """A round seated: its number, and who sat it out (night_player ids)."""

    __tablename__ = "night_round"
    __table_args__ = (UniqueConstraint("night_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"))
    number: Mapped[int]
    sitting_out: Mapped[list[int]] = mapped_column(JSON, default=list)

    night: Mapped[Night] = relationship(back_populates="rounds")
    tables: Mapped[list[NightTable]] = relationship(
        back_populates="round", order_by="NightTable.number", cascade="all, delete-orphan"
    )


class NightTable(db.Model):
    """A table of a round: its number, its sides as seated (night_player ids, side by side, in
    the game's order) and the game it plays (None once that game is deleted)."""

    __tablename__ = "night_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("night_round.id", ondelete="CASCADE"))
    number: Mapped[int]
    sides: Mapped[list[list[int]]] = mapped_column(JSON)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL"), index=True
    )

    round: Mapped[NightRound] = relationship(back_populates="tables")
    game: Mapped[Game | None] = relationship()
