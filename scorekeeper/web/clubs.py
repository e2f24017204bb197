"""Club pages: standings, history, members, seasons, settings, export and import."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import login_required
from markupsafe import Markup

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Club, SavedRules
from scorekeeper.plumbing.security import NO_STORE
from scorekeeper.services import clubs, creations, games, records, records_import
from scorekeeper.services import standings as club_standings
from scorekeeper.web import svg_charts
from scorekeeper.web.access import (
    MY_TABLES_KEPT,
    Level,
    club_level,
    code_matches,
    organiser,
    remember_table,
    require,
)
from scorekeeper.web.club_forms import (
    ActionForm,
    ClubForm,
    DefaultRulesForm,
    ImportForm,
    MergeForm,
    NameForm,
    SavedRulesForm,
    SeasonForm,
    SettingsForm,
    StandingsFilter,
    saved_rules_form,
)
from scorekeeper.web.creating import too_many
from scorekeeper.web.forms import house_rules_of, knob_field
from scorekeeper.web.rulecards import PLAYER_COUNTS

bp = Blueprint("clubs", __name__, url_prefix="/clubs")
# Ids and page numbers from a query string: plain ASCII digits, far below any integer limit.
SMALL_NUMBER = re.compile(r"[0-9]{1,6}")


def club_or_404(slug: str, needed: Level = Level.READ) -> tuple[Club, Level]:
    """The club and the visitor's level in it, or 404/403."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    level = require(club, needed)
    # Only what any stranger may read is fit to keep on a phone (see keep_only_public_pages).
    g.public_club_page = club.standings_public and level < Level.ORGANISER
    return club, level


@bp.after_request
def keep_only_public_pages(response: Response) -> Response:
    """Organiser-only answers and a private club's pages go out no-store: no phone keeps them.

    Closed unless a view said otherwise: a page that shows its club as any stranger sees a
    public club may be kept; everything else here (settings, import, the clubs you run, a
    private club's members and standings, any organiser's view) never outlives the session.
    """
    # Popped: two requests in one app context (a test's) must not share the mark.
    if not g.pop("public_club_page", False):
        response.headers["Cache-Control"] = NO_STORE
    return response


def filters(club: Club) -> tuple[StandingsFilter, club_standings.Filters]:
    """The filter form from the query string, and the filters it means (default: this season)."""
    form = StandingsFilter(request.args)
    form.season.choices = [("", "This season"), ("all", "All seasons")] + [
        (str(s.id), s.name) for s in club.seasons
    ]
    form.ruleset.choices = [("", "Every rule set")] + club_standings.ruleset_choices(club)
    form.validate()
    chosen = form.season.data or ""
    if chosen == "all" or form.start.data or form.end.data:
        season = None
    elif SMALL_NUMBER.fullmatch(chosen):
        season = clubs.season(club, int(chosen))
    else:
        season = clubs.current_season(club, datetime.now(UTC).date())
    ruleset, saved_rules_id = club_standings.chosen_rules(club, form.ruleset.data)
    player = request.args.get("player", "")
    member_id = int(player) if SMALL_NUMBER.fullmatch(player) else None
    chosen = {"ruleset": ruleset, "member_id": member_id, "saved_rules_id": saved_rules_id}
    if season is not None:
        return form, club_standings.Filters.for_season(season, **chosen)
    return form, club_standings.Filters(form.start.data, form.end.data, **chosen)


@bp.get("")
def index():
    """The clubs you run, and a way to start one."""
    mine = organiser().clubs if organiser() else []
    return render_template("clubs/index.html", clubs=mine)


@bp.route("/new", methods=["GET", "POST"])
@login_required
def new():
    """Create a club; you become its organiser."""
    form = ClubForm()
    if form.validate_on_submit():
        # Counted with the club, in its transaction: a club refused below is not counted.
        refused = creations.allow(creations.CLUB, request.remote_addr)
        if refused is not None:
            return too_many(refused)
        try:
            club = clubs.create_club(
                form.name.data, form.slug.data, organiser(), public=form.public.data
            )
        except clubs.ClubRefused as exc:
            form.slug.errors.append(str(exc))
        else:
            flash(f"{club.name} is ready. Add your members, then share the table link.")
            return redirect(url_for(".members", slug=club.slug))
    return render_template("clubs/new.html", form=form), 422 if form.errors else 200


