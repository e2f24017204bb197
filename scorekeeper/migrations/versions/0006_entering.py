"""Who is entering a deal

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 04:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('entering',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('device', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('deal_number', sa.Integer(), nullable=False),
    sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'device')
    )


def downgrade():
    op.drop_table('entering')
