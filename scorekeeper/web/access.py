"""The visitor's level, from the request: an organiser's sign-in, a table link, or nothing.

What each level may do is `scorekeeper/services/access.py`; this module only works out who is
asking,
and turns "not allowed" into the answer a page or the API gives (404 hides, 403 refuses).
"""

from __future__ import annotations

import secrets
from typing import NoReturn

from flask import Response, abort, after_this_request, g, request, session
from flask_login import current_user

from scorekeeper.plumbing.addresses import counted_as
from scorekeeper.plumbing.models import Club, Game
from scorekeeper.plumbing.security import never_keep
from scorekeeper.services import clubs, games, links
from scorekeeper.services.access import Level, may_correct

TABLES = "tables"  # session key: [[club slug, table code]], newest first
# The clubs whose table links a phone keeps, the newest: the session is a cookie, under 4 KB
# with the most of everything kept (tests/test_table_links_kept.py). A player belongs to a club
# or two; a longer list was another site's doing (issue 26: 80 clubs on a victim's home page).
MY_TABLES_KEPT = 8
GAMES = "games"  # session key: the secrets of the games this phone started or opened
SIDES = "sides"  # session key: [[game secret, side this phone last sent a line for]]
# The newest games a phone keeps in its list: the session is a cookie, and a cookie is small.
MY_GAMES_KEPT = 50
RULES = "rules"  # session key: [{"name", "link"}], a casual table's own rules, newest first
# A few rules a phone remembers, and at most this many characters of them: the cookie is small.
MY_RULES_KEPT = 10
MY_RULES_CHARACTERS = 2000
NEW_GAME_LINK = "/games/new?"
GAME_KEY_HEADER = "X-Game-Key"
TABLE_CODE_HEADER = "X-Table-Code"
# The club's table link (`/clubs/<slug>/table/<code>`): its code is checked before the view too.
TABLE_LINK = "clubs.table_link"
# Sec-Fetch-Site values for a request that another site's page made the browser send.
OTHER_SITES = frozenset({"cross-site", "same-site"})
# The headers from_another_site reads: a game's answer differs by them, so a cache keeps each
# answer apart by them.
FETCH_METADATA = ("Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest")
# Game answers are for this site's own pages: a browser hands none to another site's <img>,
# <script> or fetch, even one sent without Sec-Fetch-* headers (browsers older than those).
RESOURCE_POLICY = "same-origin"


class LinkRefused(Exception):
    """Too many wrong game links or table codes from this address lately (429, Retry-After)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after


__all__ = [
    "Level",
    "club_level",
    "code_matches",
    "counted_address",
    "from_another_site",
    "game_or_404",
    "forget_my_games",
    "holds_table_link",
    "kept_table_code",
    "forget_rules",
    "known_clubs",
    "my_games",
    "my_side",
    "my_rules",
    "open_game_link",
    "remember_game",
    "remember_rules",
    "remember_side",
    "may_correct",
    "organiser",
    "refuse",
    "remember_table",
    "require",
    "require_game",
    "require_table",
    "table_level",
]


def organiser():
    """The signed-in organiser, or None."""
    return current_user if current_user.is_authenticated else None


def club_level(club: Club) -> Level:
    """The visitor's level in this club."""
    if clubs.is_organiser(club, organiser()):
        # What this shows, the sign-in alone opened: no phone keeps it past the sign-in.
        if not holds_table_link(club):
            never_keep()
        return Level.ORGANISER
    # API clients show the code in a header; people carry it in their session from the link.
    code = request.headers.get(TABLE_CODE_HEADER) or kept_table_code(club.slug)
    if isinstance(code, str) and code_matches(club, code):
        return Level.TABLE
    return Level.READ if club.standings_public else Level.NONE


def code_matches(club: Club, code: str) -> bool:
    """Whether a code is the club's current table code (in constant time, any characters)."""
    return secrets.compare_digest(code.encode(), club.table_code.encode())


def refuse(level: Level) -> NoReturn:
    """Stop: a visitor who may not see the thing gets 404 (it stays hidden), anyone else 403."""
    abort(404 if level == Level.NONE else 403)


def require(club: Club, needed: Level) -> Level:
    """The visitor's level in the club, or 404/403 if below what is needed."""
    level = club_level(club)
    if level < needed:
        refuse(level)
    return level


