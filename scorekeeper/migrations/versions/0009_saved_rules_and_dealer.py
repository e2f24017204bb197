"""A club's saved rule sets, the games started from them, the first dealer; standings by rule set

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 23:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

FIGURES = [
    'won', 'final_total', 'deals_played', 'clean_books', 'dirty_books', 'wild_books',
    'special_books', 'went_out', 'red_threes_caught',
]


def _member_day(with_saved_rules):
    """member_day as it stands before (False) or after (True) this revision."""
    saved = [sa.Column('saved_rules_id', sa.Integer(), nullable=False)] if with_saved_rules else []
    unique = ['club_id', 'played_on', 'ruleset', *(['saved_rules_id'] if with_saved_rules else []),
              'member_id']
    op.create_table('member_day',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=False),
    sa.Column('played_on', sa.Date(), nullable=False),
    sa.Column('ruleset', sa.String(length=40), nullable=False),
    *saved,
    sa.Column('games', sa.Integer(), nullable=False),
    *[sa.Column(name, sa.Integer(), nullable=False) for name in FIGURES],
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['member_id'], ['member.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint(*unique, **({'name': 'uq_member_day'} if with_saved_rules else {}))
    )
    keys = ['club_id', 'played_on', 'member_id', 'ruleset',
            *(['saved_rules_id'] if with_saved_rules else []), 'games', *FIGURES]
    with op.batch_alter_table('member_day', schema=None) as batch_op:
        batch_op.create_index('ix_member_day_standings', keys, unique=False)
    # Each member's results summed per club night and rule set, from member_result.
    group = 'club_id, member_id, played_on, ruleset' + (
        ', saved_rules_id' if with_saved_rules else '')
    op.execute(sa.text(
        f"INSERT INTO member_day ({group}, games, " + ", ".join(FIGURES) + ") "
        f"SELECT {group}, count(*), sum(CASE WHEN won THEN 1 ELSE 0 END), "
        + ", ".join(f"sum({name})" for name in FIGURES[1:])
        + f" FROM member_result GROUP BY {group}"
    ))


def upgrade():
    op.create_table('saved_rules',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('ruleset', sa.String(length=40), nullable=False),
    sa.Column('house_rules', sa.JSON(), nullable=False),
    sa.Column('is_default', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('club_id', 'name', name='uq_saved_rules_name')
    )
    with op.batch_alter_table('saved_rules', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_saved_rules_club_id'), ['club_id'], unique=False)

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('saved_rules_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('rules_name', sa.String(length=60), nullable=True))
        batch_op.add_column(
            sa.Column('first_dealer', sa.Integer(), nullable=False, server_default='0')
        )
        batch_op.create_index(batch_op.f('ix_game_saved_rules_id'), ['saved_rules_id'], unique=False)
        batch_op.create_foreign_key(
            'fk_game_saved_rules', 'saved_rules', ['saved_rules_id'], ['id'], ondelete='SET NULL'
        )

    with op.batch_alter_table('member_result', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('saved_rules_id', sa.Integer(), nullable=False, server_default='0')
        )
        batch_op.drop_index('ix_member_result_standings')
        batch_op.create_index('ix_member_result_standings', [
            'club_id', 'member_id', 'played_on', 'ruleset', 'saved_rules_id', *FIGURES,
        ], unique=False)

    # member_day only sums member_result: made again with the new column, and refilled.
    with op.batch_alter_table('member_day', schema=None) as batch_op:
        batch_op.drop_index('ix_member_day_standings')
    op.drop_table('member_day')
    _member_day(with_saved_rules=True)


def downgrade():
    with op.batch_alter_table('member_day', schema=None) as batch_op:
        batch_op.drop_index('ix_member_day_standings')
    op.drop_table('member_day')
    with op.batch_alter_table('member_result', schema=None) as batch_op:
        batch_op.drop_index('ix_member_result_standings')
        batch_op.create_index('ix_member_result_standings', [
            'club_id', 'member_id', 'played_on', 'ruleset', *FIGURES,
        ], unique=False)
        batch_op.drop_column('saved_rules_id')
    _member_day(with_saved_rules=False)
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint('fk_game_saved_rules', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_saved_rules_id'))
        batch_op.drop_column('first_dealer')
        batch_op.drop_column('rules_name')
        batch_op.drop_column('saved_rules_id')
    with op.batch_alter_table('saved_rules', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_saved_rules_club_id'))
    op.drop_table('saved_rules')
