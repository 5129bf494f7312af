"""The room store: rooms, participants and answers in one SQL database (SQLAlchemy 2, Core).

Where: `LATENCY_DB_URL` if set (any SQLAlchemy URL: `sqlite:////path/room.db`,
`postgresql://user:pw@host/db`, which is driven by psycopg 3), else a SQLite file `room.db` in the
app's data directory (`LATENCY_DATA_DIR`, else `$XDG_DATA_HOME/latency-explainer`, else
`~/.local/share/latency-explainer`: the app's user can write there, nothing to install). Several
server processes given one PostgreSQL URL share every room.

The schema is Alembic's (latency/room/migrations/), brought to its head by `Store.migrate()` when
the app first opens the store, never by hand. Every write is one transaction (`engine.begin()`);
every statement is SQLAlchemy Core with bound parameters, never text built from input. Rooms
expire `ROOM_TTL` after they open and are deleted with their participants and answers (`purge`,
run whenever a room opens). Nothing personal is kept: a participant is a random token and an
optional nickname.

A database that cannot be reached raises `StoreDown` (the page names it); a code that names no
room raises `NoRoom` (why: "unknown", "expired" or "invalid"). Nothing is ever cut to fit a column:
a value longer than its column is refused with `ValueTooLong` naming the column, before any write
(the page cuts a nickname itself and says so; ids come from content the content check keeps short).
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterable, Mapping

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from latency.room import codes

log = logging.getLogger("latency.room")

ROOM_TTL = timedelta(hours=24)
NICKNAME_MAX = 24          # the longest nickname the store keeps (a longer one is refused: ValueTooLong)
SCREEN_MAX = 80            # the longest screen: "q:" + a question id of at most 40 (migration 0002)
FLOOD_WINDOW = timedelta(seconds=10)
FLOOD_MAX = 20             # answer writes one participant may make per FLOOD_WINDOW
CHANGES_MAX = 10           # times one participant may change one answer
MIGRATIONS = Path(__file__).with_name("migrations")
APP_DIR = "latency-explainer"

metadata = sa.MetaData()
rooms = sa.Table(
    "rooms", metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("presenter_key", sa.String(64), nullable=False),
    sa.Column("screen", sa.String(SCREEN_MAX), nullable=False),
    sa.Column("revealed", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False, index=True),
)
participants = sa.Table(
    "participants", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("token", sa.String(64), nullable=False, unique=True),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("burst_start", sa.DateTime(timezone=True), nullable=True),
    sa.Column("burst_count", sa.Integer, nullable=False),
)
answers = sa.Table(
    "answers", metadata,
    sa.Column("participant_id", sa.Integer, sa.ForeignKey("participants.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("question_id", sa.String(64), primary_key=True),
    sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("choice_id", sa.String(64), nullable=False),
    sa.Column("changes", sa.Integer, nullable=False),
    sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
)


class StoreDown(Exception):
    """The database cannot be reached or refused the statement (the page names it)."""


class ValueTooLong(ValueError):
    """A value longer than the column that would keep it: refused, never cut (issue 30 item 1)."""

    def __init__(self, column: str, value: str, limit: int) -> None:
        super().__init__(f"{column}: {len(value)} characters, the column keeps at most {limit}: {value[:40]!r}")
        self.column, self.value, self.limit = column, value, limit


def fits(table: sa.Table, values: Mapping[str, object]) -> None:
    """Raise ValueTooLong for the first text value longer than its column's declared length."""
    for name, value in values.items():
        length = getattr(table.c[name].type, "length", None)
        if isinstance(value, str) and length is not None and len(value) > length:
            raise ValueTooLong(f"{table.name}.{name}", value, length)


class NoRoom(Exception):
    """A code that names no open room; `why` is "invalid" (cannot be a code), "unknown" or "expired"."""

    def __init__(self, code: str, why: str) -> None:
        super().__init__(f"room {code!r}: {why}")
        self.code, self.why = code, why


