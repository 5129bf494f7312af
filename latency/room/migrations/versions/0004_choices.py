"""A lesson step's choice, shared (presenter re-check 2026-12-05: the presenter moved a step's slider
to 8B and the phones kept 405B, so the wall and the phones showed two different charts).

- rooms.choices: the presenter's choice on each lesson step, as JSON ({"step-id": value}); phones
  draw the step at it (and may still try other choices until the presenter moves again).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("choices", sa.String(4000), nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("choices")
