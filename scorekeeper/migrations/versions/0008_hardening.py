"""Hardening: organisers' session generation; the body an idempotency key was first sent with

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 20:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('organiser', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('session_generation', sa.Integer(), nullable=False, server_default='0')
        )
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_hash', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.drop_column('request_hash')
    with op.batch_alter_table('organiser', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
