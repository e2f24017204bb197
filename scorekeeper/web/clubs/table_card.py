"""The club's table link as its organisers share it (issue 28): its QR code, a table card to
print, and a new link once confirmed.

Organisers only, as the settings that show the link: whoever holds the table link plays with
it, and hands it on as it came to them; the organiser decides who gets it, and may replace it.
"""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for

from scorekeeper.services import clubs
from scorekeeper.web.access import RESOURCE_POLICY, Level, code_matches, remember_table
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import ActionForm
from scorekeeper.web.sharing import TABLE_LABEL, qr_picture, table_invitation

# A confirmation sent with an expired token (a phone left asleep on the page): nothing done.
EXPIRED = "The link was not replaced: the page had expired. Make a new link again, or keep it."


@bp.get("/<slug>/table/<code>/qr.svg")
def table_qr(slug: str, code: str):
    """The table link as a QR code (SVG), drawn as a game's is (web/sharing.qr_svg).

    The club's access check comes first: a stranger gets what any page of the club would give
    them (404 for a private club) and learns nothing of the code. Then the code the address
    names: an old link's picture is a 404, as the old link is. Sent no-store, as every answer
    an organiser's sign-in alone opens (web/club_pages.py): the address names the code. It
    is under the table link's own path, which every access log blanks (plumbing/logs.py).
    """
    club, _ = club_or_404(slug, Level.ORGANISER)
    if not code_matches(club, code):
        abort(404)
    response = qr_picture(table_invitation(club).link, TABLE_LABEL)
    # For this site's pages only: no other site's <img> is handed it.
    response.headers["Cross-Origin-Resource-Policy"] = RESOURCE_POLICY
    return response


@bp.get("/<slug>/settings/table-card")
def table_card(slug: str):
    """The table link to print and put on the table: its QR code, big, and the link written out."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    return render_template("clubs/table_card.html", club=club, invite=table_invitation(club))


@bp.route("/<slug>/settings/table-link", methods=["GET", "POST"])
@refilled_when_expired
def new_table_link(slug: str):
    """A new table link, once confirmed: the old one stops working at once, on every phone and
    printed card. A GET only asks; the POST (its CSRF token) replaces the code."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = ActionForm()
    if form.validate_on_submit():
        clubs.replace_table_code(club)
        remember_table(club)
        flash("New table link made: the old one no longer works. Share the new one.")
        return redirect(url_for(".settings", slug=slug))
    # The one way a POST is refused: its CSRF token (errors.refilled_when_expired sends it here).
    refused = [EXPIRED] if request.method == "POST" else []
    return render_template(
        "clubs/table_link_new.html", club=club, action=form, problems=refused
    ), 422 if refused else 200
