"""Each side's line of the next deal, sent from its own phone

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 01:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('deal_part',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('side_position', sa.Integer(), nullable=False),
    sa.Column('deal_number', sa.Integer(), nullable=False),
    sa.Column('entry', sa.JSON(), nullable=False),
    sa.Column('sent_by', sa.String(length=40), nullable=False),
    sa.Column('device', sa.String(length=32), nullable=True),
    sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('problem', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'side_position')
    )


def downgrade():
    op.drop_table('deal_part')
