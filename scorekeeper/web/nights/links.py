"""A night's read-only link (issue 37): `/n/<secret>` its live board for the hall's TV,
`/n/<secret>/results` its results for everyone (one printed sheet), `/n/<secret>/qr.svg` the
link as a QR code; and, for those who run the club's nights, a new link replacing the old.

The link opens that night's board and results and nothing else: nothing is kept in the session,
so the phone or TV holding it has no level in the club (its other pages, its games, every write
are refused as to a stranger), and the board shows the tables' totals with no game's link. Its
secret is turned into the night's id before the view runs (`open_night_secret`, a URL value
preprocessor for the whole app, as `web/access.open_game_link` is for a game's secret): a miss
counts against the same allowance, and another site's `<img>` or fetch gets a 404 that looks
nothing up.
"""

from __future__ import annotations

from flask import (
    Response,
    abort,
    after_this_request,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from scorekeeper.plumbing.db import db, reading_only
from scorekeeper.plumbing.models import Club, Night
from scorekeeper.plumbing.security import never_keep
from scorekeeper.services import board_words, clubs, links
from scorekeeper.services.access import may_run_nights
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import links as night_links
from scorekeeper.services.nights import play as night_play
from scorekeeper.web import access
from scorekeeper.web.access import Level, refuse, require
from scorekeeper.web.forms import ActionForm
from scorekeeper.web.nights import bp
from scorekeeper.web.sharing import Invitation, base_url, qr_picture

# The URL value a night's read-only link carries, opened here before any view.
NIGHT_SECRET = "night_secret"
LABEL = "QR code of the night's board link"
# How often the board asks whether anything changed (ms), and how long each of its pages shows
# when the standings or tables do not fit the screen (static/board.js turns them): every row
# is seen again within CYCLE_MS, a page showing at most PAGE_MS.
BOARD_POLL = 1000
PAGE_MS = 6000
CYCLE_MS = 15000
EXPIRED = "The page had expired: press the button again."


@bp.app_url_value_preprocessor
def open_night_secret(endpoint: str | None, values: dict | None) -> None:
    """Turn a route's board secret into the night's id before anything else runs, or stop: 404
    for a wrong one (a miss counted, as a game link's), 429 once the address missed too often.

    App-wide, after `web/access.open_game_link` and, like it, before every view and the CSRF
    check (a url value preprocessor): any route naming `<night_secret>` passes here.
    """
    if not values or NIGHT_SECRET not in values:
        return
    secret = values.pop(NIGHT_SECRET)
    after_this_request(_for_this_site_only)
    if access.from_another_site():
        abort(404)  # looked up nothing, counted nothing
    with reading_only():  # the lookup reads: see access.open_game_link
        match night_links.open_night_link(secret, access.counted_address()):
            case night_links.NightFound(night_id, club_id):
                values["night_id"] = night_id
                g.night_club = club_id
            case links.TooManyMisses(retry_after):
                raise access.LinkRefused(retry_after)
            case _:
                abort(404)


def _for_this_site_only(response: Response) -> Response:
    """As a game's answers: for this site's pages only, cached apart by what asked."""
    response.headers["Cross-Origin-Resource-Policy"] = access.RESOURCE_POLICY
    response.vary.update(access.FETCH_METADATA)
    return response


@bp.get("/n/<night_secret>")
def link_board(night_id: int):
    """The night's live board, read only; 304 while nothing changed since the ETag sent."""
    # A revocable link: no phone or TV keeps its pages past the visit.
    never_keep()
    version = night_board.board_version(g.night_club, night_id)
    if version is None:
        abort(404)
    if request.if_none_match.contains_weak(version):
        response = current_app.response_class(status=304)
    else:
        found = _night(night_id)
        page = render_template(
            "clubs/night_board.html",
            club=found.club,
            view=night_board.night_view(found),
            poll=BOARD_POLL,
            version=version,
            read_only=True,
        )
        response = current_app.response_class(page, mimetype="text/html")
    response.set_etag(version)
    return response


@bp.get("/n/<night_secret>/results")
def link_results(night_id: int):
    """The night's results for everyone: standings, each round's tables, each player's line to
    share, and the link's QR code; one printed sheet."""
    never_keep()
    found = _night(night_id)
    view = night_board.night_view(found)
    lines = board_words.share_lines(found.club.name, found.played_on, view.standings)
    return render_template(
        "night_links/results.html",
        club=found.club,
        view=view,
        words=board_words.words_of(view),
        lines=lines,
        link=_invitation(found),
    )


@bp.get("/n/<night_secret>/qr.svg")
def link_qr_code(night_id: int):
    """The night's read-only link as a QR code (a private, short cache, as a game's code)."""
    found = _night(night_id)
    response = qr_picture(_invitation(found).link, LABEL)
    response.cache_control.private = True
    response.cache_control.max_age = 600
    return response.make_conditional(request)


@bp.route("/clubs/<slug>/nights/<int:night_id>/board-link", methods=["GET", "POST"])
def new_link(slug: str, night_id: int):
    """A board link for the night (made at once if it has none); a new one replacing it once
    confirmed: the GET asks, the POST (its CSRF token) makes it and the old opens nothing."""
    club = _runner(slug)
    found = night_play.night_of(club, night_id)
    if found is None:
        abort(404)
    form = ActionForm()
    back = url_for(".night", slug=slug, night_id=night_id, _anchor="board-link")
    if form.validate_on_submit():
        if found.board_secret is None:
            night_links.board_secret(found)
            flash("The night's board link is made: open it on the hall's screen.")
        else:
            night_links.new_board_link(found)
            flash("New board link made: the old one no longer opens the board.")
        return redirect(back)
    refused = [EXPIRED] if request.method == "POST" else []
    page = render_template(
        "night_links/new_link.html",
        club=club,
        night=found,
        action=form,
        problems=refused,
        back=back,
    )
    return page, 422 if refused else 200


@bp.app_template_global()
def night_link_of(night: Night) -> Invitation | None:
    """The night's read-only link in full and its QR code's address (None: none made yet)."""
    return _invitation(night) if night.board_secret else None


@bp.app_template_global()
def board_words_of(view: night_board.NightView) -> board_words.BoardWords:
    """The board's sentences (services/board_words.py) for the night as it stands."""
    return board_words.words_of(view)


@bp.app_context_processor
def paging():
    """What static/board.js is told to turn the board's pages by: from here, never its own."""
    return {"page_ms": PAGE_MS, "cycle_ms": CYCLE_MS, "page_words": board_words.PAGE_WORDS}


def _invitation(night: Night) -> Invitation:
    secret = night.board_secret or ""
    link = base_url().rstrip("/") + night_links.path_of(secret)
    qr_url = url_for("nights.link_qr_code", night_secret=secret)
    return Invitation(link, qr_url, qr_label=LABEL)


def _night(night_id: int) -> Night:
    found = db.session.get(Night, night_id)
    if found is None:
        abort(404)
    return found


def _runner(slug: str) -> Club:
    """The club, for a visitor who may run its nights, else the club pages' refusal."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    level = require(club, Level.TABLE)
    never_keep()  # an organiser's page, as web/clubs/ marks theirs
    if not may_run_nights(club, level):
        refuse(level)
    return club
