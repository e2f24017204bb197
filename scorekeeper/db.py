"""The database handle, shared by the models and the app factory, and SQLite done right."""

from flask import g, has_request_context, request
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine, event
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every model."""


# A session lives for one request: what it has just committed is what the database holds, so
# reading it again after the commit (and replaying a whole game to redirect) is wasted work.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()

READS = ("GET", "HEAD", "OPTIONS")


def configure_sqlite(engine: Engine) -> None:
    """WAL, a busy timeout, foreign keys, and write transactions that begin IMMEDIATE.

    With WAL and a busy timeout alone, a transaction that reads first and writes later can
    fail with "database is locked" when another writer got there between its read and its
    write; taking the write lock at BEGIN makes writers queue for it instead.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record) -> None:
        # SQLAlchemy, not the driver, says when a transaction begins (see _begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection) -> None:
        # Once a request has committed its write, what is left is reading the answer back:
        # that needs no write lock, so other phones' writes need not wait for it.
        reading = has_request_context() and (request.method in READS or g.get("committed"))
        connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")

    @event.listens_for(engine, "commit")
    def _commit(connection) -> None:
        if has_request_context():
            g.committed = True
