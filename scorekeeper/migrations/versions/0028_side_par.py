"""Each side's par (issue 42): its chance to win in percent, from the club's ratings as they
stood when the game started; games kept before have none (their ratings then are not kept)

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-03 09:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0028'
down_revision = '0027'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.add_column(sa.Column('par', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.drop_column('par')
