"""The table: start a game, see the scoreboard, enter and correct deals."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Club, Deal, Game
from scorekeeper.rules import DealRefused, Refusal
from scorekeeper.rules.terms import SCOREBOARD_DEALS
from scorekeeper.services import access, clubs, creations, deals, games, side_lines
from scorekeeper.services.names import SOMEONE, phone_name
from scorekeeper.web.access import (
    Level,
    forget_rules,
    game_or_404,
    my_rules,
    my_side,
    refuse,
    remember_game,
    remember_rules,
    require,
    require_game,
    table_level,
)
from scorekeeper.web.charts import running_totals_chart
from scorekeeper.web.clubs.forms import ActionForm
from scorekeeper.web.creating import too_many
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import (
    MAX_SIDES_ON_FORM,
    DealForm,
    FirstDealerForm,
    deal_form,
    entries_data,
    field_name,
    fill,
    house_rules_of,
    knob_field,
    new_game_form,
    rules_args,
    rules_from_args,
    seats,
)
from scorekeeper.web.invite import invitation

bp = Blueprint("games", __name__)
# The home page lists the rules this phone remembers (see `remember_these_rules`).
bp.add_app_template_global(my_rules, "my_rules")
VERSION = re.compile(r"[0-9]{1,9}")
# A version typed as digits is a number however long (a huge one no deal has is a conflict);
# past 30 digits it is no number this server wrote, and refused as such.
DIGITS = re.compile(r"[0-9]{1,30}")


@bp.route("/games/new", methods=["GET", "POST"])
@refilled_when_expired
def new():
    """Choose a rule set, then name the sides; house rules are a tap away."""
    return _new_game(None)


@bp.route("/clubs/<slug>/games/new", methods=["GET", "POST"])
@refilled_when_expired
def new_club_game(slug: str):
    """A club game: players picked from the member list, guests allowed."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    require(club, Level.TABLE)
    return _new_game(club)


def _new_game(club: Club | None):
    saved = _saved_rules_asked(club)
    key = saved.ruleset if saved else request.values.get("ruleset", "")
    if key not in engine.PRESETS:
        return render_template("choose_rules.html", presets=engine.PRESETS.values(), club=club)
    rules = engine.PRESETS[key]
    # A saved rule set, or a link with a table's own numbers, fills the house rules in.
    start_from = games.rules_of_saved(saved) if saved else rules_from_args(rules, request.args)
    members = [m for m in club.members if not m.archived] if club else None
    formdata = request.form if request.method == "POST" else None
    form = new_game_form(rules, formdata, members, start_from)
    problems: list[str] = []
    if form.validate_on_submit():
        # Counted with the game, in its transaction: a game refused below is not counted.
        refused = creations.allow(creations.GAME, request.remote_addr)
        if refused is not None:
            return too_many(refused)
        rows = [i for i in range(MAX_SIDES_ON_FORM) if _side_row(form, i)]
        overrides = house_rules_of(form, rules)
        try:
            game = games.start_game(
                key,
                [_side_row(form, i) for i in rows],
                form.decks.number,
                overrides,
                club,
                # The game is "Thursday rules" only if its numbers are still the saved ones.
                saved_rules=saved if saved and games.same_rules(saved, key, overrides) else None,
            )
        except games.GameRefused as exc:
            problems = _place_setup(form, rows, exc.refusals)
        else:
            remember_game(game)
            flash(f"Game started: {' v '.join(s.name for s in game.sides)}.")
            return redirect(url_for(".scoreboard", secret=game.secret))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "new_game.html",
        form=form,
        rules=rules,
        saved=saved,
        problems=problems,
        knobs=engine.knobs(rules),
        knob_field=knob_field,
        club=club,
        seats=seats(rules),
    ), status


