"""A whole session (issue 30 items 2-5): the room's language, the questions asked, peer instruction
(a question's phase: the spread shown, a second vote), a countdown, the presenter ending the room,
presence, and each participant's second vote beside the first.

- rooms.lang: the presenter's language, so a phone that joins by the code alone follows it.
- rooms.asked: the question ids the presenter opened, in order (a phone's "n of m" and the results
  count the questions asked, not the whole quiz); filled from the answers for rooms already open.
- rooms.phases: "qid=spread" / "qid=vote2", space-separated (the question's peer-instruction phase).
- rooms.timer_for / timer_ends: the vote a countdown closes ("qid/1" or "qid/2") and when.
- rooms.ended_at: when the presenter ended the room (nobody joins or answers; results stay).
- participants.last_seen: the phone's last poll (present while recent; a phone that left is not counted).
- answers.choice2_id / changes2 / answered2_at: the second vote; choice_id (the first vote) may be
  empty for someone who joined during the discussion and voted only the second time.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("lang", sa.String(8), nullable=False, server_default="ko"))
        batch.add_column(sa.Column("asked", sa.Text, nullable=False, server_default=""))
        batch.add_column(sa.Column("phases", sa.Text, nullable=False, server_default=""))
        batch.add_column(sa.Column("timer_for", sa.String(80), nullable=True))
        batch.add_column(sa.Column("timer_ends", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("participants") as batch:
        batch.add_column(sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("answers") as batch:
        batch.alter_column("choice_id", existing_type=sa.String(64), nullable=True)
        batch.add_column(sa.Column("choice2_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("changes2", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("answered2_at", sa.DateTime(timezone=True), nullable=True))
    # rooms open before this migration: the questions they answered count as asked
    conn = op.get_bind()
    rooms = sa.table("rooms", sa.column("code", sa.String), sa.column("asked", sa.Text))
    answers = sa.table("answers", sa.column("room_code", sa.String), sa.column("question_id", sa.String))
    asked: dict[str, list[str]] = {}
    for code, qid in conn.execute(sa.select(answers.c.room_code, answers.c.question_id).distinct()
                                  .order_by(answers.c.room_code, answers.c.question_id)):
        asked.setdefault(code, []).append(qid)
    for code, qids in asked.items():
        conn.execute(rooms.update().where(rooms.c.code == code).values(asked=" ".join(qids)))


def downgrade() -> None:
    with op.batch_alter_table("answers") as batch:
        batch.drop_column("answered2_at")
        batch.drop_column("changes2")
        batch.drop_column("choice2_id")
    with op.batch_alter_table("participants") as batch:
        batch.drop_column("last_seen")
    with op.batch_alter_table("rooms") as batch:
        for name in ("ended_at", "timer_ends", "timer_for", "phases", "asked", "lang"):
            batch.drop_column(name)