def open_game_link(endpoint: str | None, values: dict | None) -> None:
    """Turn a route's game secret into the game's id before anything else runs, or stop; and
    count a table code that no club has.

    Every route with a `<secret>` in its path (pages, forms, live polling), and every API route
    with a `<game_id>` (whose secret comes in the X-Game-Key header), passes here: 404 for a
    wrong or missing secret, 429 once an address has missed too often. Nothing about the game,
    not even whether it exists, reaches a visitor without its secret. A table code, shown in the
    X-Table-Code header or on a club's table link, is a guess of the same kind: one that no club
    has is a miss against the same allowance, and once it is spent no code is checked (429).
    It runs before the CSRF check, so a form posted to a wrong link is a 404 like any other
    request.
    """
    values = values if values is not None else {}
    if "secret" in values:
        secret, game_id = values.pop("secret"), None
    elif "game_id" in values and endpoint and endpoint.startswith("api."):
        secret, game_id = request.headers.get(GAME_KEY_HEADER, ""), values["game_id"]
    else:
        secret, game_id = None, None
    on_table_link = endpoint == TABLE_LINK and "code" in values
    shown_code = request.headers.get(TABLE_CODE_HEADER)
    if secret is None and not on_table_link and not shown_code:
        return
    after_this_request(_for_this_site_only)
    if from_another_site():
        abort(404)  # looked up nothing, counted nothing
    # The lookup reads, whatever the method: it must not take SQLite's write lock (db._begin)
    # before the request has its writer's turn (db.one_writer_at_a_time).
    g.only_reading = True
    try:
        if secret is not None:
            _open_game(secret, game_id, values)
        if on_table_link and not _code_known(values["code"], values.get("slug", "")):
            abort(404)
        if shown_code:
            _code_known(shown_code)  # a wrong one opens nothing: club_level decides the level
    finally:
        g.only_reading = False


def from_another_site() -> bool:
    """Whether another site's page had the browser send this request, other than by opening it.

    Another site may make a visitor's browser ask for anything from this one, with the visitor's
    address: 21 `<img>` of made-up game links on any page spent an address's allowance, and the
    right link from there (a club's wifi, a carrier's shared address) got 429 for ten minutes.
    A person opening a shared link from another site (a chat, a mail) navigates the whole tab
    to it (Sec-Fetch-Mode navigate, Dest document): that is looked up and counted as ever. Any
    other request another site sent (an `<img>`, an iframe, a fetch, a form posted into a frame)
    is a 404 that looks up nothing and spends nothing. A request without Sec-Fetch-* headers
    (an API client, a browser older than them) is taken as it comes.
    """
    if request.headers.get("Sec-Fetch-Site") not in OTHER_SITES:
        return False
    opened_as_a_page = (
        request.headers.get("Sec-Fetch-Mode") == "navigate"
        and request.headers.get("Sec-Fetch-Dest") == "document"
    )
    return not opened_as_a_page


def _for_this_site_only(response: Response) -> Response:
    """A game's or table code's answer: for this site's pages only, cached apart by site."""
    response.headers["Cross-Origin-Resource-Policy"] = RESOURCE_POLICY
    response.vary.update(FETCH_METADATA)
    return response


def _open_game(secret: str, game_id: int | None, values: dict) -> None:
    """Look the secret up: the game's id into the route's values, else 404 or 429."""
    match links.open_link(secret, counted_address(), game_id):
        case links.Found(game_id, club_id, version):
            values["game_id"] = game_id
            g.opened_game = game_id  # its link in hand: enough to score it (table_level)
            # For the live poll: whether anything changed, without reading the game again.
            g.game_club, g.live_version = club_id, version
        case links.TooManyMisses(retry_after):
            raise LinkRefused(retry_after)
        case _:
            abort(404)


def _code_known(code: str, slug: str | None = None) -> bool:
    """Whether a table code is a club's (the slug's club's, if given); 429 once refused."""
    opened = links.open_table_code(code, counted_address(), slug)
    if isinstance(opened, links.TooManyMisses):
        raise LinkRefused(opened.retry_after)
    return isinstance(opened, links.CodeKnown)


def counted_address() -> str:
    """Who is asking, as every per-address allowance counts it (the proxy's word, when trusted;
    an IPv6 /64 as one address: addresses.counted_as)."""
    return counted_as(request.remote_addr)


def remember_game(game: Game) -> None:
    """Put the game at the top of this phone's list (it started it, or opened its link)."""
    kept = session.get(GAMES, [])
    if not isinstance(kept, list):
        kept = []
    if kept[:1] == [game.secret]:
        return  # already at the top: the session cookie stays as it is
    kept = [s for s in kept if isinstance(s, str) and s != game.secret]
    session[GAMES] = [game.secret, *kept][:MY_GAMES_KEPT]
    session.permanent = True


def my_games() -> list[Game]:
    """The games this phone started or opened, newest first: it keeps their links, and a
    game's link is enough to open it (club game or not: table_level)."""
    kept = session.get(GAMES, [])
    found = links.games_by_secret(kept if isinstance(kept, list) else [])
    if len(found) < len(kept):
        # A game deleted since (or a malformed entry): dropped from the list for good.
        session[GAMES] = [g.secret for g in found]
    return found


def remember_side(game: Game, side: int) -> None:
    """Note the side this phone sent a line for: the deal form and scoreboard label it."""
    kept = _sides()
    if kept[:1] == [[game.secret, side]]:
        return  # already at the top: the session cookie stays as it is
    # A list, newest first: a session's JSON sorts a dict's keys, and would lose which is newest.
    kept = [k for k in kept if k[0] != game.secret]
    session[SIDES] = [[game.secret, side], *kept][:MY_GAMES_KEPT]
    session.permanent = True


def my_side(game: Game) -> int | None:
    """The side this phone last sent a line for in this game, if any."""
    side = next((side for secret, side in _sides() if secret == game.secret), None)
    return side if side is not None and 0 <= side < len(game.sides) else None


