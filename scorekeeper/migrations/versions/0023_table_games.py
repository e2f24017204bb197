"""Games started from a club's table link counted as the club decides (issue 39): the club's
choice, each game's mark, and a game held out of the standings and ratings until confirmed

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-02 11:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None


def upgrade():
    # Every club keeps today's rule (every game counts) until it chooses otherwise; every game
    # kept before counts as it did.
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('table_games', sa.String(length=12), nullable=False, server_default='every')
        )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('started_by_table', sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column('held_from_ratings', sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column('rating_review', sa.String(length=12), nullable=True))


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('rating_review')
        batch_op.drop_column('held_from_ratings')
        batch_op.drop_column('started_by_table')
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('table_games')
