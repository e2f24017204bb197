"""What every response carries, and what production demands before the app starts."""

from __future__ import annotations

import os
from datetime import timedelta

from flask import Flask, Response, g, get_flashed_messages, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

from scorekeeper.plumbing.compress import WORKER_ENDPOINT

# No inline script or style anywhere: everything comes from /static on this host.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# What only a document (a page, or the service worker's script) acts on. They are sent with
# nothing else: some 390 bytes on every CSS, script, icon and live answer were a third of what
# a phone's first visit to a page cost (issue 18). A 304 sends none: the phone keeps the
# headers of the page it already holds.
DOCUMENT_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
# Every response, so that no browser takes a file for other than what it says it is.
EVERY_RESPONSE_HEADERS = {"X-Content-Type-Options": "nosniff"}
# An API answer is data, but one opened in a tab is shown as a page: it loads nothing and sits
# in no frame.
DATA_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'"
DOCUMENT_TYPES = ("text/html",)
# Production only: over plain HTTP on a laptop it would lock localhost out of HTTP for a year.
STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains"
# What no cache may keep, the phone's service worker included (static/sw.js honours it):
# organiser-only pages (web/clubs/ marks them), every CSV export, the sign-in forms, and any
# page whose content comes from an organiser's sign-in (`never_keep`): the home page signed in,
# a club's game or new-game form seen thanks to the sign-in, not to a table link (issue 26).
# After a sign-out on another phone, this phone's worker has none of them to show.
NO_STORE = "no-store"
# On the pages the phone's worker fetches in the background to keep for no signal (keepPages in
# static/sw.js sends it). Such a page shows no flashed message and leaves them in the session:
# fetched between a form's post and the page it redirects to, it would take that page's message
# ("Deal 2 saved") away, and a kept page would show a message from the past with no signal.
# Nor does its answer write the session's cookie (KeptPageSessions): sent with the cookie as it
# was before the person's post, it would put that cookie back, the post's message lost, and a
# message of its own ("This game is over", from a finished game's deal form) shown instead.
KEPT_PAGE_HEADER = "X-Kept-Page"
NEVER_KEPT_BLUEPRINTS = ("accounts",)
NEVER_KEPT_MARK = "never_kept"  # on `g`: this request's answer is the sign-in's (never_keep)

# Who may keep an answer besides the visitor's own browser (issue 26). A shared cache (a proxy,
# a CDN, a club's Varnish) keeps an answer by its address unless told otherwise; a stranger
# with no key then got a game's state, its secret link among it. So every answer that depends
# on who asks is `private` (no shared cache keeps it) and names in Vary what decides it:
#   X-Game-Key: the API's game answers open with it (web/access.open_game_link);
#   X-Table-Code: a club's table level, on its pages as in its API (web/access.club_level);
#   Cookie: the session's sign-in, table links and games.
# API answers are a client's data, kept by no cache at all: `private, no-store`. Pages, the
# live answer, the phone's scorer and the QR code only `private`: the phone's worker keeps a
# game's pages for play with no signal (static/sw.js honours no-store, and would drop them).
PRIVATE_NO_STORE = "private, no-store"
API_BLUEPRINT = "api"
API_VARY = ("X-Game-Key", "X-Table-Code", "Cookie")
PAGE_VARY = ("X-Table-Code", "Cookie")
# A casual game's pages: no club, so no table code decides them; only the session does.
CASUAL_GAME_VARY = ("Cookie",)
# No cache keeps an answer to a POST that gives no freshness (RFC 9110, section 9.3.3): a
# page's POST answer needs no word, and a phone's lines and "entering" notes travel without
# it (a game page's first visit is weighed: tests/browser/test_page_weight.py).
CACHED_METHODS = ("GET", "HEAD")
# The same for every visitor whatever they send: the app's files and worker, the API's presets
# and its own description. Any cache may keep them, as their views say.
SHARED_ENDPOINTS = frozenset(
    {"static", WORKER_ENDPOINT, "api.openapi", "api.rulesets", "api.ruleset"}
)


def is_document(response: Response) -> bool:
    """Whether the browser acts on this answer as a page or a worker (not a 304, not a file)."""
    if response.status_code == 304:
        return False
    return response.mimetype in DOCUMENT_TYPES or request.endpoint == WORKER_ENDPOINT