def _saved_rules_asked(club: Club | None):
    """The club's saved rule set a new game starts from: the one asked for, else the default.

    `?saved=<id>` asks for one, `?ruleset=<key>` for a preset as it stands, `?choose=1` for the
    list of both; with none of them, a club with a default starts from it, no choice to make.
    """
    if club is None:
        return None
    asked = request.values.get("saved", "")
    if asked:
        saved = clubs.saved_rules(club, int(asked)) if DIGITS.fullmatch(asked) else None
        if saved is None:
            abort(404)
        return saved
    if request.values.get("ruleset") or request.values.get("choose"):
        return None
    return clubs.default_rules(club)


def _side_row(form, index: int) -> games.SideSetup | None:
    name = (form[f"side{index}_name"].data or "").strip()
    listed = form[f"side{index}_players"].data or ""
    # Members picked from the club's list come first, then any guests typed in.
    picked = [
        form[f].data for f in form._fields if f.startswith(f"side{index}_member") and form[f].data
    ]
    players = [n for n in picked] + [p.strip() for p in listed.split(",") if p.strip()]
    if not name and not players:
        return None
    return games.SideSetup(name or " & ".join(players), players or [name])


def _place_setup(form, rows: list[int], refusals: Sequence[Refusal]) -> list[str]:
    """Put each refusal beside its field; return those that belong to the whole form."""
    general = []
    for refusal in refusals:
        if refusal.side is not None and refusal.side < len(rows):
            field = "name" if refusal.field == "name" else "players"
            form[f"side{rows[refusal.side]}_{field}"].errors.append(refusal.message)
            continue
        # A house rule's refusal goes beside its number (the first it names that the form has).
        named = [path.removeprefix("rules.") for _, path in refusal.figures]
        fields = [form._fields.get(knob_field(path)) for path in named if path != "decks"]
        field = next((f for f in fields if f is not None), None)
        if refusal.field == "decks":
            form.decks.errors.append(refusal.message)
        elif field is not None:
            field.errors.append(refusal.message)
        else:
            general.append(refusal.message)
    return general


@bp.get("/t/<secret>")
def scoreboard(game_id: int):
    """Running totals, what each side needs to open, the newest deals a tap away, the winner.

    `?deals_to=N` shows the page of deals that ends at deal N (see `SCOREBOARD_DEALS`).
    """
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    remember_game(game)
    return _scoreboard_page(game, level)


def deal_pages(held: int, asked: str | None) -> tuple[int, int, int | None, int | None]:
    """The deals a scoreboard page shows (first, last) and the `deals_to` of the pages around it.

    Pages are counted back from the newest deal, so the first page is always the newest deals.
    `asked` is the `deals_to` argument as sent: a deal number is taken to the page that holds
    it; anything else (none, not a number, past the last deal) is the newest page.
    """
    last = held
    if asked and DIGITS.fullmatch(asked) and 1 <= int(asked) < held:
        last = held - (held - int(asked)) // SCOREBOARD_DEALS * SCOREBOARD_DEALS
    first = max(1, last - SCOREBOARD_DEALS + 1)
    earlier = first - 1 if first > 1 else None
    later = last + SCOREBOARD_DEALS if last < held else None
    return first, last, earlier, later


def deal_url(game: Game, number: int) -> str:
    """The scoreboard at deal `number`: on the page that holds it, opened at its row."""
    _, last, _, _ = deal_pages(len(game.deals), str(number))
    to = last if last < len(game.deals) else None
    return url_for("games.scoreboard", secret=game.secret, deals_to=to, _anchor=f"deal-{number}")


bp.add_app_template_global(deal_url, "deal_url")