def _sides() -> list[list]:
    """The sides this phone sent lines for, as [secret, side], newest first (malformed dropped)."""
    kept = session.get(SIDES, [])
    return [
        k
        for k in (kept if isinstance(kept, list) else [])
        if isinstance(k, list)
        and len(k) == 2
        and isinstance(k[0], str)
        and isinstance(k[1], int)
        and not isinstance(k[1], bool)
    ]


def forget_my_games() -> None:
    """Forget this phone's games, rules and clubs' table links (an organiser stays signed in)."""
    session.pop(GAMES, None)
    session.pop(SIDES, None)
    session.pop(TABLES, None)
    session.pop(RULES, None)


def my_rules() -> list[dict[str, str]]:
    """The rules this phone remembers, newest first: each a name and a new-game link."""
    kept = session.get(RULES, [])
    if not isinstance(kept, list):
        return []
    # Only links to the new-game form, as this server made them, are ever shown as links.
    return [
        {"name": r["name"], "link": r["link"]}
        for r in kept
        if isinstance(r, dict)
        and isinstance(r.get("name"), str)
        and isinstance(r.get("link"), str)
        and r["link"].startswith(NEW_GAME_LINK)
    ]


def remember_rules(name: str, link: str) -> bool:
    """Put a table's rules at the top of this phone's list; False if they are too long to keep."""
    if len(name) + len(link) > MY_RULES_CHARACTERS:
        return False
    kept = [{"name": name, "link": link}] + [r for r in my_rules() if r["link"] != link]
    # The oldest go first when the list is long: the newest always fits (checked above).
    while len(kept) > MY_RULES_KEPT or sum(len(r["name"]) + len(r["link"]) for r in kept) > (
        MY_RULES_CHARACTERS
    ):
        kept.pop()
    session[RULES] = kept
    session.permanent = True
    return True


def forget_rules(link: str) -> bool:
    """Drop one of this phone's remembered rules; False if it had none with this link."""
    kept = my_rules()
    left = [r for r in kept if r["link"] != link]
    session[RULES] = left
    return len(left) < len(kept)


def game_or_404(game_id: int) -> Game:
    """The game, or a 404 (page or JSON, as the error handlers decide)."""
    game = games.get_game(game_id)
    if game is None:
        abort(404)
    return game


def table_level(club: Club | None, game_id: int | None = None) -> Level:
    """The visitor's level for game `game_id` of this club (None: a casual game).

    Holding a game's link is enough to score it, club game or not (issue 37): the game whose
    secret opened this request (`open_game_link`) is at least TABLE. Nothing else of its club:
    the club's pages, its table link and a new club game ask `club_level` alone.
    """
    level = Level.TABLE if club is None else club_level(club)
    if game_id is not None and game_id == g.get("opened_game"):
        return max(level, Level.TABLE)
    return level


def require_game(game: Game, needed: Level) -> Level:
    """The visitor's level for a game, or 404/403 if below what is needed."""
    return require_table(game.club, needed, game.id)


def require_table(club: Club | None, needed: Level, game_id: int | None = None) -> Level:
    """The visitor's level for game `game_id` of this club (table_level), or 404/403."""
    level = table_level(club, game_id)
    if level < needed:
        refuse(level)
    return level


def remember_table(club: Club) -> None:
    """Keep the table link at the top of this phone's list (only ever on a POST: web/clubs/)."""
    kept = _tables()
    if kept[:1] == [[club.slug, club.table_code]]:
        return  # already at the top: the session cookie stays as it is
    kept = [k for k in kept if k[0] != club.slug]
    # The oldest go when the list is long.
    session[TABLES] = [[club.slug, club.table_code], *kept][:MY_TABLES_KEPT]
    session.permanent = True


def kept_table_code(slug: str) -> str | None:
    """The table code this phone keeps for the club, if any (current or not)."""
    return next((code for kept, code in _tables() if kept == slug), None)


def holds_table_link(club: Club) -> bool:
    """Whether this phone keeps the club's current table link."""
    code = kept_table_code(club.slug)
    return code is not None and code_matches(club, code)


def _tables() -> list[list[str]]:
    """The table links this phone keeps, as [slug, code], newest first (malformed dropped)."""
    kept = session.get(TABLES, [])
    if isinstance(kept, dict):
        # Kept before issue 26, as {slug: code}, in no order and with no cap: the first few.
        kept = [[slug, code] for slug, code in kept.items()]
    return [
        k
        for k in (kept if isinstance(kept, list) else [])
        if isinstance(k, list) and len(k) == 2 and all(isinstance(part, str) for part in k)
    ][:MY_TABLES_KEPT]


def known_clubs() -> list[Club]:
    """Clubs this visitor runs or holds the table link of, for the home page."""
    found = {c.id: c for c in (organiser().clubs if organiser() else [])}
    for slug, _ in _tables():
        club = clubs.club_by_slug(slug)
        if club is not None and club_level(club) >= Level.TABLE:
            found.setdefault(club.id, club)
    return sorted(found.values(), key=lambda c: c.name.casefold())
