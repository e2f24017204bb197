"""Organiser accounts: sign up, sign in, sign out."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, Length

from scorekeeper.plumbing.models import Organiser
from scorekeeper.rules.terms import MAX_NAME, MAX_PASSWORD, MIN_PASSWORD
from scorekeeper.services import accounts, creations
from scorekeeper.web.access import counted_address
from scorekeeper.web.creating import too_many
from scorekeeper.web.errors import refilled_when_expired

bp = Blueprint("accounts", __name__)

# Session key: the organiser's session generation at sign-in (the user loader checks it).
GENERATION = "generation"


class AccountForm(FlaskForm):
    """A username and a password."""

    username = StringField("Username", validators=[DataRequired(), Length(max=MAX_NAME)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=MAX_PASSWORD)])


def _signed_in(organiser: Organiser) -> None:
    """Sign the organiser in on this phone, for as long as their session generation lasts."""
    login_user(organiser)
    session[GENERATION] = organiser.session_generation


def _page(form: AccountForm, signup: bool) -> tuple[str, int]:
    """The sign-up or sign-in page, with the form's problems (422) if any."""
    status = 422 if form.errors else 200
    page = render_template("account.html", form=form, signup=signup, min_password=MIN_PASSWORD)
    return page, status


def _next_url() -> str:
    target = request.args.get("next", "")
    # Only paths on this site: never send someone onward to another host. Browsers drop
    # tabs and newlines and read a backslash as a slash, so any of those is refused too.
    unsafe = any(ord(c) < 32 or c == "\x7f" for c in target) or "\\" in target
    parts = urlsplit(target)
    if unsafe or parts.scheme or parts.netloc or not target.startswith("/") or target[1:2] == "/":
        return url_for("home.index")
    return target


@bp.route("/signup", methods=["GET", "POST"])
@refilled_when_expired
def signup():
    """Create an organiser account, to run a club."""
    form = AccountForm()
    if form.validate_on_submit():
        try:
            organiser = accounts.register(
                form.username.data, form.password.data, made_from=counted_address()
            )
        except creations.OverAllowance as over:
            return too_many(over.too_many)
        except accounts.AccountRefused as exc:
            # Each refusal is shown beside the field it is about.
            getattr(form, exc.field, form.username).errors.append(str(exc))
        else:
            _signed_in(organiser)
            flash(f"Welcome, {organiser.username}. Now create your club.")
            return redirect(url_for("clubs.new"))
    return _page(form, signup=True)


@bp.route("/login", methods=["GET", "POST"])
@refilled_when_expired
def login():
    """Sign in as an organiser."""
    form = AccountForm()
    if form.validate_on_submit():
        outcome = accounts.sign_in(form.username.data, form.password.data, counted_address())
        match outcome:
            case accounts.MustWait(seconds, whole_address):
                unit = "second" if seconds == 1 else "seconds"
                whose = "" if whole_address else " for this username"
                form.password.errors.append(
                    f"Too many failed sign-ins{whose} from your address: "
                    f"wait {seconds} {unit}, then try again."
                )
                page, _ = _page(form, signup=False)
                return page, 429, {"Retry-After": str(seconds)}
            case accounts.SignedIn(organiser):
                _signed_in(organiser)
                return redirect(_next_url())
            case _:
                form.password.errors.append("That username and password do not match.")
    return _page(form, signup=False)


@bp.post("/logout")
def logout():
    """Sign out: this session ends everywhere, and the phone forgets its table links and games."""
    if current_user.is_authenticated:
        accounts.sign_out(current_user)
    logout_user()
    session.clear()  # the table links ("tables") and my games ("games") go too
    flash("Signed out.")
    return redirect(url_for("home.index"))