def _scoreboard_page(game: Game, level: Level, problems: Sequence[str] = (), status: int = 200):
    """The scoreboard, with what was refused (if anything) at the top."""
    progress = games.progress_of(game)
    first, last, earlier, later = deal_pages(len(progress.deals), request.args.get("deals_to"))
    rules = games.rules_of(game)
    table = games.seats_of(game)
    # Who dealt each deal so far, and who deals the next: the deal passes to the left.
    dealers = [
        engine.dealer(table, game.first_dealer, n).player for n in range(1, progress.next_deal + 1)
    ]
    lines = side_lines.lines_of(game)
    choose = FirstDealerForm(formdata=None, seat=str(game.first_dealer))
    choose.seat.choices = [(str(i), seat.player) for i, seat in enumerate(table)]
    return render_template(
        "scoreboard.html",
        game=game,
        rules=rules,
        progress=progress,
        closed=deals.no_deal_now(game, progress),
        level=level,
        chart=running_totals_chart(game, progress),
        delete_form=ActionForm(),
        action_form=ActionForm(),
        invite=invitation(game),
        dealers=dealers,
        first_dealer_form=choose,
        problems=problems,
        may_start=level >= Level.TABLE,
        summary=games.summary_text(game) if progress.finished else None,
        rules_link=_rules_link(game),
        lines=lines,
        running=side_lines.running(game, lines) if any(line.is_in for line in lines) else None,
        shown=progress.deals[first - 1 : last],
        earlier=_deals_page_url(game, earlier),
        later=_deals_page_url(game, later),
        frozen=deals.correction_refused(game),
    ), status


def _deals_page_url(game: Game, deals_to: int | None) -> str | None:
    """The scoreboard's page of deals ending at `deals_to`, at its list; None for no page."""
    if deals_to is None:
        return None
    newest = deals_to >= len(game.deals)
    return url_for(
        ".scoreboard",
        secret=game.secret,
        deals_to=None if newest else deals_to,
        _anchor="deals-h",
    )


def _rules_link(game: Game) -> str | None:
    """A casual game's "new game with these rules" link, when its rules are not the preset's."""
    if game.club_id is not None:
        return None
    preset = engine.PRESETS[game.ruleset]
    args = rules_args(preset, games.rules_of(game))
    return url_for(".new", ruleset=game.ruleset, **args) if args else None


@bp.post("/t/<secret>/first-dealer")
def first_dealer(game_id: int):
    """Choose who deals first, before the first deal, by whoever may enter deals."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    if not access.may_enter(game, level):
        refuse(level)
    form = FirstDealerForm()
    if form.validate_on_submit():
        raw = form.seat.data or ""
        # Not a seat number at all: a seat no table has, refused as such.
        seat = int(raw) if VERSION.fullmatch(raw) else -1
        try:
            games.choose_first_dealer(game, seat)
        except games.GameRefused as exc:
            messages = [r.message for r in exc.refusals]
            return _scoreboard_page(game, level, messages, 409 if game.deals else 422)
        flash(f"{games.dealer_of(game, 1).player} deals first.")
    return redirect(url_for(".scoreboard", secret=game.secret))


@bp.post("/t/<secret>/play-again")
def play_again(game_id: int):
    """A finished game's table starts the next game (one for the table): same sides, one tap."""
    game = game_or_404(game_id)
    # As starting a club game: the club's table link; a casual game, its own link.
    level = require_game(game, Level.TABLE)
    if not ActionForm().validate_on_submit():
        return redirect(url_for(".scoreboard", secret=game.secret))
    # A new game counts toward the address's allowance (one finished in a deal could otherwise
    # start games without end); opening the next game another phone started does not.
    if game.next_game_id is None and game.finished_at is not None:
        refused = creations.allow(creations.GAME, request.remote_addr)
        if refused is not None:
            page, _ = _scoreboard_page(game, level, [refused.message], 429)
            return too_many(refused, page)
    try:
        outcome = games.play_again(game, sender_name(request.form.get("started_by")))
    except games.GameRefused as exc:
        messages = [r.message for r in exc.refusals]
        return _scoreboard_page(game, level, messages, 409)
    again = outcome.game
    remember_game(again)
    sides = " v ".join(s.name for s in again.sides)
    if outcome.started_here:
        dealer = games.dealer_of(again, 1).player
        flash(f"New game started: {sides}. {dealer} deals first.")
    else:
        flash(f"Opening the next game {outcome.started_by} started: {sides}.")
    return redirect(url_for(".scoreboard", secret=again.secret))


def default_sender() -> str:
    """The name a phone goes by when it gives none: its signed-in organiser's, else Someone."""
    return current_user.username if current_user.is_authenticated else SOMEONE


