"""Ratings folded off the save path (issue 39): a save marks what changed (rating_mark), a
folder folds the marks after the commit, one club at a time (rating_fold, its lease)

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'rating_mark',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('club_id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('scope', sa.String(length=60), nullable=True),
        sa.Column('place', sa.Integer(), nullable=True),
        sa.Column('whole', sa.Boolean(), nullable=False),
        sa.Column('marked_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('rating_mark', schema=None) as batch_op:
        batch_op.create_index('ix_rating_mark_club', ['club_id', 'id'], unique=False)
    op.create_table(
        'rating_fold',
        sa.Column('club_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('until', sa.DateTime(timezone=True), nullable=False),
        sa.Column('holder', sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('club_id'),
    )


def downgrade():
    op.drop_table('rating_fold')
    with op.batch_alter_table('rating_mark', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_mark_club')
    op.drop_table('rating_mark')
