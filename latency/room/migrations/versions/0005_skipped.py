"""Quiz questions a presenter leaves out (presenter trial 2026-12-06: a 15-minute session had no way to ask
fewer than all twelve questions).

- rooms.skipped: question ids the room will not ask, space-separated (empty: every question).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("skipped", sa.Text, nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("skipped")
