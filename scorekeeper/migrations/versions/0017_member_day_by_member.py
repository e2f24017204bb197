"""The standings' figures indexed in member order too: the standings over every season (or one
rule set) sum each member's days as they come, with no sort of every row (issue 30: the
standings with their Rating column answer within their time before it)

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06 09:00:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

FIGURES = [
    'games',
    'won',
    'final_total',
    'deals_played',
    'clean_books',
    'dirty_books',
    'wild_books',
    'special_books',
    'went_out',
    'red_threes_caught',
]


def upgrade():
    with op.batch_alter_table('member_day', schema=None) as batch_op:
        batch_op.create_index(
            'ix_member_day_by_member',
            ['club_id', 'member_id', 'ruleset', 'saved_rules_id', *FIGURES],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table('member_day', schema=None) as batch_op:
        batch_op.drop_index('ix_member_day_by_member')
