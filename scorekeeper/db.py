"""The database handle, shared by the models and the app factory."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every model."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