# The live corner shows it until the phone names itself (templates/_live.html).
bp.add_app_template_global(default_sender, "default_sender")


def sender_name(sent: str | None) -> str:
    """The name the phone sending this request goes by (`names.phone_name`, `default_sender`)."""
    return phone_name(sent, default_sender())


@bp.post("/t/<secret>/remember-rules")
def remember_these_rules(game_id: int):
    """Keep a casual table's own rules on this phone: the home page links a new game with them."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    link = _rules_link(game)
    if link is None:
        messages = ["These are the rule set's own rules: start a game from it as it stands."]
        return _scoreboard_page(game, level, messages, 409)
    if ActionForm().validate_on_submit():
        name = games.rules_described(game)
        if remember_rules(name, link):
            flash(f"This phone remembers “{name}”: they are on the home page under Your rules.")
        else:
            flash("These rules are too long to remember here: keep the link instead.", "error")
    return redirect(url_for(".scoreboard", secret=game.secret))


@bp.post("/my-rules/forget")
def forget_remembered_rules():
    """This phone forgets one of its remembered rules (the games played with them stay)."""
    if ActionForm().validate_on_submit() and forget_rules(request.form.get("link", "")):
        flash("This phone has forgotten those rules.")
    return redirect(url_for("home.index"))


@bp.route("/games/<int:game_id>", methods=["GET", "POST", "PUT", "DELETE"])
@bp.route("/games/<int:game_id>/<path:rest>", methods=["GET", "POST", "PUT", "DELETE"])
def moved(game_id: int, rest: str = ""):
    """An address from before private links: the same 404 page whatever the number.

    It says where games are now and nothing else: not whether such a game exists, its names or
    its totals. Nothing is looked up.
    """
    return render_template("moved.html"), 404


@bp.post("/t/<secret>/delete")
def delete(game_id: int):
    """Remove a club game for good (its organisers only)."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    if not access.may_delete(game, level):
        refuse(level if game.club else Level.NONE)
    club = game.club
    if ActionForm().validate_on_submit():
        games.delete_game(game)
        flash(f"Game {game_id} deleted.")
    return redirect(url_for("clubs.history", slug=club.slug, season="all"))


@bp.route("/t/<secret>/deals/new", methods=["GET", "POST"])
@refilled_when_expired
def new_deal(game_id: int):
    """Enter the next deal for every side; the same form sent twice records one deal."""
    game = game_or_404(game_id)
    level = require_game(game, access.TO_ENTER)
    form = _form(game)
    opened_for = _opened_for(form)
    form.idempotency_key.data = deals.form_key(form.idempotency_key.data)
    problems: list[str] = []
    if form.validate_on_submit():
        scores = _scores(form, game)
        outcome = deals.enter_deal(
            game,
            level,
            scores,
            form.idempotency_key.data,
            opened_for,
            form.lines.data or None,
            sent_by=sender_name(request.form.get("sent_by")),
        )
        match outcome:
            case deals.Refused(refusals):
                problems = place(form, refusals)
            case deals.LinesArrived(number, token):
                form.lines.data = token
                lines = [line for line in side_lines.lines_of(game) if line.is_in]
                return _deal_page(
                    game,
                    form,
                    number,
                    games.progress_of(game).minimums,
                    [],
                    arrived=lines,
                    status=409,
                )
            case deals.KeyReused(deal):
                # This form (its hidden key) saved a deal already, with other figures: the
                # page came back from the browser's history and was changed. Nothing is
                # saved; the figures stay, with a fresh key, for the next deal if they are one.
                form.idempotency_key.data = deals.form_key(None)
                opened_for = None
                problems = [_key_reused(game, deal)]
            case _:
                return _entered(game, form, outcome)
    progress = games.progress_of(game)
    closed = deals.no_deal_now(game, progress)
    if request.method == "GET" and closed is not None:
        return _entered(game, form, closed)
    # A form sent back with a typo keeps the deal it was opened for, so that a deal saved
    # meanwhile is still shown before this one is saved.
    form.number.data = str(opened_for or progress.next_deal)
    filled = []
    if request.method == "GET":
        filled = _fill_from_lines(game, form)
    return _deal_page(game, form, progress.next_deal, progress.minimums, problems, filled=filled)


