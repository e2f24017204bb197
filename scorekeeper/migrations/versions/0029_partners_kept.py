"""Whom each player has always partnered, kept with their rating and its steps (issue 42):
players who always played with the same partner cannot be told apart by the ratings, and the
standings and the API say so; every club with ratings is folded again whole to fill it in

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-03 09:20:00

"""
from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0029'
down_revision = '0028'
branch_labels = None
depends_on = None

# A digest of a player's teammates in hex (plumbing/models/ratings.PARTNERS_KEY then).
PARTNERS_KEY = 16


def upgrade():
    for table in ('rating', 'rating_step'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column('partners', sa.String(length=PARTNERS_KEY), nullable=True)
            )
    # Kept as not worked out (null) until a whole-club mark (services/ratings/kept.py) has the
    # folding thread, or `flask fold`, fold each club with ratings again from its first game.
    rating = sa.table('rating', sa.column('club_id', sa.Integer))
    mark = sa.table(
        'rating_mark',
        sa.column('club_id', sa.Integer),
        sa.column('whole', sa.Boolean),
        sa.column('marked_at', sa.DateTime(timezone=True)),
    )
    connection = op.get_bind()
    clubs = connection.execute(sa.select(rating.c.club_id).distinct()).scalars().all()
    now = datetime.now(timezone.utc)
    if clubs:
        connection.execute(
            mark.insert(), [{'club_id': c, 'whole': True, 'marked_at': now} for c in clubs]
        )


def downgrade():
    for table in ('rating_step', 'rating'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('partners')
