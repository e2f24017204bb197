"""A club night kept (issue 29): the night's page (its rounds' tables with their table cards,
Seat round N, players come and gone; once over, its results alone) and the night board for the
room. The club's nights and a new night's form: `night_hub.py`; checking in from a phone:
`night_checkin.py`.

Organisers open and run a night, and so do phones holding the club's table link where the club
allows it (`services/access.may_run_nights`: seat rounds, draw a seating again, players come and
gone, end the night); organisers and the table link see it and its board (Level.TABLE: the
board links every table's game, which that link may score); anyone else is refused as on any
club page that needs the table link (404 in a private club, 403 in a public one).
"""

from __future__ import annotations

from flask import abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import IntegerField, StringField
from wtforms.validators import Optional

from scorekeeper.plumbing.models import Club, Night
from scorekeeper.services import room_words
from scorekeeper.services.access import may_run_nights
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import checkin as night_checkin
from scorekeeper.services.nights import partners as night_partners
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights import schedule_words as night_schedule_words
from scorekeeper.web.access import Level, refuse
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.forms import ActionForm
from scorekeeper.web.nights import bp
from scorekeeper.web.sharing import LABEL

# How often the board asks whether anything changed (ms): a deal saved shows within 2 s.
BOARD_POLL = 1000
EXPIRED = "The page had expired: press the button again."


class ComeForm(FlaskForm):
    """Someone come late: a member, or a guest's name."""

    member = IntegerField("Member", validators=[Optional()])
    guest = StringField("Or a guest's name", render_kw={"autocapitalize": "words"})


@bp.get("/clubs/<slug>/nights/<int:night_id>")
def night(slug: str, night_id: int):
    """The night: each round's tables with their games and table cards; for organisers, Seat
    round N once a round is over, and players come and gone."""
    club, level = _club(slug, Level.TABLE)
    return _night_page(club, _night_or_404(club, night_id), level)


@bp.post("/clubs/<slug>/nights/<int:night_id>/seat")
def night_seat(slug: str, night_id: int):
    """Seat the next round as the page showed it and start its tables' games; 422 with why not
    (a seating drawn again since is not seated unseen, nor a round seated already: a double
    tap)."""
    club, level = _runner(slug)
    found = _night_or_404(club, night_id)
    if not ActionForm().validate_on_submit():
        return _night_page(club, found, level, [EXPIRED])
    try:
        seated = night_play.seat_round(found, _drawn(), _number(request.form.get("round", "")))
    except night_play.NightRefused as refused:
        return _night_page(club, found, level, [w for _, w in refused.problems])
    flash(f"Round {seated.number} seated: {len(seated.games)} tables' games started.")
    return redirect(
        url_for(".night", slug=slug, night_id=night_id, _anchor=f"round-{seated.number}")
    )


@bp.post("/clubs/<slug>/nights/<int:night_id>/draw")
def night_draw(slug: str, night_id: int):
    """Draw the next round's seating again, before it is seated; 422 with why not."""
    club, level = _runner(slug)
    found = _night_or_404(club, night_id)
    if not ActionForm().validate_on_submit():
        return _night_page(club, found, level, [EXPIRED])
    try:
        planned = night_play.draw_again(found, _drawn())
    except night_play.NightRefused as refused:
        return _night_page(club, found, level, [w for _, w in refused.problems])
    flash(f"Round {planned.number} drawn again: check the new seating, then seat it.")
    return redirect(url_for(".night", slug=slug, night_id=night_id, _anchor="next-round"))


@bp.post("/clubs/<slug>/nights/<int:night_id>/rounds/<int:number>/draw")
def night_redraw(slug: str, night_id: int, number: int):
    """Draw round `number` again while no table has a deal: its games deleted, seated anew."""
    club, level = _runner(slug)
    found = _night_or_404(club, night_id)
    if not ActionForm().validate_on_submit():
        return _night_page(club, found, level, [EXPIRED])
    try:
        seated = night_play.redraw_round(found, _drawn(), number)
    except night_play.NightRefused as refused:
        return _night_page(club, found, level, [w for _, w in refused.problems])
    flash(f"Round {seated.number} drawn again: {len(seated.games)} tables' games started anew.")
    return redirect(url_for(".night", slug=slug, night_id=night_id, _anchor=f"round-{number}"))


@bp.post("/clubs/<slug>/nights/<int:night_id>/finish")
def night_finish(slug: str, night_id: int):
    """End the night once no table plays: no round is seated after it."""
    club, level = _runner(slug)
    found = _night_or_404(club, night_id)
    if not ActionForm().validate_on_submit():
        return _night_page(club, found, level, [EXPIRED])
    try:
        night_play.finish_night(found)
    except night_play.NightRefused as refused:
        return _night_page(club, found, level, [w for _, w in refused.problems])
    flash("The night has ended.")
    return redirect(url_for(".night", slug=slug, night_id=night_id))


