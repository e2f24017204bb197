"""Games, sign-ups and clubs made from each address, kept for their window (creation limits)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('creation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('creation', schema=None) as batch_op:
        batch_op.create_index('ix_creation_kind_address_at', ['kind', 'address', 'at'], unique=False)
        batch_op.create_index(batch_op.f('ix_creation_at'), ['at'], unique=False)


def downgrade():
    with op.batch_alter_table('creation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_creation_at'))
        batch_op.drop_index('ix_creation_kind_address_at')

    op.drop_table('creation')
