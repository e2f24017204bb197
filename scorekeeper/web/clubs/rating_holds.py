"""How games started from the table link count (the settings page's section, organisers only),
and the games held for an organiser's review: listed, confirmed one by one or all at once
(services/rating_holds.py says the rules and their words)."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, url_for
from flask_wtf import FlaskForm
from wtforms import RadioField

from scorekeeper.plumbing.models import Club
from scorekeeper.services import rating_holds
from scorekeeper.web.access import Level
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.forms import ActionForm


class TableGamesForm(FlaskForm):
    """How games from the table link count; any value taken here, refused in words below."""

    table_games = RadioField(
        "Games started from the table link",
        choices=[(key, label) for key, (label, _) in rating_holds.TABLE_GAMES.items()],
        validate_choice=False,
    )


@bp.app_template_global()
def table_games_of(club: Club) -> dict[str, Any]:
    """What the settings page's section shows: the form, each choice's words, the rule that
    holds a game whatever the choice, and how many games are held now."""
    return {
        "form": TableGamesForm(data={"table_games": club.table_games}),
        "meaning": {key: words for key, (_, words) in rating_holds.TABLE_GAMES.items()},
        "rule": rating_holds.HELD_RULE,
        "held": rating_holds.held_count(club),
    }


@bp.app_template_global()
def held_count_of(club: Club) -> int:
    """How many of the club's games are held for review (the club's page, organisers)."""
    return rating_holds.held_count(club)


@bp.app_template_global()
def held_note_of(game: Any) -> str | None:
    """The words a held game's page says: held until confirmed, and why; None if it counts."""
    if not getattr(game, "held_from_ratings", False):
        return None
    why = rating_holds.WHY_HELD.get(game.rating_review or "", "")
    return f"{rating_holds.HELD_NOTE} {why}".strip()


@bp.post("/<slug>/settings/table-games")
def table_games(slug: str):
    """Set how the club counts games from its table link."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = TableGamesForm()
    if form.validate_on_submit():
        try:
            rating_holds.choose(club, form.table_games.data or "")
        except rating_holds.HoldRefused as exc:
            flash(str(exc), "error")
        else:
            label, _ = rating_holds.TABLE_GAMES[club.table_games]
            flash(f"Games started from the table link: {label}.")
    return redirect(url_for(".settings", slug=slug) + "#table-games")


@bp.get("/<slug>/held")
def held(slug: str):
    """The club's games held out of its standings and ratings, the oldest first."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    return render_template(
        "clubs/held.html",
        club=club,
        held=rating_holds.held_games(club),
        count=rating_holds.held_count(club),
        listed=rating_holds.LISTED,
        rule=rating_holds.HELD_RULE,
        choice=rating_holds.TABLE_GAMES[club.table_games][0],
        form=ActionForm(),
    )


@bp.post("/<slug>/held/<int:game_id>/confirm")
def confirm_held(slug: str, game_id: int):
    """Count one held game from now on."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    if ActionForm().validate_on_submit():
        if rating_holds.confirm(club, [game_id]):
            flash(f"Game {game_id} confirmed: it counts in the standings and ratings.")
        else:
            flash(f"Game {game_id} is not held (confirmed already, or deleted).", "error")
    return redirect(url_for(".held", slug=slug))


@bp.post("/<slug>/held/confirm-all")
def confirm_all_held(slug: str):
    """Count every held game the list shows from now on."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    if ActionForm().validate_on_submit():
        confirmed = rating_holds.confirm_all(club)
        flash(f"{confirmed:,} game{'' if confirmed == 1 else 's'} confirmed.")
    return redirect(url_for(".held", slug=slug))
