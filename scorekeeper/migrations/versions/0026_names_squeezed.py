"""Names kept with their spaces squeezed (issue 41): "Ann  Smith" as a player, a side or a
night's guest is "Ann Smith", as members always were; the names kept before are squeezed here

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-02 19:40:00

"""
from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0026'
down_revision = '0025'
branch_labels = None
depends_on = None

# Rows updated in one statement, as 0021 keys its members.
BATCH = 1000


def _squeezed(name):
    """The rule as scorekeeper/services/names.squeezed has it at this revision (a migration keeps
    its own copy, as the code may move on; tests/test_migrations.py holds the two together)."""
    return ' '.join(name.split())


def _changed(connection, table):
    """Each row of `table` whose name squeezing changes, as (id, name squeezed, the row).

    Read in slices (a host's every player is many rows) and kept only when changed (few).
    """
    query = sa.select(table).order_by(table.c.id).execution_options(yield_per=5000)
    return [
        (row.id, _squeezed(row.name), row)
        for row in connection.execute(query)
        if _squeezed(row.name) != row.name
    ]


def _update(connection, table, changes):
    change = (
        table.update()
        .where(table.c.id == sa.bindparam('row_id'))
        .values(name=sa.bindparam('squeezed'))
    )
    for start in range(0, len(changes), BATCH):
        connection.execute(
            change,
            [{'row_id': id_, 'squeezed': name} for id_, name in changes[start:start + BATCH]],
        )


def upgrade():
    connection = op.get_bind()
    named = {
        name: sa.table(name, sa.column('id', sa.Integer), sa.column('name', sa.String), *extra)
        for name, extra in (
            ('side', ()),
            ('player', (sa.column('side_id', sa.Integer), sa.column('member_id', sa.Integer))),
            ('night_player', ()),
            ('member', (sa.column('club_id', sa.Integer),)),
        )
    }
    for name in ('side', 'night_player'):
        changes = _changed(connection, named[name])
        _update(connection, named[name], [(id_, kept) for id_, kept, _ in changes])

    # A guest is rated by the name they played under: their clubs' ratings are folded again
    # whole (services/ratings/refold.py, at the folder's first sweep) under the name squeezed.
    player = named['player']
    changes = _changed(connection, player)
    _update(connection, player, [(id_, kept) for id_, kept, _ in changes])
    guests = [row.side_id for _, _, row in changes if row.member_id is None]
    side = sa.table('side', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer))
    game = sa.table('game', sa.column('id', sa.Integer), sa.column('club_id', sa.Integer))
    clubs = set()
    for start in range(0, len(guests), BATCH):
        query = (
            sa.select(game.c.club_id)
            .join(side, side.c.game_id == game.c.id)
            .where(side.c.id.in_(guests[start:start + BATCH]), game.c.club_id.is_not(None))
            .distinct()
        )
        clubs.update(connection.execute(query).scalars())
    if clubs:
        mark = sa.table(
            'rating_mark',
            sa.column('club_id', sa.Integer),
            sa.column('whole', sa.Boolean),
            sa.column('marked_at', sa.DateTime(timezone=True)),
        )
        now = datetime.now(timezone.utc)
        connection.execute(
            mark.insert(),
            [{'club_id': club, 'whole': True, 'marked_at': now} for club in sorted(clubs)],
        )

    # Members were squeezed when added or renamed; one kept otherwise whose squeezed name is
    # another member's of the club (names are unique in a club, whatever their case) keeps
    # its name: the organiser merges the two on the member's page.
    member = named['member']
    changes = _changed(connection, member)
    if changes:
        taken = {
            (row.club_id, row.name.casefold())
            for row in connection.execute(sa.select(member.c.club_id, member.c.name))
        }
        free = []
        for id_, kept, row in changes:
            if (row.club_id, kept.casefold()) not in taken:
                taken.add((row.club_id, kept.casefold()))
                free.append((id_, kept))
        _update(connection, member, free)


def downgrade():
    # Nothing to undo: a name squeezed is a name the code before this revision keeps too.
    pass