@bp.route("/<slug>/table/<code>", methods=["GET", "POST"])
def table_link(slug: str, code: str):
    """The table link: whoever holds it may start games and enter deals.

    Opening it (GET) only shows a button; the phone keeps the link when the button is tapped
    (a POST, with its CSRF token). A GET changes nothing: another site's `<img>` or link could
    otherwise fill a visitor's session with clubs of its choosing (issue 26).
    """
    club = clubs.club_by_slug(slug)
    if club is None or not code_matches(club, code):
        abort(404)
    form = ActionForm()
    if form.validate_on_submit():
        remember_table(club)
        flash(f"This phone can now start games and enter deals for {club.name}.")
        return redirect(url_for(".overview", slug=slug))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "clubs/table_link.html", club=club, form=form, tables_kept=MY_TABLES_KEPT
    ), status


@bp.get("/<slug>")
def overview(slug: str):
    """The club at a glance: games in progress, this season's leaders, recent games."""
    club, level = club_or_404(slug)
    form, chosen = filters(club)
    leaders = club_standings.standings(club, chosen)[:5]
    recent, _ = club_standings.history(club, club_standings.Filters())
    playing = club_standings.in_progress(club) if level >= Level.TABLE else []
    return render_template(
        "clubs/overview.html",
        club=club,
        level=level,
        Level=Level,
        leaders=leaders,
        recent=recent[:5],
        playing=playing,
        filters=chosen,
    )


@bp.get("/<slug>/standings")
def standings(slug: str):
    """The standings, sortable, for a season, a date range or a rule set."""
    club, level = club_or_404(slug)
    form, chosen = filters(club)
    sort = request.args.get("sort", "win_rate")
    rows = club_standings.standings(club, chosen, sort)
    return render_template(
        "clubs/standings.html",
        club=club,
        level=level,
        form=form,
        rows=rows,
        sort=sort if sort in club_standings.SORTS else "win_rate",
        sorts=club_standings.SORTS,
        filters=chosen,
        args={k: v for k, v in request.args.items() if k != "sort"},
    )


@bp.get("/<slug>/games")
def history(slug: str):
    """Finished games, filterable by season, player and rule set."""
    club, level = club_or_404(slug)
    form, chosen = filters(club)
    raw_page = request.args.get("page", "1")
    page = int(raw_page) if SMALL_NUMBER.fullmatch(raw_page) and int(raw_page) > 0 else 1
    games, more = club_standings.history(club, chosen, page)
    return render_template(
        "clubs/history.html",
        club=club,
        form=form,
        games=games,
        page=page,
        more=more,
        filters=chosen,
        args={k: v for k, v in request.args.items() if k != "page"},
    )


@bp.route("/<slug>/members", methods=["GET", "POST"])
def members(slug: str):
    """The member list; organisers add members here."""
    club, level = club_or_404(slug)
    form = NameForm()
    if request.method == "POST":
        require(club, Level.ORGANISER)
        if form.validate_on_submit():
            try:
                added = clubs.add_member(club, form.name.data)
            except clubs.ClubRefused as exc:
                form.name.errors.append(str(exc))
            else:
                flash(f"{added.name} added.")
                return redirect(url_for(".members", slug=slug))
    return render_template(
        "clubs/members.html",
        club=club,
        level=level,
        Level=Level,
        form=form,
        action=ActionForm(),
    ), 422 if form.errors else 200


