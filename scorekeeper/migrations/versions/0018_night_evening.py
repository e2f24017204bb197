"""The club night as one evening (issue 37): how a night ranks its players (nights kept before
rank as they did: "average"), its read-only board link, players checked in from their own
phone, and whether a club lets them

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07 09:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('ranking', sa.String(length=16), nullable=False, server_default='average')
        )
        batch_op.add_column(sa.Column('board_secret', sa.String(length=22), nullable=True))
        batch_op.create_unique_constraint('uq_night_board_secret', ['board_secret'])
    with op.batch_alter_table('night_player', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('by_self', sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('self_check_in', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('self_check_in')
    with op.batch_alter_table('night_player', schema=None) as batch_op:
        batch_op.drop_column('by_self')
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.drop_constraint('uq_night_board_secret', type_='unique')
        batch_op.drop_column('board_secret')
        batch_op.drop_column('ranking')
