"""Ratings kept: each club player's rating within a scope (every game, a season, a preset, a
saved rule set), and each step of it game by game, derived from the finished games (issue 30);
the club's default order of its standings (a rating, or win % as before)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-05 09:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                'standings_sort', sa.String(length=30), nullable=False, server_default='win_rate'
            )
        )
    op.create_table('rating',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=60), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=True),
    sa.Column('guest', sa.String(length=60), nullable=True),
    sa.Column('mu', sa.Double(), nullable=False),
    sa.Column('sigma', sa.Double(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['member_id'], ['member.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.create_index(
            'ix_rating_scope', ['club_id', 'scope', 'member_id', 'guest'], unique=False
        )
        batch_op.create_index('ix_rating_member', ['member_id', 'scope'], unique=False)

    op.create_table('rating_step',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=60), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=True),
    sa.Column('guest', sa.String(length=60), nullable=True),
    sa.Column('played_on', sa.Date(), nullable=False),
    sa.Column('mu', sa.Double(), nullable=False),
    sa.Column('sigma', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['member_id'], ['member.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.create_index(
            'ix_rating_step_scope', ['club_id', 'scope', 'position'], unique=False
        )
        batch_op.create_index(
            'ix_rating_step_member', ['member_id', 'scope', 'position'], unique=False
        )
        batch_op.create_index(
            batch_op.f('ix_rating_step_game_id'), ['game_id'], unique=False
        )


def downgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_step_game_id'))
        batch_op.drop_index('ix_rating_step_member')
        batch_op.drop_index('ix_rating_step_scope')
    op.drop_table('rating_step')
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_member')
        batch_op.drop_index('ix_rating_scope')
    op.drop_table('rating')
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('standings_sort')
