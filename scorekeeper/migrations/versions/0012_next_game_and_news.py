"""Play again makes one next game for the table; the last deal saved or corrected, as news

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('next_game_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('next_started_by', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('news', sa.JSON(), nullable=True))
        batch_op.create_unique_constraint('uq_game_next_game_id', ['next_game_id'])
        batch_op.create_foreign_key(
            'fk_game_next_game', 'game', ['next_game_id'], ['id'], ondelete='SET NULL'
        )


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint('fk_game_next_game', type_='foreignkey')
        batch_op.drop_constraint('uq_game_next_game_id', type_='unique')
        batch_op.drop_column('news')
        batch_op.drop_column('next_started_by')
        batch_op.drop_column('next_game_id')
