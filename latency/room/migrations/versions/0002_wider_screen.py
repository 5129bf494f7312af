"""The room's screen holds "q:<question id>" whole (issue 30 item 1).

`rooms.screen` was VARCHAR(32) and the store cut what it wrote to 32 characters: the screen of
question 8, "q:q08-small-desktop-vs-big-cluster" (34), was stored cut, and every view of the room
broke on it. Now 80 characters (a question id may have at most 40, latency/teaching/lesson.py
ID_MAX, checked by `python -m latency.content check`), and the store refuses a longer value with
ValueTooLong instead of cutting it. An existing database keeps its rows (ALTER on PostgreSQL; on
SQLite Alembic's batch mode copies the table, which keeps every row).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.alter_column("screen", existing_type=sa.String(32), type_=sa.String(80), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.alter_column("screen", existing_type=sa.String(80), type_=sa.String(32), existing_nullable=False)