@bp.get("/<slug>/members/<int:member_id>")
def member(slug: str, member_id: int):
    """A member's figures, form and results over the season."""
    club, level = club_or_404(slug)
    target = clubs.member(club, member_id)
    if target is None:
        abort(404)
    form, chosen = filters(club)
    results = club_standings.results_of(target, chosen)
    rows = club_standings.standings(club, chosen)
    figures = next((r for r in rows if r.member_id == target.id), None)
    labels = [r.played_on.strftime("%d %b") for r in results]
    chart = Markup(
        svg_charts.bar_chart(
            f"{target.name}: final score in each game",
            labels,
            [r.total for r in results],
            highlight=[r.won for r in results],
        )
    )
    table = Markup(
        svg_charts.chart_table(
            f"{target.name}: final score in each game",
            labels,
            [svg_charts.Series("Final score", [r.total for r in results])],
        )
    )
    merge = MergeForm()
    merge.into.choices = [(m.id, m.name) for m in club.members if m.id != target.id]
    return render_template(
        "clubs/member.html",
        club=club,
        level=level,
        Level=Level,
        member=target,
        form=form,
        filters=chosen,
        results=results,
        figures=figures,
        chart=chart,
        table=table,
        played=clubs.games_of_member(target),
        action=ActionForm(),
        merge=merge,
    )


@bp.post("/<slug>/members/<int:member_id>/<change>")
def change_member(slug: str, member_id: int, change: str):
    """Archive, restore, merge or delete a member (organisers only)."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    target = clubs.member(club, member_id)
    if target is None or change not in ("archive", "restore", "merge", "delete"):
        abort(404)
    form = MergeForm() if change == "merge" else ActionForm()
    if change == "merge":
        form.into.choices = [(m.id, m.name) for m in club.members if m.id != target.id]
    if not form.validate_on_submit():
        flash("That did not go through: reload the page and try again.", "error")
        return redirect(url_for(".member", slug=slug, member_id=member_id))
    try:
        if change == "delete":
            name = target.name
            clubs.delete_member(target)
            flash(f"{name} removed.")
            return redirect(url_for(".members", slug=slug))
        if change == "merge":
            into = clubs.member(club, form.into.data)
            clubs.merge_members(target, into)
            flash(f"Merged into {into.name}: their games are now one record.")
            return redirect(url_for(".member", slug=slug, member_id=into.id))
        clubs.set_archived(target, change == "archive")
        flash(f"{target.name} {'archived' if change == 'archive' else 'restored'}.")
    except clubs.ClubRefused as exc:
        flash(str(exc), "error")
    return redirect(url_for(".member", slug=slug, member_id=member_id))


@bp.route("/<slug>/seasons", methods=["GET", "POST"])
def seasons(slug: str):
    """The club's seasons; organisers add them."""
    club, level = club_or_404(slug)
    form = SeasonForm()
    if request.method == "POST":
        require(club, Level.ORGANISER)
        if form.validate_on_submit():
            try:
                added = clubs.add_season(
                    club, form.name.data, form.starts_on.data, form.ends_on.data
                )
            except clubs.ClubRefused as exc:
                form.ends_on.errors.append(str(exc))
            else:
                flash(f"Season {added.name} added.")
                return redirect(url_for(".seasons", slug=slug))
    return render_template(
        "clubs/seasons.html", club=club, level=level, Level=Level, form=form
    ), 422 if form.errors else 200


@bp.route("/<slug>/settings", methods=["GET", "POST"])
def settings(slug: str):
    """Name, visibility, ranking threshold, the table link and organisers."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = SettingsForm(
        data={
            "name": club.name,
            "public": club.standings_public,
            "min_games": club.min_games_ranked,
        }
        if request.method == "GET"
        else None
    )
    if form.validate_on_submit():
        try:
            clubs.update_settings(
                club, name=form.name.data, public=form.public.data, min_games=form.min_games.data
            )
        except clubs.ClubRefused as exc:
            form.name.errors.append(str(exc))
        else:
            flash("Settings saved.")
            return redirect(url_for(".settings", slug=slug))
    link = url_for(".table_link", slug=slug, code=club.table_code, _external=True)
    return render_template(
        "clubs/settings.html",
        club=club,
        form=form,
        link=link,
        action=ActionForm(),
        organiser_form=NameForm(prefix="organiser"),
    ), 422 if form.errors else 200


@bp.post("/<slug>/settings/table-link")
def replace_link(slug: str):
    """A new table link; the old one stops working at once."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    if ActionForm().validate_on_submit():
        clubs.replace_table_code(club)
        remember_table(club)
        flash("New table link made: the old one no longer works. Share the new one.")
    return redirect(url_for(".settings", slug=slug))


