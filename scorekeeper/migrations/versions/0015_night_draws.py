"""Club nights: a night's seating drawn again (its draw), and phones holding a club's table link
allowed to open and run its nights; a night's players found by member (a member deleted or
merged touches their nights by this index, not by reading every night's players) (issue 29)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 09:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.add_column(sa.Column('draw', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('tables_run_nights', sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table('night_player', schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f('ix_night_player_member_id'), ['member_id'], unique=False
        )


def downgrade():
    with op.batch_alter_table('night_player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_night_player_member_id'))
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('tables_run_nights')
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.drop_column('draw')