@dataclass(frozen=True)
class Room:
    code: str
    screen: str                 # the presenter's screen: a lesson step param ("1".., "quiz", "done") or "q:<id>"
    revealed: frozenset[str]    # question ids the presenter revealed
    expires_at: datetime


@dataclass(frozen=True)
class Participant:
    id: int
    token: str
    nickname: str | None


ANSWER_SAVED, ANSWER_CHANGED, ANSWER_SAME = "saved", "changed", "same"
ANSWER_INVALID, ANSWER_FLOOD, ANSWER_CLOSED, ANSWER_NOBODY = "invalid", "flood", "closed", "nobody"
"""What `answer()` did: saved a first answer, replaced one, nothing (the same again); refused it:
a choice id the question does not have, too many writes, the question already revealed, a token
that is no participant of the room."""


def data_dir(env: Mapping[str, str] = os.environ) -> Path:
    """The app's data directory (see the module's docstring)."""
    if env.get("LATENCY_DATA_DIR"):
        return Path(env["LATENCY_DATA_DIR"])
    base = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else Path.home() / ".local" / "share"
    return base / APP_DIR


def database_url(env: Mapping[str, str] = os.environ) -> str:
    """`LATENCY_DB_URL`, a bare postgresql:// one given the psycopg 3 driver; else the SQLite file."""
    url = env.get("LATENCY_DB_URL", "").strip()
    if not url:
        return f"sqlite:///{data_dir(env) / 'room.db'}"
    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url[len(bare):]
    return url


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _aware(t: datetime) -> datetime:
    """SQLite hands datetimes back without their zone; every time this store writes is UTC."""
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