@bp.post("/<slug>/settings/organisers")
def add_organiser(slug: str):
    """Let another account run the club."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = NameForm(prefix="organiser")
    if form.validate_on_submit():
        try:
            added = clubs.add_organiser(club, form.name.data)
        except clubs.ClubRefused as exc:
            flash(str(exc), "error")
        else:
            flash(f"{added.username} can now run {club.name}.")
    return redirect(url_for(".settings", slug=slug))


@bp.get("/<slug>/export/<kind>.csv")
def export(slug: str, kind: str):
    """The club's games, deals or standings as CSV."""
    club, _ = club_or_404(slug)
    _, chosen = filters(club)
    if kind == "games":
        text = records.export_games(club, chosen)
    elif kind == "deals":
        text = records.export_deals(club, chosen)
    elif kind == "standings":
        text = records.export_standings(club_standings.standings(club, chosen))
    else:
        abort(404)
    name = f"{club.slug}-{kind}.csv"
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.route("/<slug>/import", methods=["GET", "POST"])
def import_records(slug: str):
    """Read a deals CSV back in: all of it, or nothing."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = ImportForm()
    problem = None
    if form.validate_on_submit():
        raw = form.file.data.read(records_import.MAX_BYTES + 1)
        try:
            text = raw.decode("utf-8-sig")
            report = records_import.import_deals(club, text)
        except UnicodeDecodeError:
            problem = "The file is not UTF-8 text: export it again from this app."
        except records_import.ImportRefused as exc:
            problem = f"Nothing was imported. {exc}"
        else:
            flash(report.summary())
            return redirect(url_for(".history", slug=slug, season="all"))
    status = 422 if problem or form.errors else 200
    return render_template("clubs/import.html", club=club, form=form, problem=problem), status


# --- saved rule sets ---------------------------------------------------------------------------


def saved_or_404(club: Club, rules_id: int) -> SavedRules:
    """One of the club's saved rule sets, or 404."""
    saved = clubs.saved_rules(club, rules_id)
    if saved is None:
        abort(404)
    return saved


@bp.get("/<slug>/rule-sets")
def rule_sets(slug: str):
    """The club's own rule sets: what each changes from its preset, the default, games played."""
    club, level = club_or_404(slug)
    return render_template(
        "clubs/rule_sets.html",
        club=club,
        level=level,
        Level=Level,
        changed={s.id: games.changed_rules(s) for s in club.saved_rules},
        played=clubs.games_by_saved_rules(club),
        presets=engine.PRESETS,
        action=ActionForm(),
    )


@bp.route("/<slug>/rule-sets/new", methods=["GET", "POST"])
def new_rule_set(slug: str):
    """Save a rule set: choose its preset, then name it and change any number."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    key = request.args.get("ruleset", "")
    if key not in engine.PRESETS:
        return render_template("clubs/rule_set_presets.html", club=club, presets=engine.PRESETS)
    preset = engine.PRESETS[key]
    form = saved_rules_form(preset, preset, request.form if request.method == "POST" else None)
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            overrides = house_rules_of(form, preset)
            saved = clubs.create_saved_rules(club, form.name.data, key, overrides)
        except clubs.ClubRefused as exc:
            problems = _place_rules(form, exc)
        else:
            flash(f"{saved.name} saved: start a game with it from the club's page.")
            return redirect(url_for(".rule_sets", slug=slug))
    return _rule_set_form(club, form, preset, None, problems)


@bp.route("/<slug>/rule-sets/<int:rules_id>/edit", methods=["GET", "POST"])
def edit_rule_set(slug: str, rules_id: int):
    """Rename a saved rule set or change its numbers; games already started keep theirs."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    saved = saved_or_404(club, rules_id)
    preset = engine.PRESETS[saved.ruleset]
    form = saved_rules_form(
        preset, games.rules_of_saved(saved), request.form if request.method == "POST" else None
    )
    if request.method == "GET":
        form.name.data = saved.name
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            clubs.update_saved_rules(saved, form.name.data, house_rules_of(form, preset))
        except clubs.ClubRefused as exc:
            problems = _place_rules(form, exc)
        else:
            flash(f"{saved.name} saved. Games already started keep the rules they started with.")
            return redirect(url_for(".rule_sets", slug=slug))
    return _rule_set_form(club, form, preset, saved, problems)