def page_messages() -> list[tuple[str, str]]:
    """This page's flashed messages, by category; none for a page kept in the background."""
    if request.headers.get(KEPT_PAGE_HEADER):
        return []
    return get_flashed_messages(with_categories=True)


def never_keep() -> None:
    """Mark this request's answer as the organiser's sign-in's: sent no-store (see NO_STORE)."""
    setattr(g, NEVER_KEPT_MARK, True)


def keep_only_where_allowed(response: Response) -> None:
    """Cache-Control and Vary by the kind of answer (see PRIVATE_NO_STORE, NO_STORE)."""
    # Popped: two requests in one app context (a test's) must not share the mark.
    marked = g.pop(NEVER_KEPT_MARK, False)
    if request.endpoint in SHARED_ENDPOINTS:
        return
    if request.blueprint == API_BLUEPRINT:
        response.headers["Cache-Control"] = PRIVATE_NO_STORE
        response.vary.update(API_VARY)
        return
    if marked or response.mimetype == "text/csv" or request.blueprint in NEVER_KEPT_BLUEPRINTS:
        response.headers["Cache-Control"] = NO_STORE
    elif request.method not in CACHED_METHODS:
        return
    # What the view said of the visitor's own browser (no-cache, max-age) stands; `private`
    # keeps it from every cache shared with others.
    response.cache_control.private = True
    response.vary.update(CASUAL_GAME_VARY if _casual_game() else PAGE_VARY)


def _casual_game() -> bool:
    """Whether this is a casual game's route (web/access.open_game_link found it, of no club)."""
    rule = request.url_rule
    return rule is not None and "<secret>" in rule.rule and g.get("game_club", 0) is None


class MissingSecretKey(RuntimeError):
    """Production without a SECRET_KEY from the environment: sessions could be forged."""


def in_production() -> bool:
    """Whether this process serves real people (SCOREKEEPER_ENV=production)."""
    return os.environ.get("SCOREKEEPER_ENV", "").lower() == "production"


class KeptPageSessions(SecureCookieSessionInterface):
    """Session cookies as Flask writes them, but never from a page kept in the background."""

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Write the cookie unless a kept page asked; then only a form token it made first."""
        if not request.headers.get(KEPT_PAGE_HEADER):
            return super().save_session(app, session, response)
        if session.accessed:
            response.vary.add("Cookie")
        # A phone's first page may be one kept in the background: its forms' token must stay
        # valid, and with no token yet no post of the person's can be on its way to lose.
        token = app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
        sent = self.open_session(app, request) or {}
        if token in session and token not in sent:
            # The session as the request sent it, with the token and nothing else of this page.
            first = self.session_class(sent)
            first[token] = session[token]
            return super().save_session(app, first, response)
        return None


def configure(app: Flask) -> None:
    """Production cookie settings and the secret check; security headers on each response."""
    if in_production() and not app.testing:
        secret = os.environ.get("SECRET_KEY", "")
        if len(secret) < 16:
            raise MissingSecretKey(
                "SCOREKEEPER_ENV=production needs SECRET_KEY in the environment "
                "(16 characters or more, e.g. from `python -c 'import secrets; "
                "print(secrets.token_hex(32))'`)."
            )
        app.config["SECRET_KEY"] = secret
        app.config.update(
            SESSION_COOKIE_SECURE=True,
            REMEMBER_COOKIE_SECURE=True,
            PREFERRED_URL_SCHEME="https",
        )
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # The session cookie is written only when it changes. Were it refreshed on every
        # answer, a live poll sent before the phone opened another game would come back with
        # the session as it was, and that game would drop off the phone's list of games.
        SESSION_REFRESH_EACH_REQUEST=False,
        # A phone's games and table links are kept a year from when they last changed.
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
    )

    app.session_interface = KeptPageSessions()
    app.jinja_env.globals["page_messages"] = page_messages
    # Decided once, at start, like the cookie settings above.
    production = in_production()

    @app.after_request
    def add_headers(response: Response) -> Response:
        for name, value in EVERY_RESPONSE_HEADERS.items():
            response.headers.setdefault(name, value)
        if is_document(response):
            for name, value in DOCUMENT_HEADERS.items():
                response.headers.setdefault(name, value)
            if production:
                response.headers["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY
        elif response.is_json:
            response.headers.setdefault("Content-Security-Policy", DATA_CONTENT_SECURITY_POLICY)
        keep_only_where_allowed(response)
        return response