@bp.post("/clubs/<slug>/nights/<int:night_id>/players")
def night_come(slug: str, night_id: int):
    """Someone come late (seated from the next round), or `leave`: someone gone early."""
    club, level = _runner(slug)
    found = _night_or_404(club, night_id)
    form = ComeForm()
    if not form.validate_on_submit():
        return _night_page(club, found, level, [m for ms in form.errors.values() for m in ms])
    try:
        leaving = _number(request.form.get("leave", ""))
        if leaving is not None:
            who = night_play.player_leaves(found, leaving)
            flash(f"{who.name} has gone: not seated from round {len(found.rounds) + 1}.")
        else:
            who = night_play.add_player(found, form.member.data, form.guest.data or "")
            flash(f"{who.name} is here: seated from round {len(found.rounds) + 1}.")
    except night_play.NightRefused as refused:
        return _night_page(club, found, level, [w for _, w in refused.problems])
    return redirect(url_for(".night", slug=slug, night_id=night_id, _anchor="players"))


@bp.get("/clubs/<slug>/nights/<int:night_id>/board")
def night_board_page(slug: str, night_id: int):
    """The night board for the room: every table live, the standings, the next round; 304
    when nothing changed since the ETag sent (one query past the club's)."""
    club, _ = _club(slug, Level.TABLE)
    version = night_board.board_version(club.id, night_id)
    if version is None:
        return current_app.response_class(status=404)
    # Weak comparison, as If-None-Match is defined: the page goes gzipped, so its tag is weak
    # (plumbing/compress.py) and a browser sends W/"..." back; `in` would match strong tags only.
    if request.if_none_match.contains_weak(version):
        response = current_app.response_class(status=304)
    else:
        view = night_board.night_view(_night_or_404(club, night_id))
        page = render_template(
            "clubs/night_board.html", club=club, view=view, poll=BOARD_POLL, version=version
        )
        response = current_app.response_class(page, mimetype="text/html")
    response.set_etag(version)
    return response


def _night_page(club: Club, found: Night, level: Level, problems: list[str] | None = None):
    view = night_board.night_view(found)
    here = {p.member_id for p in found.players if p.left_after is None}
    number = len(view.rounds) + (1 if view.round_over else 0)
    page = render_template(
        "clubs/night.html",
        club=club,
        view=view,
        runs=may_run_nights(club, level),
        schedule=night_play.schedule_place(found) if view.next_round else None,
        # What the players present for the next round give, and how tonight's group stands
        # to its whist schedule (issue 38): services' words.
        room=room_words.next_round_words(found) if view.next_round else "",
        group_change=night_schedule_words.said(found) if not view.done else "",
        no_draw=night_play.why_no_draw(found, number),
        problems=problems or [],
        action=ActionForm(),
        come=ComeForm(formdata=None),
        absent=[m for m in club.members if not m.archived and m.id not in here],
        qr_label=LABEL,
        # How partners are chosen, fixed partners' pairs and the player without one (issue
        # 38): night_partners' words.
        partners_said=night_partners.said(found.partners),
        partners_ruling=night_partners.ruling(found.partners),
        pairs_not_yet_kept=night_partners.not_yet_kept(found.partners),
        # Players checked in from their own phones (issue 37): listed for the organisers to
        # undo; "I'm here" offered to a table-link phone where the club allows it.
        by_self=night_checkin.by_self(found),
        check_in=night_checkin.may_check_in(club, level) and level < Level.ORGANISER,
    )
    return page, 422 if problems else 200


def _club(slug: str, needed: Level) -> tuple[Club, Level]:
    """The club and the visitor's level; a night's pages name its games' links, so no phone
    keeps them, even in a public club (web/club_pages.py keep_only_public_pages)."""
    club, level = club_or_404(slug, needed)
    g.public_club_page = False
    return club, level


def _runner(slug: str) -> tuple[Club, Level]:
    """The club, for a visitor who may run its nights (organisers; the table link where the
    club allows it), or the refusal any page above the visitor's level gives (404 or 403)."""
    club, level = _club(slug, Level.TABLE)
    if not may_run_nights(club, level):
        refuse(level)
    return club, level


def _drawn() -> int | None:
    """The draw the page was showing (its seating), if it said."""
    return _number(request.form.get("draw", ""))


def _number(sent: str) -> int | None:
    """A count sent in a form, or None: ASCII digits only ("²".isdigit() is true too)."""
    return int(sent) if sent.isascii() and sent.isdigit() and len(sent) < 10 else None


def _night_or_404(club: Club, night_id: int) -> Night:
    found = night_play.night_of(club, night_id)
    if found is None:
        abort(404)
    return found
