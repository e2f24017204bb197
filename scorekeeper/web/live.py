"""Every phone at the table in step: the live answer, who is entering, and working offline."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask import (
    Blueprint,
    abort,
    current_app,
    g,
    jsonify,
    render_template,
    request,
    send_file,
    url_for,
)

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club
from scorekeeper.services import deals, live
from scorekeeper.services.names import phone_name
from scorekeeper.web.access import Level, require_table

bp = Blueprint("live", __name__)
DEAL = re.compile(r"[1-9][0-9]{0,3}")


def _require(game_id: int, club_id: int | None, needed: Level) -> Level:
    """The visitor's level for this game of this club, or 404/403 (as for every game page)."""
    return require_table(db.session.get(Club, club_id) if club_id else None, needed, game_id)


def _device(value: str | None) -> str | None:
    """The phone's id as sent, if it is one: made as a page's key is (deals.FORM_KEY)."""
    return value if value and deals.FORM_KEY.fullmatch(value) else None


@bp.get("/t/<secret>/live")
def game(game_id: int):
    """The game's version and who else is entering its next deal; 304 when nothing changed.

    Phones poll this with the ETag of their last answer, the game's live version. An unchanged
    game is answered from the version read with the game's link: for a casual game that one
    query is all (a club game also reads its club, for who may look), and the answer an empty
    304. Only a changed game reads its deals, who is entering and the sides' lines.
    """
    _require(game_id, g.game_club, Level.READ)
    etag = f"v{g.live_version}"
    # An answer that listed a phone entering is tagged "…e": a phone put away says nothing,
    # so whoever holds that answer is given a fresh one, without the name once it is stale.
    # Weakly compared: an answer over 1 KB goes gzipped with a weak tag (plumbing/compress.py).
    if request.if_none_match.contains_weak(etag):
        return _live_answer(current_app.response_class(status=304), etag)
    state = live.table_state(game_id, _device(request.args.get("device")))
    if state is None:
        abort(404)
    if state.entering:
        etag += "e"
    answer = state.as_json(lambda secret: url_for("games.scoreboard", secret=secret))
    body = json.dumps(answer, separators=(",", ":"))
    return _live_answer(current_app.response_class(body, mimetype="application/json"), etag)


def _live_answer(response, etag: str):
    response.set_etag(etag)
    # Always ask again: the ETag makes asking cheap.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/t/<secret>/entering")
def entering(game_id: int):
    """A phone says it has deal N's form open (or, with `leaving`, that it has closed it)."""
    row = live.game_row(game_id)
    if row is None:
        abort(404)
    _require(game_id, row.club_id, Level.TABLE)
    device = _device(request.form.get("device"))
    deal = request.form.get("deal", "")
    if device is None or not DEAL.fullmatch(deal):
        return jsonify(error="Give 'device' (32 hex digits) and 'deal' (a deal number)."), 400
    if request.form.get("leaving"):
        live.stop_entering(game_id, device)
    else:
        # Shown to every phone at the table: no control, invisible or right-to-left characters.
        name = phone_name(request.form.get("name"))
        if not live.say_entering(game_id, device, name, int(deal)):
            # Refused out loud rather than ignored: a script learns it gains nothing, and a real
            # phone (static/app.js says so every 5 s) is listed once another stops.
            wait = int(live.FRESH.total_seconds())
            answer = jsonify(
                error=f"This game already lists {live.MAX_ENTERING} phones entering a deal; "
                f"yours is listed once one of them stops (within {wait} seconds)."
            )
            answer.headers["Retry-After"] = str(wait)
            return answer, 429
    return "", 204


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the site's root so that it may look after every page."""
    path = Path(current_app.static_folder or "static") / "sw.js"
    response = send_file(path, mimetype="text/javascript", max_age=0)
    # A phone checks for a new worker on every visit rather than keeping an old one a day.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """What the phone shows for a page it never opened while there was signal."""
    return render_template("offline.html")
