"""Private game links: every game gets a secret; missed links are counted per address

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 09:00:00

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('link_miss',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('link_miss', schema=None) as batch_op:
        batch_op.create_index('ix_link_miss_address_at', ['address', 'at'], unique=False)
        batch_op.create_index(batch_op.f('ix_link_miss_at'), ['at'], unique=False)

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('secret', sa.String(length=22), nullable=True))

    # Every game already kept gets its own secret (the same 128 random bits a new game gets);
    # `flask --app scorekeeper game-links` prints the links for the operator to hand out.
    connection = op.get_bind()
    game = sa.table('game', sa.column('id', sa.Integer), sa.column('secret', sa.String))
    ids = [row.id for row in connection.execute(sa.select(game.c.id).where(game.c.secret.is_(None)))]
    for start in range(0, len(ids), 1000):
        connection.execute(
            game.update().where(game.c.id == sa.bindparam('game_id')).values(secret=sa.bindparam('s')),
            [{'game_id': i, 's': secrets.token_urlsafe(16)} for i in ids[start:start + 1000]],
        )

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('secret', existing_type=sa.String(length=22), nullable=False)
        batch_op.create_unique_constraint('uq_game_secret', ['secret'])


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint('uq_game_secret', type_='unique')
        batch_op.drop_column('secret')

    with op.batch_alter_table('link_miss', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_link_miss_at'))
        batch_op.drop_index('ix_link_miss_address_at')

    op.drop_table('link_miss')
