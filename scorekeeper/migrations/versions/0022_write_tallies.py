"""Each game's and address's writes counted per window (issue 39): deals, lines and
corrections past an allowance are refused (services/writes.py)

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-02 11:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('write_tally',
    sa.Column('scope', sa.String(length=96), nullable=False),
    sa.Column('window', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('until', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('scope', 'window')
    )
    with op.batch_alter_table('write_tally', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_write_tally_until'), ['until'], unique=False)


def downgrade():
    with op.batch_alter_table('write_tally', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_write_tally_until'))

    op.drop_table('write_tally')
