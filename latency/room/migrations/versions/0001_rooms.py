"""Rooms, participants and answers (issue 25).

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("presenter_key", sa.String(64), nullable=False),
        sa.Column("screen", sa.String(32), nullable=False),
        sa.Column("revealed", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rooms_expires_at", "rooms", ["expires_at"])
    op.create_table(
        "participants",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("nickname", sa.String(24), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("burst_start", sa.DateTime(timezone=True), nullable=True),
        sa.Column("burst_count", sa.Integer, nullable=False),
    )
    op.create_index("ix_participants_room_code", "participants", ["room_code"])
    op.create_table(
        "answers",
        sa.Column("participant_id", sa.Integer, sa.ForeignKey("participants.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("question_id", sa.String(64), primary_key=True),
        sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("choice_id", sa.String(64), nullable=False),
        sa.Column("changes", sa.Integer, nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_answers_room_code", "answers", ["room_code"])


def downgrade() -> None:
    op.drop_table("answers")
    op.drop_table("participants")
    op.drop_table("rooms")