class Store:
    """One database. `clock` (UTC now) is injectable so tests can age rooms."""

    def __init__(self, url: str, clock: Callable[[], datetime] = _utc_now) -> None:
        self.url = url
        self.clock = clock
        u = sa.engine.make_url(url)
        kw: dict = {"pool_pre_ping": True}
        if u.get_backend_name() == "sqlite":
            if u.database and u.database != ":memory:":
                Path(u.database).parent.mkdir(parents=True, exist_ok=True)
            kw["connect_args"] = {"timeout": 15}   # wait on another writer instead of failing at once
        else:
            kw["connect_args"] = {"connect_timeout": 5}
        self.engine = sa.create_engine(u, **kw)
        if u.get_backend_name() == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)

    # --- schema --------------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to Alembic's head (several processes at once: PostgreSQL serialises them)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        try:
            with self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(25_2025)))
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except SQLAlchemyError as exc:
            raise StoreDown(str(exc)) from exc

    def _write(self):
        return _Tx(self.engine, write=True)

    def _read(self):
        return _Tx(self.engine, write=False)

    # --- rooms ---------------------------------------------------------------------------------
    def open_room(self, first_screen: str = "1") -> tuple[str, str]:
        """A new room: (code, presenter key). Expired rooms are deleted first."""
        fits(rooms, {"screen": first_screen})
        self.purge()
        now = self.clock()
        for _ in range(20):
            code, key = codes.new_code(), secrets.token_urlsafe(24)
            try:
                with self._write() as conn:
                    conn.execute(rooms.insert().values(code=code, presenter_key=key, screen=first_screen, revealed="",
                                                       created_at=now, expires_at=now + ROOM_TTL))
                log.info("room %s opened", code)
                return code, key
            except IntegrityError:
                continue  # that code is taken by a live room: draw another
        raise StoreDown("no free room code after 20 draws")

    def room(self, raw_code: str | None) -> Room:
        """The open room a code names (typed as a person typed it), or NoRoom saying why."""
        code = codes.normalize(raw_code)
        if not codes.is_valid(code):
            raise NoRoom(code, "invalid")
        with self._read() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code)).first()
        if row is None:
            raise NoRoom(code, "unknown")
        if _aware(row.expires_at) <= self.clock():
            raise NoRoom(code, "expired")
        return Room(row.code, row.screen, frozenset(row.revealed.split()), _aware(row.expires_at))

    def is_presenter(self, code: str, key: str | None) -> bool:
        with self._read() as conn:
            stored = conn.execute(sa.select(rooms.c.presenter_key).where(rooms.c.code == code)).scalar()
        return bool(key) and stored is not None and hmac.compare_digest(stored, str(key))

    def _presenter_update(self, code: str, key: str, change: Callable[[sa.Row], dict]) -> None:
        """One transaction: check the presenter's key, then write what `change(room row)` returns."""
        with self._write() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code)).first()
            if row is None or not key or not hmac.compare_digest(row.presenter_key, str(key)):
                log.warning("room %s: a change without the presenter's key was refused", code)
                raise PermissionError(code)
            values = change(row)
            fits(rooms, values)
            conn.execute(rooms.update().where(rooms.c.code == code).values(**values))

    def set_screen(self, code: str, key: str, screen: str) -> None:
        """The presenter moved: every participant follows to `screen`."""
        fits(rooms, {"screen": screen})
        self._presenter_update(code, key, lambda row: {"screen": screen})

    def reveal(self, code: str, key: str, question_id: str) -> None:
        """The presenter shows the room the answers and the right one; answering that question ends."""
        self._presenter_update(code, key, lambda row: {"revealed": " ".join(sorted(set(row.revealed.split()) | {question_id}))})

    def purge(self) -> int:
        """Delete every expired room with its participants and answers; how many rooms."""
        now = self.clock()
        with self._write() as conn:
            old = sa.select(rooms.c.code).where(rooms.c.expires_at <= now).scalar_subquery()
            conn.execute(answers.delete().where(answers.c.room_code.in_(old)))
            conn.execute(participants.delete().where(participants.c.room_code.in_(old)))
            n = conn.execute(rooms.delete().where(rooms.c.expires_at <= now)).rowcount
        if n:
            log.info("%d expired room(s) deleted", n)
        return n

    # --- participants --------------------------------------------------------------------------
    def join(self, code: str, nickname: str | None = None, token: str | None = None) -> Participant:
        """A participant of the room: the one `token` names (a rejoin after a lost connection), else a new one."""
        room = self.room(code)
        if token:
            found = self.participant(room.code, token)
            if found:
                return found
        nick = " ".join(str(nickname or "").split()) or None
        fits(participants, {"nickname": nick})
        token = secrets.token_urlsafe(16)
        with self._write() as conn:
            pid = conn.execute(participants.insert().values(room_code=room.code, token=token, nickname=nick,
                                                            joined_at=self.clock(), burst_count=0)).inserted_primary_key[0]
        return Participant(pid, token, nick)

    def participant(self, code: str, token: str | None) -> Participant | None:
        if not token:
            return None
        with self._read() as conn:
            row = conn.execute(sa.select(participants).where(participants.c.room_code == code,
                                                              participants.c.token == str(token)[:64])).first()
        return Participant(row.id, row.token, row.nickname) if row else None

    def count_participants(self, code: str) -> int:
        with self._read() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(participants)
                                .where(participants.c.room_code == code)).scalar_one()

    # --- answers -------------------------------------------------------------------------------
    def answer(self, code: str, token: str, question_id: str, choice_id: str, valid: Iterable[str]) -> str:
        """One participant's answer to one question; a changed answer replaces the old one.

        Refused, and named in the log, without changing anything: a choice id not in `valid`, a
        question the presenter revealed, more than FLOOD_MAX writes in FLOOD_WINDOW or CHANGES_MAX
        changes of one answer, a token that is no participant of the room."""
        if choice_id not in set(valid):
            log.warning("room %s: invalid choice id %r for question %r refused", code, str(choice_id)[:40], question_id)
            return ANSWER_INVALID
        fits(answers, {"question_id": question_id, "choice_id": choice_id})
        room = self.room(code)
        if question_id in room.revealed:
            return ANSWER_CLOSED
        try:
            return self._answer(room, token, question_id, choice_id)
        except IntegrityError:  # the same participant's first answer written twice at once: the second replaces
            return self._answer(room, token, question_id, choice_id)

    def _answer(self, room: Room, token: str, question_id: str, choice_id: str) -> str:
        now = self.clock()
        with self._write() as conn:
            p = conn.execute(sa.select(participants).where(participants.c.room_code == room.code,
                                                           participants.c.token == str(token)[:64])).first()
            if p is None:
                log.warning("room %s: an answer from an unknown participant refused", room.code)
                return ANSWER_NOBODY
            start, count = (_aware(p.burst_start), p.burst_count) if p.burst_start else (now, 0)
            if now - start > FLOOD_WINDOW:
                start, count = now, 0
            if count >= FLOOD_MAX:
                log.warning("room %s: participant %d sent more than %d answers in %s; refused",
                            room.code, p.id, FLOOD_MAX, FLOOD_WINDOW)
                return ANSWER_FLOOD
            conn.execute(participants.update().where(participants.c.id == p.id)
                         .values(burst_start=start, burst_count=count + 1))
            old = conn.execute(sa.select(answers.c.choice_id, answers.c.changes)
                               .where(answers.c.participant_id == p.id, answers.c.question_id == question_id)).first()
            if old is None:
                conn.execute(answers.insert().values(participant_id=p.id, question_id=question_id, room_code=room.code,
                                                     choice_id=choice_id, changes=0, answered_at=now))
                return ANSWER_SAVED
            if old.choice_id == choice_id:
                return ANSWER_SAME
            if old.changes >= CHANGES_MAX:
                log.warning("room %s: participant %d changed question %r more than %d times; refused",
                            room.code, p.id, question_id, CHANGES_MAX)
                return ANSWER_FLOOD
            conn.execute(answers.update().where(answers.c.participant_id == p.id, answers.c.question_id == question_id)
                         .values(choice_id=choice_id, changes=old.changes + 1, answered_at=now))
            return ANSWER_CHANGED

    def my_answer(self, code: str, token: str, question_id: str) -> str | None:
        with self._read() as conn:
            return conn.execute(sa.select(answers.c.choice_id).join(participants, participants.c.id == answers.c.participant_id)
                                .where(participants.c.room_code == code, participants.c.token == str(token)[:64],
                                       answers.c.question_id == question_id)).scalar()

    def counts(self, code: str, question_id: str) -> dict[str, int]:
        """How many chose each choice id (ids nobody chose are absent)."""
        with self._read() as conn:
            rows = conn.execute(sa.select(answers.c.choice_id, sa.func.count())
                                .where(answers.c.room_code == code, answers.c.question_id == question_id)
                                .group_by(answers.c.choice_id)).all()
        return {choice: n for choice, n in rows}

    def all_answers(self, code: str) -> list[tuple[str, str, str]]:
        """Every answer of the room as (question id, participant's label, choice id), for the results."""
        with self._read() as conn:
            rows = conn.execute(sa.select(answers.c.question_id, participants.c.id, participants.c.nickname, answers.c.choice_id)
                                .join(participants, participants.c.id == answers.c.participant_id)
                                .where(answers.c.room_code == code)
                                .order_by(answers.c.question_id, participants.c.id)).all()
        return [(q, nick or f"#{pid}", choice) for q, pid, nick, choice in rows]


class _Tx:
    """A connection (a transaction when writing) whose database errors become StoreDown."""

    def __init__(self, engine: sa.Engine, write: bool) -> None:
        self.engine, self.write, self.ctx = engine, write, None

    def __enter__(self):
        try:
            self.ctx = self.engine.begin() if self.write else self.engine.connect()
            return self.ctx.__enter__()
        except SQLAlchemyError as exc:
            raise StoreDown(str(exc)) from exc

    def __exit__(self, kind, exc, tb):
        try:
            self.ctx.__exit__(kind, exc, tb)
        except IntegrityError:
            raise
        except SQLAlchemyError as err:
            raise StoreDown(str(err)) from err
        if isinstance(exc, IntegrityError):
            return False
        if isinstance(exc, SQLAlchemyError):
            raise StoreDown(str(exc)) from exc
        return False


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    """WAL lets readers go on while one session writes; foreign keys as declared."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
