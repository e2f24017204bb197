"""Each deal's history kept with its game, and when a club's finished game locks (issue 40)

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-02 14:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0025'
down_revision = '0024'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'deal_event',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('deal_number', sa.Integer(), nullable=False),
        sa.Column('deal_version', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=12), nullable=False),
        sa.Column('side_position', sa.Integer(), nullable=True),
        sa.Column('by', sa.String(length=40), nullable=False),
        sa.Column('device', sa.String(length=32), nullable=True),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('before', sa.JSON(), nullable=True),
        sa.Column('after', sa.JSON(), nullable=True),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_deal_event_game_deal', 'deal_event', ['game_id', 'deal_number'])
    # Games kept before have no history; clubs lock a finished game a day after it ends.
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('lock_after_hours', sa.Integer(), nullable=False, server_default='24')
        )


def downgrade():
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('lock_after_hours')
    op.drop_index('ix_deal_event_game_deal', table_name='deal_event')
    op.drop_table('deal_event')
