"""Members keyed for the look-alike check (issue 39): a new name asks only for the members
sharing its length and first or last letters (member.alike_head, alike_tail), filled here for
every member already kept

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-02 10:30:00

"""
import unicodedata

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None

# The keys as scorekeeper/plumbing/alike_keys.py made them at this revision (a migration keeps
# its own copy, as the code may move on; tests/services/test_member_alike_keys.py holds the two
# together).
MOST_KEPT = 40
KEY_LENGTH = MOST_KEPT + 8


def _keys(name):
    """A name's head and tail: its length in letters, and its first and last letters."""
    decomposed = unicodedata.normalize('NFKD', name.casefold())
    letters = ''.join(char for char in decomposed if char.isalnum())
    n = len(letters)
    span = min(max(n - 1, 0) // 2, MOST_KEPT)
    return f'{n}:{letters[:span]}', f'{n}:{letters[n - span:]}'


def upgrade():
    with op.batch_alter_table('member', schema=None) as batch_op:
        batch_op.add_column(sa.Column('alike_head', sa.String(length=KEY_LENGTH), nullable=True))
        batch_op.add_column(sa.Column('alike_tail', sa.String(length=KEY_LENGTH), nullable=True))

    connection = op.get_bind()
    member = sa.table(
        'member',
        sa.column('id', sa.Integer),
        sa.column('name', sa.String),
        sa.column('alike_head', sa.String),
        sa.column('alike_tail', sa.String),
    )
    rows = connection.execute(sa.select(member.c.id, member.c.name)).all()
    change = (
        member.update()
        .where(member.c.id == sa.bindparam('member_id'))
        .values(alike_head=sa.bindparam('head'), alike_tail=sa.bindparam('tail'))
    )
    for start in range(0, len(rows), 1000):
        connection.execute(
            change,
            [
                {'member_id': row.id, 'head': head, 'tail': tail}
                for row in rows[start:start + 1000]
                for head, tail in [_keys(row.name)]
            ],
        )

    # Left nullable: a host still on the old code during a rollout adds members without keys,
    # and services/members.py compares those (the only ones without) by the rule itself.
    with op.batch_alter_table('member', schema=None) as batch_op:
        batch_op.create_index('ix_member_alike_head', ['club_id', 'alike_head'], unique=False)
        batch_op.create_index('ix_member_alike_tail', ['club_id', 'alike_tail'], unique=False)


def downgrade():
    with op.batch_alter_table('member', schema=None) as batch_op:
        batch_op.drop_index('ix_member_alike_tail')
        batch_op.drop_index('ix_member_alike_head')
        batch_op.drop_column('alike_tail')
        batch_op.drop_column('alike_head')
