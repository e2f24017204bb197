"""A club's records file imported as a job off the request (issue 39): the file, its progress,
a runner's claim and lease, and what it added or why not (import_job)

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-02 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'import_job',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('club_id', sa.Integer(), nullable=False),
        sa.Column('state', sa.String(length=16), nullable=False),
        sa.Column('file', sa.LargeBinary(), nullable=True),
        sa.Column('games_total', sa.Integer(), nullable=False),
        sa.Column('games_done', sa.Integer(), nullable=False),
        sa.Column('games_saved', sa.Integer(), nullable=False),
        sa.Column('skipped', sa.JSON(), nullable=True),
        sa.Column('report', sa.JSON(), nullable=True),
        sa.Column('problem', sa.Text(), nullable=True),
        sa.Column('claim', sa.Integer(), nullable=False),
        sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('import_job', schema=None) as batch_op:
        batch_op.create_index('ix_import_job_club', ['club_id', 'id'], unique=False)
        batch_op.create_index('ix_import_job_state', ['state', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('import_job', schema=None) as batch_op:
        batch_op.drop_index('ix_import_job_state')
        batch_op.drop_index('ix_import_job_club')
    op.drop_table('import_job')
