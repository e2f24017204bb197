"""A game's live version: an unchanged poll is answered from it alone

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 02:05:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game') as batch_op:
        batch_op.add_column(
            sa.Column('live_version', sa.Integer(), server_default='0', nullable=False)
        )


def downgrade():
    with op.batch_alter_table('game') as batch_op:
        batch_op.drop_column('live_version')