def _fill_from_lines(game: Game, form: DealForm) -> list[side_lines.Line]:
    """Start the whole deal's form from the lines the sides have sent from their own phones."""
    lines = side_lines.lines_of(game)
    form.lines.data = side_lines.token(game)
    fill(form, [line.entry.to_dict() if line.entry is not None else {} for line in lines])
    return [line for line in lines if line.is_in]


def _entered(game: Game, form: DealForm, outcome: deals.Outcome):
    """The page or redirect for what entering a deal came to."""
    board = url_for(".scoreboard", secret=game.secret, _anchor="totals")
    match outcome:
        case deals.Saved(deal):
            flash(f"Deal {deal.number} saved.")
        case deals.AlreadySaved(deal):
            flash(f"Deal {deal.number} was already saved; it is recorded once.")
        case deals.SavedMeanwhile(number):
            return _saved_meanwhile(game, form, number)
        case deals.Ended():
            flash("This game is over: no more deals can be entered.", "error")
            return redirect(url_for(".scoreboard", secret=game.secret))
        case deals.LimitReached(refusals):
            flash(" ".join(r.message for r in refusals), "error")
            return redirect(url_for(".scoreboard", secret=game.secret))
        case deals.NotAllowed():
            refuse(table_level(game.club))
    return redirect(board)


def _key_reused(game: Game, deal: Deal) -> str:
    """What the person is told when an old form comes back with other figures."""
    following = games.progress_of(game).next_deal
    return (
        f"This form already saved deal {deal.number} with different figures, so nothing of "
        f"this was saved. Check deal {deal.number} on the scoreboard; if these figures are "
        f"another deal, save them as deal {following}."
    )


def _opened_for(form: DealForm) -> int | None:
    """The deal number the form was opened for, if it carries a sane one."""
    raw = form.number.data or ""
    return int(raw) if VERSION.fullmatch(raw) else None


def _saved_meanwhile(game: Game, form: DealForm, opened_for: int):
    """Deals saved since this form was opened (or the game's end): shown, and the figures kept.

    Nothing is saved. The person sees what the other phone entered and either saves theirs as
    the next deal (the form now says so) or leaves it.
    """
    progress = games.progress_of(game)
    form.number.data = str(progress.next_deal)
    closed = deals.no_deal_now(game, progress)
    full = closed.refusals[0].message if isinstance(closed, deals.LimitReached) else None
    return _deal_page(
        game,
        form,
        progress.next_deal,
        progress.minimums,
        [],
        meanwhile=progress.deals[max(0, opened_for - 1) :],
        over=closed is not None,
        winners=progress.winners,
        full=full,
        status=409,
    )


@bp.route("/t/<secret>/deals/<int:number>/edit", methods=["GET", "POST"])
@refilled_when_expired
def edit_deal(game_id: int, number: int):
    """Correct a deal; every later total is recomputed; a stale form meets the saved deal."""
    game = game_or_404(game_id)
    level = require_game(game, Level.TABLE)
    if not 1 <= number <= len(game.deals):
        abort(404)
    if not access.may_correct(game, level):
        refuse(level)
    frozen = deals.correction_refused(game)
    if frozen is not None:
        return _entered(game, _form(game), deals.LimitReached([frozen]))
    form = _form(game)
    problems: list[str] = []
    if request.method == "GET":
        deal = game.deals[number - 1]
        fill(form, [row.entry for row in deal.scores])
        form.version.data = str(deal.version)
    elif form.validate_on_submit():
        scores = _scores(form, game)
        name = sender_name(request.form.get("sent_by"))
        outcome = deals.correct_deal(game, level, number, scores, _version(form), name)
        match outcome:
            case deals.Saved():
                flash(f"Deal {number} corrected; later totals recomputed.")
                return redirect(deal_url(game, number))
            case deals.ChangedMeanwhile(deal):
                return _conflict(game, deal, form, scores)
            case deals.Refused(refusals):
                problems = place(form, refusals)
            case deals.LimitReached():
                return _entered(game, form, outcome)
            case _:
                abort(404)  # the deal or the right to correct it went meanwhile
    minimums = games.progress_of(game).deals[number - 1].minimums
    return _deal_page(game, form, number, minimums, problems, correcting=True)


