"""Organiser accounts: sign up, sign in, sign out."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, Length

from .. import accounts
from ..rules.terms import MAX_NAME, MAX_PASSWORD

bp = Blueprint("accounts", __name__)


class AccountForm(FlaskForm):
    """A username and a password."""

    username = StringField("Username", validators=[DataRequired(), Length(max=MAX_NAME)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=MAX_PASSWORD)])


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
def signup():
    """Create an organiser account, to run a club."""
    form = AccountForm()
    if form.validate_on_submit():
        try:
            organiser = accounts.register(form.username.data, form.password.data)
        except accounts.AccountRefused as exc:
            form.username.errors.append(str(exc))
        else:
            login_user(organiser)
            flash(f"Welcome, {organiser.username}. Now create your club.")
            return redirect(url_for("clubs.new"))
    status = 422 if form.errors else 200
    return render_template("account.html", form=form, signup=True), status


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Sign in as an organiser."""
    form = AccountForm()
    if form.validate_on_submit():
        address = request.remote_addr or "unknown"
        if accounts.login_blocked(form.username.data, address):
            form.password.errors.append(
                "Too many failed sign-ins: wait 15 minutes, then try again."
            )
            return render_template("account.html", form=form, signup=False), 429
        organiser = accounts.authenticate(form.username.data, form.password.data)
        if organiser is None:
            accounts.record_failed_login(form.username.data, address)
            form.password.errors.append("That username and password do not match.")
        else:
            login_user(organiser)
            return redirect(_next_url())
    status = 422 if form.errors else 200
    return render_template("account.html", form=form, signup=False), status


@bp.post("/logout")
def logout():
    """Sign out."""
    logout_user()
    flash("Signed out.")
    return redirect(url_for("home.index"))