def _rule_set_form(
    club: Club, form: SavedRulesForm, preset, saved: SavedRules | None, problems: list[str]
):
    """The new or edit page of a saved rule set (422 once something was refused)."""
    status = 422 if request.method == "POST" else 200
    return render_template(
        "clubs/rule_set_form.html",
        club=club,
        form=form,
        preset=preset,
        saved=saved,
        problems=problems,
        knobs=engine.knobs(preset),
        knob_field=knob_field,
    ), status


def _place_rules(form: SavedRulesForm, refused: clubs.ClubRefused) -> list[str]:
    """Each refusal beside the number it names; the rest (and the name's) for the whole form."""
    if not isinstance(refused, clubs.RulesRefused):
        form.name.errors.append(str(refused))
        return []
    general = []
    for rule, message in refused.problems:
        field = form._fields.get(knob_field(rule)) if rule else None
        if field is not None:
            field.errors.append(message)
        else:
            general.append(message)
    return general


@bp.route("/<slug>/rule-sets/<int:rules_id>/delete", methods=["GET", "POST"])
def delete_rule_set(slug: str, rules_id: int):
    """Delete a saved rule set, once confirmed; its games keep their rules and its name."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    saved = saved_or_404(club, rules_id)
    form = ActionForm()
    if form.validate_on_submit():
        name = saved.name
        clubs.delete_saved_rules(saved)
        flash(f"{name} deleted. Games played with it keep their rules and its name.")
        return redirect(url_for(".rule_sets", slug=slug))
    played = clubs.games_by_saved_rules(club).get(saved.id, 0)
    status = 422 if request.method == "POST" else 200
    return render_template(
        "clubs/rule_set_delete.html", club=club, saved=saved, played=played, action=form
    ), status


@bp.post("/<slug>/rule-sets/default")
def default_rule_set(slug: str):
    """Make one saved rule set the club's default, or have none."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = DefaultRulesForm()
    if not form.validate_on_submit():
        flash("That did not go through: reload the page and try again.", "error")
        return redirect(url_for(".rule_sets", slug=slug))
    chosen = form.saved.data
    if chosen == "none":
        saved = None
    elif SMALL_NUMBER.fullmatch(chosen):
        saved = saved_or_404(club, int(chosen))
    else:
        abort(404)
    clubs.make_default(club, saved)
    if saved is None:
        flash("No default: club games start by choosing their rules.")
    else:
        flash(f"{saved.name} is the default: club games start from it.")
    return redirect(url_for(".rule_sets", slug=slug))


@bp.get("/<slug>/rules/<int:rules_id>")
def rule_card(slug: str, rules_id: int):
    """A saved rule set's rule card: every number, and what it changes from its preset."""
    club, _ = club_or_404(slug)
    saved = saved_or_404(club, rules_id)
    return render_template(
        "rule_card.html",
        rules=games.rules_of_saved(saved),
        preset=engine.PRESETS[saved.ruleset],
        players=PLAYER_COUNTS,
        club=club,
        saved=saved,
        changed=games.changed_rules(saved),
    )


@bp.app_context_processor
def club_helpers():
    """Templates ask what the visitor may do in a club."""
    return {"club_level": club_level, "Level": Level}