def _version(form: DealForm) -> int | str:
    """The version the correction was made to: a number, or what was sent (refused as such)."""
    raw = form.version.data or ""
    return int(raw) if DIGITS.fullmatch(raw) else raw


def _conflict(game: Game, deal, form: DealForm, scores: list[dict[str, Any]]):
    """Both versions side by side: keep the one saved meanwhile, or save yours over it."""
    progress = games.progress_of(game)
    saved = progress.deals[deal.number - 1]
    try:
        entries = games.entries_from(scores, game)
        mine, mine_problems = deals.preview_deal(game, entries, deal.number), []
    except DealRefused as exc:
        mine, mine_problems = None, [r.message for r in exc.refusals]
    form.version.data = str(deal.version)
    return render_template(
        "conflict.html",
        game=game,
        deal=deal,
        saved=saved,
        mine=mine,
        mine_problems=mine_problems,
        form=form,
    ), 409


@bp.post("/t/<secret>/deals/preview")
@bp.post("/t/<secret>/deals/<int:number>/preview")
@refilled_when_expired
def preview(game_id: int, number: int | None = None):
    """The breakdown the figures typed so far would get; the page shows it as they change."""
    game = game_or_404(game_id)
    require_game(game, Level.TABLE)
    if number is not None and not 1 <= number <= len(game.deals):
        abort(404)
    form = _form(game)
    result, problems = None, []
    if form.validate_on_submit():
        try:
            entries = games.entries_from(_scores(form, game), game)
            result = deals.preview_deal(game, entries, number)
        except DealRefused as exc:
            problems = [r.message for r in exc.refusals]
    else:
        problems = [e for errors in form.errors.values() for e in errors]
    # A side's own line (web/lines.py) shows that side's breakdown only.
    only = request.form.get("only", "")
    shown = [int(only)] if only.isdigit() and int(only) < len(game.sides) else None
    return render_template(
        "_breakdown.html", game=game, result=result, problems=problems, only=shown
    )


def _form(game: Game) -> DealForm:
    return deal_form(
        games.rules_of(game),
        [side.name for side in game.sides],
        request.form if request.method == "POST" else None,
    )


def _scores(form: DealForm, game: Game) -> list[dict[str, Any]]:
    """The form's figures as one entry per side, as the API takes them."""
    return entries_data(form, games.rules_of(game), len(game.sides))


def place(form: DealForm, refusals: Sequence[Refusal]) -> list[str]:
    """Put each refusal beside its field; return those that belong to the whole deal."""
    general = []
    for refusal in refusals:
        # Beside every figure it is about: a limit over the whole deal shows at each figure that
        # counted toward it (the list at the top names it once).
        fields = [
            form.went_out if name == "went_out" else form._fields.get(field_name(side, name))
            for side, name in refusal.figures
            if side is not None
        ]
        fields = [f for f in fields if f is not None]
        if not fields:
            general.append(refusal.message)
        for field in fields:
            if refusal.message not in field.errors:
                field.errors.append(refusal.message)
    return general


def _deal_page(
    game: Game,
    form: DealForm,
    number: int,
    minimums: Sequence[int],
    problems: list[str],
    correcting: bool = False,
    status: int | None = None,
    **shown: Any,
):
    status = status or (422 if request.method == "POST" else 200)
    return render_template(
        "deal.html",
        game=game,
        dealer=games.dealer_of(game, number).player,
        rules=games.rules_of(game),
        form=form,
        number=number,
        minimums=minimums,
        problems=problems,
        correcting=correcting,
        field_name=field_name,
        own=my_side(game),
        **shown,
    ), status
