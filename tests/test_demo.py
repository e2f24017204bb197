"""The demo command: a public club of realistic finished games that the engine re-scores."""

from __future__ import annotations

import random

from sqlalchemy import func, select

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Member, Organiser, Season
from scorekeeper.services import accounts, clubs, demo, games, standings

GAMES = 30


def _fill(runner, *extra: str) -> str:
    result = runner.invoke(args=["demo", "--club", "demo", "--games", str(GAMES), *extra])
    assert result.exit_code == 0, result.output
    return result.output


def _games(club: Club) -> list[Game]:
    query = select(Game).where(Game.club_id == club.id).order_by(Game.played_on, Game.id)
    return list(db.session.execute(query).scalars())


def _count(model) -> int:
    return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def test_demo_fills_a_public_club(app, runner):
    """Members, seasons, an organiser who can sign in, and the summary line."""
    output = _fill(runner)
    assert "Demo club 'demo': 16 members, 4 seasons, 30 finished games." in output
    assert "Standings: /clubs/demo/standings" in output
    with app.app_context():
        club = clubs.club_by_slug("demo")
        assert club is not None and club.standings_public
        assert [o.username for o in club.organisers] == ["demo"]
        signed_in = accounts.sign_in("demo", "demo-club-password", "192.0.2.1")
        assert isinstance(signed_in, accounts.SignedIn)
        assert len(club.members) == 16
        assert len({s.name for s in club.seasons}) == 4
        assert len(_games(club)) == GAMES


def test_every_game_is_finished_and_rescores(app, runner):
    """Stored totals are the engine's, deal by deal; one side goes out in every deal."""
    _fill(runner)
    with app.app_context():
        club = clubs.club_by_slug("demo")
        played = _games(club)
        assert {g.ruleset for g in played} >= {"club", "classic"}
        for game in played:
            rules = games.rules_of(game)
            progress = games.progress_of(game)
            assert game.finished_at is not None and progress.finished
            assert progress.totals == [side.final_total for side in game.sides]
            assert all(not deal.warnings for deal in progress.deals), game.id
            if rules.target_score is None:
                assert len(game.deals) == 4
                assert 2 <= len(game.sides) <= 4
            else:
                assert len(game.sides) == 2
                assert max(progress.totals) >= rules.target_score
            for side in game.sides:
                assert len(side.players) == (1 if rules.individuals else 2)
            for deal in game.deals:
                assert sum(bool(row.entry.get("went_out")) for row in deal.scores) == 1
            # The side that went out scores a few thousand.
            assert max(d.total for d in game.deals[0].scores) >= 1000


def test_seasons_cover_the_games_and_standings_list_members(app, runner):
    """Every game falls in a season; the standings list members who played."""
    _fill(runner)
    with app.app_context():
        club = clubs.club_by_slug("demo")
        seasons = sorted(club.seasons, key=lambda s: s.starts_on)
        for earlier, later in zip(seasons, seasons[1:], strict=False):
            assert (later.starts_on - earlier.ends_on).days == 1
        for game in _games(club):
            assert any(s.starts_on <= game.played_on <= s.ends_on for s in seasons)
        rows = standings.standings(club, standings.Filters())
        assert len(rows) >= 8
        assert all(row.games > 0 and row.player in demo.MEMBERS for row in rows)
        assert any(row.rank is not None for row in rows)


def test_same_seed_same_club_and_refill_replaces(app, runner):
    """A refill replaces the club instead of adding to it, and a seed always gives the same."""

    def snapshot() -> list[tuple]:
        club = clubs.club_by_slug("demo")
        return [
            (g.ruleset, g.played_on, [s.name for s in g.sides], [s.final_total for s in g.sides])
            for g in _games(club)
        ]

    _fill(runner, "--seed", "11")
    with app.app_context():
        first = snapshot()
    _fill(runner, "--seed", "11")
    with app.app_context():
        assert snapshot() == first
        assert _count(Club) == 1 and _count(Organiser) == 1
        assert _count(Game) == GAMES and _count(Member) == 16 and _count(Season) == 4
    _fill(runner, "--seed", "12")
    with app.app_context():
        assert snapshot() != first
        assert _count(Game) == GAMES


def test_demo_leaves_a_real_club_alone(app, runner):
    """A club the demo account does not run is never deleted."""
    with app.app_context():
        ann = accounts.register("ann", "a-long-password")
        clubs.create_club("Ann's club", "mine", ann)
    result = runner.invoke(args=["demo", "--club", "mine", "--games", "3"])
    assert result.exit_code != 0
    assert "not a demo club" in result.output
    with app.app_context():
        assert clubs.club_by_slug("mine").name == "Ann's club"


def test_every_rule_set_deals_are_accepted():
    """Made-up deals pass the engine for every rule set the demo plays, ten-thousand to the end."""
    rng = random.Random(3)
    people = [demo._Person(name, 1.0) for name in demo.MEMBERS]
    for key in demo.RULESETS:
        rules = engine.PRESETS[key]
        for _ in range(20):
            sides, strengths = demo._sides(rng, key, people, [1.0] * len(people))
            table = [engine.Side(s.name, len(s.players)) for s in sides]
            decks = rules.decks_for(sum(len(s.players) for s in sides))
            deals = demo._deals(rng, rules, decks, table, strengths)
            progress = engine.play(rules, decks, table, deals)
            assert progress.finished
            for entries in deals:
                assert sum(e.went_out for e in entries) == 1
                for entry in entries:
                    assert entry.melded_points % 5 == 0 and entry.leftover_points % 5 == 0


def test_demo_has_thursday_rules_as_its_default_and_games_played_under_them(app, runner):
    """The club's own rule set, its default, with finished Thursday games the standings filter."""
    _fill(runner)
    with app.app_context():
        club = clubs.club_by_slug("demo")
        saved = clubs.default_rules(club)
        assert saved is not None and saved.name == "Thursday rules"
        assert (saved.ruleset, saved.house_rules) == ("club", {"red_three_caught": 300})
        under = [g for g in _games(club) if g.saved_rules_id == saved.id]
        assert under, "no game played under Thursday rules"
        for game in under:
            assert (game.rules_name, game.played_on.weekday()) == ("Thursday rules", 3)
            assert games.rules_of(game).red_three_caught == 300
        rows = standings.standings(club, standings.Filters(saved_rules_id=saved.id))
        members = [p for g in under for side in g.sides for p in side.players if p.member_id]
        assert sum(row.games for row in rows) == len(members)
