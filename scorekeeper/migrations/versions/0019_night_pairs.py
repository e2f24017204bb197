"""Fixed partners' pairs kept (issue 38): drawn before round 1, every round a round of their
round robin; nights kept before have none (their pairs are round 1's partners, as then)

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02 07:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pairs', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.drop_column('pairs')
