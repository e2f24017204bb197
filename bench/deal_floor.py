"""The least entering a deal can cost on this stack: a stripped-down deal route, timed.

`deal_entry.py` measures the real deal page. This script asks how far below it any deal page
built on the decided stack (Flask, SQLAlchemy, Flask-WTF's CSRF, Jinja, gunicorn) could go. It
adds to the app a deal route that keeps only what a deal cannot do without, and drops the rest:

- the game is found by its private link as every game route finds it (`/floor/t/<secret>`:
  the one query of `scorekeeper/services/links.py`, before the view);
- the CSRF check (the app's, on every POST) and the idempotency-key lookup stay; WTForms does
  not (the figures are read straight from the form);
- the game is read with three plain Core SELECTs, not the ORM; the new deal and its scores go
  in with Core INSERTs, each side's total with one UPDATE, then the commit;
- the scoreboard it redirects to shows only each side's total and opening minimum, from the
  same plain SELECTs, in a template that extends `base.html`.

It is a lower bound, not a design: it skips what the real page does (each side's book and
card figures, member results, the breakdown, the chart, the correction links). It is timed
against the real deal page, the app's bare route and a bare Flask app, taking turns as in
`deal_entry.py`:

    .venv/bin/python bench/deal_floor.py [--games 25]
    .venv/bin/python bench/deal_floor.py --phases   # in process: where the gap goes, part by part
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import Server, init_db, machine, ms, warm_ups  # noqa: E402
from deal_entry import (  # noqa: E402
    CLASSIC_DEAL,
    Phone,
    app_with_bare_routes,
    bare_pair,
    new_game,
)
from flask import Flask, abort, flash, redirect, render_template, request  # noqa: E402
from jinja2 import ChoiceLoader, DictLoader  # noqa: E402

BOARD = """{% extends "base.html" %}
{% block title %}Scoreboard{% endblock %}
{% block content %}<h1>Deal {{ deals }}</h1><table>
{% for side in sides %}<tr><th scope="row">{{ side.name }}</th><td>{{ side.total }}</td>
<td>needs {{ side.minimum }}</td></tr>{% endfor %}</table>{% endblock %}"""


def app_with_floor_routes() -> Flask:
    """The app with the bare routes and a stripped-down deal route and scoreboard."""
    from sqlalchemy import func, insert, select, update

    from scorekeeper import rules as engine
    from scorekeeper.plumbing.db import db
    from scorekeeper.plumbing.models import Deal, DealScore, Game, Player, Side

    app = app_with_bare_routes()
    # The board's template joins the app's, so Jinja compiles it once, as it does theirs.
    app.jinja_env.loader = ChoiceLoader([DictLoader({"floor.html": BOARD}), app.jinja_env.loader])

    def load(game_id: int):
        game = db.session.execute(
            select(Game.ruleset, Game.house_rules, Game.decks).where(Game.id == game_id)
        ).one_or_none()
        if game is None:
            abort(404)
        players = select(func.count(Player.id)).where(Player.side_id == Side.id).correlate(Side)
        sides = db.session.execute(
            select(Side.id, Side.name, Side.position, players.scalar_subquery())
            .where(Side.game_id == game_id)
            .order_by(Side.position)
        ).all()
        scores = db.session.execute(
            select(Deal.number, DealScore.entry)
            .join(DealScore, DealScore.deal_id == Deal.id)
            .where(Deal.game_id == game_id)
            .order_by(Deal.number, DealScore.side_position)
        ).all()
        deals: list[list[engine.DealEntry]] = []
        for number, entry in scores:
            if len(deals) < number:
                deals.append([])
            deals[-1].append(engine.DealEntry.from_dict(entry))
        rules = engine.ruleset(game.ruleset, game.house_rules or None)
        progress = engine.play(
            rules, game.decks, [engine.Side(s.name, max(1, s[3])) for s in sides], deals
        )
        return rules, game, sides, progress

    # `<secret>` in the path: the app's link check turns it into `game_id` before the view runs.
    @app.post("/floor/t/<secret>/deals")
    def floor_enter(game_id: int):
        rules, game, sides, progress = load(game_id)
        key = request.form.get("idempotency_key")
        known = select(Deal.id).where(Deal.game_id == game_id, Deal.idempotency_key == key)
        if db.session.execute(known).first() is None:
            entries = []
            for i in range(len(sides)):
                entry: dict = {"went_out": request.form.get("went_out") == str(i)}
                for name, value in request.form.items():
                    if name.startswith(f"s{i}-") and value:
                        figure, _, kind = name[len(f"s{i}-") :].partition("-")
                        if kind:
                            entry.setdefault(figure, {})[kind] = int(value)
                        else:
                            entry[figure] = int(value)
                entries.append(engine.DealEntry.from_dict(entry, i))
            progress = engine.extend(
                rules,
                game.decks,
                [engine.Side(s.name, max(1, s[3])) for s in sides],
                progress,
                entries,
            )
            number = progress.next_deal - 1
            deal_id = db.session.execute(
                insert(Deal)
                .values(game_id=game_id, number=number, version=1, idempotency_key=key)
                .returning(Deal.id)
            ).scalar_one()
            db.session.execute(
                insert(DealScore),
                [
                    {
                        "deal_id": deal_id,
                        "side_id": side.id,
                        "side_position": side.position,
                        "entry": entry.to_dict(),
                        "total": score.total,
                    }
                    for side, entry, score in zip(
                        sides, entries, progress.deals[-1].scores, strict=True
                    )
                ],
            )
            for side, total in zip(sides, progress.totals, strict=True):
                db.session.execute(update(Side).where(Side.id == side.id).values(final_total=total))
            db.session.commit()
            flash(f"Deal {number} saved.")
        return redirect(request.path.removesuffix("/deals"))

    @app.get("/floor/t/<secret>")
    def floor_board(game_id: int):
        _rules, _game, sides, progress = load(game_id)
        shown = [
            {"name": s.name, "total": t, "minimum": m}
            for s, t, m in zip(sides, progress.totals, progress.minimums, strict=True)
        ]
        return render_template("floor.html", sides=shown, deals=len(progress.deals))

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25, help="classic games of 4 deals")
    parser.add_argument(
        "--phases",
        action="store_true",
        help="in process instead: where each request's time goes, part by part (_deal_phases.py)",
    )
    args = parser.parse_args()
    if args.phases:
        from _deal_phases import run

        print(f"machine: {machine()}")
        run(args.games)
        return
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.sqlite"
        init_db(url)
        app_server = Server("bench.deal_floor:app_with_floor_routes()", {"DATABASE_URL": url})
        bare_server = Server("bench.deal_entry:bare_app()", {})
        with app_server as app, bare_server as bare:
            phone = Phone(app.port)
            warm = new_game(app.port, "classic")
            token = phone.token(warm)
            for turn in range(warm_ups(20)):  # warm all three: imports, templates, connections
                if turn % 4 == 0:
                    warm = new_game(app.port, "classic")
                bare_pair(bare.port)
                phone.pair("/bench/bare", token, CLASSIC_DEAL)
                phone.pair(f"/floor{warm.link}/deals", token, CLASSIC_DEAL)
            real, floor, in_app, in_flask = [], [], [], []
            for _ in range(args.games):
                one, two = new_game(app.port, "classic"), new_game(app.port, "classic")
                for _deal in range(4):
                    real.append(phone.enter(one, token, CLASSIC_DEAL))
                    floor.append(phone.pair(f"/floor{two.link}/deals", token, CLASSIC_DEAL))
                    in_app.append(phone.pair("/bench/bare", token, CLASSIC_DEAL))
                    in_flask.append(bare_pair(bare.port))
    flask_median, app_median = statistics.median(in_flask), statistics.median(in_app)
    print(f"machine: {machine()}")
    print("database: sqlite, gunicorn -w 1 (sync) for each server, classic deals 1-4")
    print(f"bare route in bare Flask (POST + redirected GET): {ms(in_flask)}")
    print(f"bare route in the app (POST + redirected GET):   {ms(in_app)}")
    for title, values in (("the real deal page", real), ("the stripped-down floor", floor)):
        median = statistics.median(values)
        print(
            f"{title}: {ms(values)}; ratio {median / flask_median:.2f} to bare Flask,"
            f" {median / app_median:.2f} to the app's bare route"
        )
    ratio = statistics.median(real) / statistics.median(floor)
    print(f"the real deal page to the floor: {ratio:.2f}x (target 1.2x; --phases: where it goes)")


if __name__ == "__main__":
    main()
