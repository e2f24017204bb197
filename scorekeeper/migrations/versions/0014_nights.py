"""Club nights kept: a night's players, its rounds and each round's tables' games (issue 29)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('night',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('played_on', sa.Date(), nullable=False),
    sa.Column('ruleset', sa.String(length=40), nullable=False),
    sa.Column('house_rules', sa.JSON(), nullable=False),
    sa.Column('saved_rules_id', sa.Integer(), nullable=True),
    sa.Column('rules_name', sa.String(length=60), nullable=True),
    sa.Column('shape', sa.String(length=16), nullable=False),
    sa.Column('partners', sa.String(length=16), nullable=False),
    sa.Column('rounds_planned', sa.Integer(), nullable=False),
    sa.Column('sit_out', sa.String(length=16), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['saved_rules_id'], ['saved_rules.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_night_club_id'), ['club_id'], unique=False)

    op.create_table('night_player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('night_id', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('from_round', sa.Integer(), nullable=False),
    sa.Column('left_after', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['member_id'], ['member.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['night_id'], ['night.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('night_player', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_night_player_night_id'), ['night_id'], unique=False)

    op.create_table('night_round',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('night_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('sitting_out', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['night_id'], ['night.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('night_id', 'number')
    )
    op.create_table('night_table',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('sides', sa.JSON(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['round_id'], ['night_round.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('round_id', 'number')
    )
    with op.batch_alter_table('night_table', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_night_table_game_id'), ['game_id'], unique=False)



def downgrade():
    with op.batch_alter_table('night_table', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_night_table_game_id'))

    op.drop_table('night_table')
    op.drop_table('night_round')
    with op.batch_alter_table('night_player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_night_player_night_id'))

    op.drop_table('night_player')
    with op.batch_alter_table('night', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_night_club_id'))

    op.drop_table('night')
