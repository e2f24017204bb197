"""Guests rated by their name as names are told apart everywhere (issue 42): "Zed" and "zed"
are one guest, as they are one member; each club with a guest's rating is folded again

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-03 06:20:00

"""
from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade():
    # A whole-club mark (services/ratings/kept.py) for each club that rated a guest: the
    # folding thread, or `flask fold`, folds it again from its first game, the guests now
    # keyed by name_key. Nothing is folded here: a migration holds no app.
    rating = sa.table('rating', sa.column('club_id', sa.Integer), sa.column('guest', sa.String))
    mark = sa.table(
        'rating_mark',
        sa.column('club_id', sa.Integer),
        sa.column('whole', sa.Boolean),
        sa.column('marked_at', sa.DateTime(timezone=True)),
    )
    connection = op.get_bind()
    clubs = connection.execute(
        sa.select(rating.c.club_id).where(rating.c.guest.is_not(None)).distinct()
    ).scalars().all()
    now = datetime.now(timezone.utc)
    if clubs:
        connection.execute(
            mark.insert(), [{'club_id': c, 'whole': True, 'marked_at': now} for c in clubs]
        )


def downgrade():
    # The marks fold what is there; the ratings are as good keyed either way.
    pass
