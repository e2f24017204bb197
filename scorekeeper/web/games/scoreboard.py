"""The scoreboard and what is done from it: who deals first, Play again, a table's own rules
remembered, a club game deleted; and the addresses from before private links."""

from __future__ import annotations

from collections.abc import Sequence

from flask import flash, redirect, render_template, request, url_for

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Game
from scorekeeper.rules.terms import SCOREBOARD_DEALS
from scorekeeper.services import access, creations, deal_history, games, locking
from scorekeeper.services.game_view import game_view
from scorekeeper.services.ratings.chances import game_chances, game_par
from scorekeeper.web.access import (
    Level,
    club_level,
    counted_address,
    forget_rules,
    game_or_404,
    my_side,
    refuse,
    remember_game,
    remember_rules,
    require_game,
)
from scorekeeper.web.charts import running_totals_chart
from scorekeeper.web.creating import too_many
from scorekeeper.web.forms import ActionForm, FirstDealerForm, rules_args, sender_name
from scorekeeper.web.games import DIGITS, VERSION, bp
from scorekeeper.web.sharing import invitation


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
    """The scoreboard, with what was refused (if anything) at the top.

    The game's read model (services/game_view.py) turned into the page: nothing of the game is
    worked out here.
    """
    view = game_view(game)
    first, last, earlier, later = deal_pages(len(view.entries), request.args.get("deals_to"))
    # Each deal's history in words, and a club's lock: one read of the game's history.
    events = deal_history.events_of(game)
    choose = FirstDealerForm(formdata=None, seat=str(view.first_dealer))
    choose.seat.choices = [(str(i), seat.player) for i, seat in enumerate(view.seats)]
    return render_template(
        "scoreboard.html",
        game=game,
        view=view,
        rules=view.rules,
        progress=view.progress,
        closed=view.closed,
        level=level,
        chart=running_totals_chart(game, view.progress),
        delete_form=ActionForm(),
        action_form=ActionForm(),
        invite=invitation(game),
        # Who dealt each deal so far, and who deals the next: the deal passes to the left.
        dealers=[dealer.player for dealer in view.dealers],
        first_dealer_form=choose,
        problems=problems,
        may_start=_may_start(game, level) and view.night_place is None,
        night=view.night_place,
        summary=games.summary_text(game) if view.finished else None,
        rules_link=_rules_link(game),
        lines=view.lines,
        running=view.running,
        shown=view.deals(first, last),
        earlier=_deals_page_url(game, earlier),
        later=_deals_page_url(game, later),
        frozen=view.frozen,
        next_game=view.next_game,
        # A club game's par, kept as it started; or, for one with none, each side's chance
        # from the club's ratings now, before deal 1.
        par=game_par(game),
        chances=game_chances(game),
        history=deal_history.history_words(game, events),
        history_events=events,
        lock=locking.lock_of(game, events=events),
        # The side this phone last sent a line for: labelled "Your side", in the table's order.
        own=my_side(game),
    ), status


def locked_page(game: Game, level: Level, message: str):
    """A club's locked game that a table's phone tried to correct: the scoreboard, saying why
    and that nothing was changed (403)."""
    return _scoreboard_page(game, level, [message], 403)


def _may_start(game: Game, level: Level) -> bool:
    """Whether this phone may start the table's next game: a casual game's link; a club game,
    as starting any club game, the club's table link (the game's own link scores it, no more)."""
    if game.club is None:
        return level >= Level.TABLE
    return club_level(game.club) >= Level.TABLE


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
        flash(f"{game_view(game).dealer(1).player} deals first.")
    return redirect(url_for(".scoreboard", secret=game.secret))


@bp.post("/t/<secret>/play-again")
def play_again(game_id: int):
    """A finished game's table starts the next game (one for the table): same sides, one tap."""
    game = game_or_404(game_id)
    # As starting a club game: the club's table link; a casual game, its own link.
    level = require_game(game, Level.TABLE)
    if game.next_game_id is None and not _may_start(game, level):
        refuse(level)
    if not ActionForm().validate_on_submit():
        return redirect(url_for(".scoreboard", secret=game.secret))
    try:
        # A game started here counts toward the address's allowance (a game finished in one
        # deal could otherwise start games without end); opening another phone's does not.
        outcome = games.play_again(
            game,
            sender_name(request.form.get("started_by")),
            by_table_link=level < Level.ORGANISER,
            made_from=counted_address(),
        )
    except creations.OverAllowance as over:
        page, _ = _scoreboard_page(game, level, [over.too_many.message], 429)
        return too_many(over.too_many, page)
    except games.GameRefused as exc:
        messages = [r.message for r in exc.refusals]
        return _scoreboard_page(game, level, messages, 409)
    again = outcome.game
    remember_game(again)
    sides = " v ".join(s.name for s in again.sides)
    if outcome.started_here:
        dealer = game_view(again).dealer(1).player
        flash(f"New game started: {sides}. {dealer} deals first.")
    else:
        flash(f"Opening the next game {outcome.started_by} started: {sides}.")
    return redirect(url_for(".scoreboard", secret=again.secret))


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
