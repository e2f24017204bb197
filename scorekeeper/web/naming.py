"""`POST /name`: the answer to "Who is holding this phone?" (web/phone_name.py keeps it)."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for

from scorekeeper.web.phone_name import ask_name, keep_name

bp = Blueprint("phone_name", __name__)
# Whether a game's page asks (templates/_ask_name.html).
bp.add_app_template_global(ask_name, "ask_name")


@bp.post("/name")
def give_name():
    """Keep the name this phone goes by (or that it skipped), then back to the page it was on.

    `skip` keeps "" (asked no more); `quiet` (the phone's script) answers 204 rather than the
    page again. A name with nothing left once cleaned counts as skipped.
    """
    keep_name(None if request.form.get("skip") else request.form.get("name"))
    if request.form.get("quiet"):
        return "", 204
    back = request.form.get("next") or ""
    # Only a path of this site: never another site's address passed in the form.
    if not back.startswith("/") or back.startswith(("//", "/\\")):
        back = url_for("home.index")
    return redirect(back, 303)
