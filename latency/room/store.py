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
import json
import logging
import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

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
PRESENT_S = 30             # a participant whose phone asked within this many seconds is present
TOUCH_S = 10               # how often a phone says it is still there (a write per phone per 10 s)
TIMERS_S = (30, 60, 90)    # the countdowns a presenter may give a vote
CHOICES_MAX = 4000  # rooms.choices: the lesson steps' shared choices as JSON (a dozen steps need ~300)
SPREAD, VOTE2 = "spread", "vote2"   # a question's peer-instruction phases (none: the first vote is open)
OPEN, REVEALED = "open", "revealed"  # a question's stage besides its phases (`Room.stage`): first vote open; answer shown
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
    sa.Column("lang", sa.String(8), nullable=False, server_default="ko"),
    sa.Column("asked", sa.Text, nullable=False, server_default=""),
    sa.Column("phases", sa.Text, nullable=False, server_default=""),
    sa.Column("timer_for", sa.String(SCREEN_MAX), nullable=True),
    sa.Column("timer_ends", sa.DateTime(timezone=True), nullable=True),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("choices", sa.String(CHOICES_MAX), nullable=False, server_default="{}"),
    sa.Column("skipped", sa.Text, nullable=False, server_default=""),
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
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
)
answers = sa.Table(
    "answers", metadata,
    sa.Column("participant_id", sa.Integer, sa.ForeignKey("participants.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("question_id", sa.String(64), primary_key=True),
    sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("choice_id", sa.String(64), nullable=True),       # the first vote (empty: voted only the second time)
    sa.Column("changes", sa.Integer, nullable=False),
    sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("choice2_id", sa.String(64), nullable=True),      # the second vote, after the discussion
    sa.Column("changes2", sa.Integer, nullable=False, server_default="0"),
    sa.Column("answered2_at", sa.DateTime(timezone=True), nullable=True),
)



def _phases(text: str) -> dict[str, str]:
    """The rooms.phases column ("q1=spread q2=vote2") as question id -> phase."""
    return dict(p.split("=", 1) for p in text.split() if "=" in p)


def _phases_text(phases: Mapping[str, str]) -> str:
    return " ".join(f"{q}={v}" for q, v in sorted(phases.items()))


_STEP_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
CHOICE_MAX = 64  # a text choice's length (a model or device id)


def _choices(text: str | None) -> dict[str, Any]:
    """The rooms.choices column (JSON) as step id -> choice; anything else in it reads as none."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, (int, float, str))} \
        if isinstance(value, dict) else {}

def _stage(row, question_id: str) -> str:
    """`Room.stage` read from a rooms row."""
    return REVEALED if question_id in row.revealed.split() else _phases(row.phases).get(question_id) or OPEN


class StoreDown(Exception):
    """The database cannot be reached or refused the statement (the page names it)."""


class StalePress(Exception):
    """A presenter's press drawn on a room that has since changed (`since`): it changes nothing."""

    def __init__(self, code: str, what: str) -> None:
        super().__init__(f"room {code}: a press from a stale screen changed nothing ({what})")


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
    """A code that names no open room; `why` is "invalid" (cannot be a code), "unknown", "expired",
    or "ended" (the presenter ended it: its results stay, nobody joins)."""

    def __init__(self, code: str, why: str) -> None:
        super().__init__(f"room {code!r}: {why}")
        self.code, self.why = code, why


@dataclass(frozen=True)
class Room:
    code: str
    screen: str                 # the presenter's screen: "lobby", a lesson step ("1"..), "q:<id>" or "done"
    revealed: frozenset[str]    # question ids the presenter revealed
    expires_at: datetime
    lang: str = "ko"            # the presenter's language
    asked: tuple[str, ...] = ()  # question ids the presenter opened, in order
    phases: Mapping[str, str] = field(default_factory=dict)  # question id -> SPREAD or VOTE2
    timer_for: str | None = None  # "qid/1" or "qid/2": the vote a countdown closes
    timer_ends: datetime | None = None
    ended_at: datetime | None = None
    choices: Mapping[str, Any] = field(default_factory=dict)  # lesson step id -> the presenter's choice
    skipped: frozenset[str] = frozenset()  # question ids the presenter left out of this room's quiz

    @property
    def ended(self) -> bool:
        return self.ended_at is not None

    @property
    def state(self) -> tuple:
        """What every view draws from: when it changes, the views rerun (ui/room_view.py live)."""
        return (self.screen, self.revealed, tuple(sorted(self.phases.items())), self.timer_for, self.timer_ends,
                self.ended_at, self.lang, tuple(sorted(self.skipped)))

    def phase(self, question_id: str) -> str | None:
        return self.phases.get(question_id)

    def stage(self, question_id: str) -> str:
        """Where the question stands: REVEALED, VOTE2, SPREAD or OPEN (its first vote)."""
        return REVEALED if question_id in self.revealed else self.phase(question_id) or OPEN

    def open_vote(self, question_id: str) -> int | None:
        """Which vote on this question is open in the room's phase (1, 2), or None (revealed,
        the spread shown, the room ended). A countdown that ran out closes it: see `vote_open`."""
        if self.ended or question_id in self.revealed:
            return None
        phase = self.phase(question_id)
        return 1 if phase is None else 2 if phase == VOTE2 else None

    def seconds_left(self, question_id: str, vote: int, now: datetime) -> float | None:
        """The countdown on this vote: seconds left (0 once it ran out), None without one."""
        if self.timer_for != f"{question_id}/{vote}" or self.timer_ends is None:
            return None
        return max(0.0, (self.timer_ends - now).total_seconds())

    def vote_open(self, question_id: str, vote: int, now: datetime) -> bool:
        return self.open_vote(question_id) == vote and self.seconds_left(question_id, vote, now) != 0.0


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
    def open_room(self, first_screen: str = "lobby", lang: str = "ko") -> tuple[str, str]:
        """A new room: (code, presenter key). Expired rooms are deleted first."""
        fits(rooms, {"screen": first_screen, "lang": lang})
        self.purge()
        now = self.clock()
        for _ in range(20):
            code, key = codes.new_code(), secrets.token_urlsafe(24)
            try:
                with self._write() as conn:
                    conn.execute(rooms.insert().values(code=code, presenter_key=key, screen=first_screen, revealed="",
                                                       created_at=now, expires_at=now + ROOM_TTL, lang=lang,
                                                       asked="", phases=""))
                log.info("room %s opened", code)
                return code, key
            except IntegrityError:
                continue  # that code is taken by a live room: draw another
        raise StoreDown("no free room code after 20 draws")

    def room(self, raw_code: str | None) -> Room:
        """The room a code names (typed as a person typed it), ended or not, or NoRoom saying why."""
        code = codes.normalize(raw_code)
        if not codes.is_valid(code):
            raise NoRoom(code, "invalid")
        with self._read() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code)).first()
        if row is None:
            raise NoRoom(code, "unknown")
        if _aware(row.expires_at) <= self.clock():
            raise NoRoom(code, "expired")
        phases = _phases(row.phases)
        return Room(row.code, row.screen, frozenset(row.revealed.split()), _aware(row.expires_at), row.lang,
                    tuple(row.asked.split()), phases, row.timer_for,
                    _aware(row.timer_ends) if row.timer_ends else None, _aware(row.ended_at) if row.ended_at else None,
                    _choices(row.choices), frozenset(row.skipped.split()))

    def is_presenter(self, code: str, key: str | None) -> bool:
        with self._read() as conn:
            stored = conn.execute(sa.select(rooms.c.presenter_key).where(rooms.c.code == code)).scalar()
        return bool(key) and stored is not None and hmac.compare_digest(stored, str(key))

    def _presenter_update(self, code: str, key: str, change: Callable[[sa.Row], dict]) -> None:
        """One transaction: check the presenter's key, then write what `change(room row)` returns.
        An ended room changes no more (PermissionError, as for a wrong key)."""
        with self._write() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code)).first()
            if row is None or not key or not hmac.compare_digest(row.presenter_key, str(key)):
                log.warning("room %s: a change without the presenter's key was refused", code)
                raise PermissionError(code)
            if row.ended_at is not None:
                log.warning("room %s: a change after the room ended was refused", code)
                raise PermissionError(code)
            values = change(row)
            if not values:
                return
            fits(rooms, values)
            conn.execute(rooms.update().where(rooms.c.code == code).values(**values))

    def set_screen(self, code: str, key: str, screen: str, since: str | None = None) -> None:
        """The presenter moved: every participant follows to `screen`; a question opened counts as asked.
        `since`: the screen the presenter's press was drawn on. A press from another screen than the room's
        moves nothing (`StalePress`): a click delivered twice, or the room moved meanwhile from another
        device. Room test 2026-12-07: the forward button's callback ran twice for one PageDown (the second
        time with the room already moved; cause not found), and with a back press between them the room
        skipped a step."""
        fits(rooms, {"screen": screen})

        def change(row) -> dict:
            if since is not None and row.screen != since:
                raise StalePress(code, f"screen {since} -> {screen}, the room on {row.screen}")
            values = {"screen": screen}
            asked = row.asked.split()
            if screen.startswith("q:") and screen[2:] not in asked:
                values["asked"] = " ".join([*asked, screen[2:]])
            return values

        self._presenter_update(code, key, change)

    def set_choice(self, code: str, key: str, step_id: str, value: Any) -> None:
        """The presenter's choice on a lesson step (a number or a short text): the phones draw the step at it.
        A step id or value that is not one (ValueError) or that would not fit (ValueTooLong) is refused."""
        if not _STEP_ID.fullmatch(str(step_id)) or isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(f"not a step's choice: {step_id!r} = {value!r}")
        if isinstance(value, str) and len(value) > CHOICE_MAX:
            raise ValueTooLong("rooms.choices", value, CHOICE_MAX)

        def change(row) -> dict:
            choices = _choices(row.choices)
            if choices.get(step_id) == value:
                return {}
            choices[step_id] = value
            return {"choices": json.dumps(choices, sort_keys=True, ensure_ascii=False)}

        self._presenter_update(code, key, change)

    def set_skipped(self, code: str, key: str, question_ids: Iterable[str]) -> None:
        """The quiz questions this room leaves out (the rest are asked, in the quiz's order). Only before the
        first question opens: a room that has asked one keeps its quiz (PermissionError), and an id that is
        not one is refused (ValueError)."""
        ids = sorted(set(question_ids))
        if not all(_STEP_ID.fullmatch(str(q)) for q in ids):
            raise ValueError(f"not question ids: {ids!r}")

        def change(row) -> dict:
            if row.asked.split():
                log.warning("room %s: questions left out after the quiz began was refused", code)
                raise PermissionError(code)
            text = " ".join(ids)
            return {} if text == row.skipped else {"skipped": text}

        self._presenter_update(code, key, change)

    def set_lang(self, code: str, key: str, lang: str) -> None:
        """The presenter's language (phones that join by the code alone follow it)."""
        self._presenter_update(code, key, lambda row: {"lang": lang})

    def reveal(self, code: str, key: str, question_id: str) -> None:
        """The presenter shows the room the answers and the right one; answering that question ends."""
        self._presenter_update(code, key, lambda row: {"revealed": " ".join(sorted(set(row.revealed.split()) | {question_id}))})

    def set_phase(self, code: str, key: str, question_id: str, phase: str) -> None:
        """Peer instruction: SPREAD closes the first vote and shows the room's spread without the
        right answer (the room discusses); VOTE2 opens the second vote. Each from the stage before it
        only (`StalePress` otherwise): the same press delivered twice, after a step back between,
        would undo that step back."""
        if phase not in (SPREAD, VOTE2):
            raise ValueError(phase)

        def change(row) -> dict:
            phases = _phases(row.phases)
            now = _stage(row, question_id)
            if now != (OPEN if phase == SPREAD else SPREAD):
                raise StalePress(code, f"{question_id}: {phase} from {now}")
            phases[question_id] = phase
            return {"phases": _phases_text(phases)}

        self._presenter_update(code, key, change)

    def step_back(self, code: str, key: str, question_id: str, since: str | None = None) -> None:
        """Back on a question, one build at a time, as forward went (a clicker's PageUp after a press
        too many): revealed -> its last vote open again; the second vote -> the spread; the spread ->
        the first vote. Its countdown goes (one that ran out would keep the reopened vote closed);
        every answer stays. `since`: the question's stage (`Room.stage`) the press was drawn on; from
        another stage nothing changes (`StalePress`: one press delivered twice stepped back twice)."""

        def change(row) -> dict:
            if since is not None and _stage(row, question_id) != since:
                raise StalePress(code, f"{question_id}: back from {since}, the question at {_stage(row, question_id)}")
            values = {}
            revealed = row.revealed.split()
            phases = _phases(row.phases)
            if question_id in revealed:
                values["revealed"] = " ".join(q for q in revealed if q != question_id)
            elif phases.get(question_id) == VOTE2:
                phases[question_id] = SPREAD
            elif phases.get(question_id) == SPREAD:
                del phases[question_id]
            else:
                return values
            values["phases"] = _phases_text(phases)
            if (row.timer_for or "").split("/")[0] == question_id:
                values.update(timer_for=None, timer_ends=None)
            return values

        self._presenter_update(code, key, change)

    def set_timer(self, code: str, key: str, question_id: str, vote: int, seconds: int) -> None:
        """A countdown that closes this vote `seconds` from now (one of TIMERS_S)."""
        if seconds not in TIMERS_S or vote not in (1, 2):
            raise ValueError((vote, seconds))
        self._presenter_update(code, key, lambda row: {"timer_for": f"{question_id}/{vote}",
                                                       "timer_ends": self.clock() + timedelta(seconds=seconds)})

    def end(self, code: str, key: str) -> None:
        """The presenter ends the session: nobody joins or answers; the results stay until the room expires."""
        self._presenter_update(code, key, lambda row: {"ended_at": self.clock(), "timer_for": None, "timer_ends": None})
        log.info("room %s ended", code)

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
        """A participant of the room: the one `token` names (the same phone again: its cookie), else a
        new one. A room the presenter ended takes nobody new (NoRoom "ended"); its own come back."""
        room = self.room(code)
        if token:
            found = self.participant(room.code, token)
            if found:
                self.touch(room.code, found.token)
                return found
        if room.ended:
            raise NoRoom(room.code, "ended")
        nick = " ".join(str(nickname or "").split()) or None
        fits(participants, {"nickname": nick})
        token = secrets.token_urlsafe(16)
        now = self.clock()
        with self._write() as conn:
            pid = conn.execute(participants.insert().values(room_code=room.code, token=token, nickname=nick,
                                                            joined_at=now, burst_count=0, last_seen=now)).inserted_primary_key[0]
        return Participant(pid, token, nick)

    def participant(self, code: str, token: str | None) -> Participant | None:
        if not token:
            return None
        with self._read() as conn:
            row = conn.execute(sa.select(participants).where(participants.c.room_code == code,
                                                              participants.c.token == str(token)[:64])).first()
        return Participant(row.id, row.token, row.nickname) if row else None

    def touch(self, code: str, token: str) -> None:
        """The phone is still there (its poll, every TOUCH_S)."""
        with self._write() as conn:
            conn.execute(participants.update().where(participants.c.room_code == code,
                                                     participants.c.token == str(token)[:64])
                         .values(last_seen=self.clock()))

    def leave(self, code: str, token: str) -> None:
        """The participant left the room: no longer counted as present (their answers stay)."""
        with self._write() as conn:
            conn.execute(participants.update().where(participants.c.room_code == code,
                                                     participants.c.token == str(token)[:64])
                         .values(last_seen=None))

    def count_participants(self, code: str) -> int:
        """Everyone who ever joined (present or not)."""
        with self._read() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(participants)
                                .where(participants.c.room_code == code)).scalar_one()

    def count_present(self, code: str) -> int:
        """Participants whose phone asked within PRESENT_S seconds: who left is not counted."""
        since = self.clock() - timedelta(seconds=PRESENT_S)
        with self._read() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(participants)
                                .where(participants.c.room_code == code, participants.c.last_seen >= since)).scalar_one()

    def nicknames(self, code: str) -> list[str | None]:
        """The nicknames of the participants present now (as `count_present`), in joining order; None
        for one who gave none."""
        since = self.clock() - timedelta(seconds=PRESENT_S)
        with self._read() as conn:
            rows = conn.execute(sa.select(participants.c.nickname)
                                .where(participants.c.room_code == code, participants.c.last_seen >= since)
                                .order_by(participants.c.id)).all()
        return [r.nickname for r in rows]

    def live_lang(self, within: timedelta = timedelta(hours=3)) -> str | None:
        """The language of the room opened last within `within` and not ended (the /join page's first
        language: the session going on now), or None."""
        since = self.clock() - within
        with self._read() as conn:
            return conn.execute(sa.select(rooms.c.lang).where(rooms.c.created_at >= since, rooms.c.ended_at.is_(None))
                                .order_by(rooms.c.created_at.desc(), rooms.c.code).limit(1)).scalar()

    def opened_at(self, code: str) -> datetime | None:
        """When the room was opened (UTC)."""
        with self._read() as conn:
            t = conn.execute(sa.select(rooms.c.created_at).where(rooms.c.code == code)).scalar()
        return _aware(t) if t else None

    # --- answers -------------------------------------------------------------------------------
    def answer(self, code: str, token: str, question_id: str, choice_id: str, valid: Iterable[str], vote: int = 1) -> str:
        """One participant's answer to one question in one vote (1, or 2 after the discussion); a
        changed answer replaces the old one of the same vote.

        Refused, and named in the log, without changing anything: a choice id not in `valid`, a
        vote that is not open (revealed, the spread shown, its countdown over, the room ended), more
        than FLOOD_MAX writes in FLOOD_WINDOW or CHANGES_MAX changes of one answer, a token that is
        no participant of the room."""
        if choice_id not in set(valid):
            log.warning("room %s: invalid choice id %r for question %r refused", code, str(choice_id)[:40], question_id)
            return ANSWER_INVALID
        fits(answers, {"question_id": question_id, "choice_id": choice_id})
        room = self.room(code)
        if not room.vote_open(question_id, vote, self.clock()):
            return ANSWER_CLOSED
        try:
            return self._answer(room, token, question_id, choice_id, vote)
        except IntegrityError:  # the same participant's first answer written twice at once: the second replaces
            return self._answer(room, token, question_id, choice_id, vote)

    def _answer(self, room: Room, token: str, question_id: str, choice_id: str, vote: int) -> str:
        now = self.clock()
        choice_col, changes_col, at_col = ("choice_id", "changes", "answered_at") if vote == 1 else \
            ("choice2_id", "changes2", "answered2_at")
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
                         .values(burst_start=start, burst_count=count + 1, last_seen=now))
            old = conn.execute(sa.select(answers.c[choice_col], answers.c[changes_col])
                               .where(answers.c.participant_id == p.id, answers.c.question_id == question_id)).first()
            if old is None:
                conn.execute(answers.insert().values(participant_id=p.id, question_id=question_id, room_code=room.code,
                                                     changes=0, changes2=0, answered_at=now,
                                                     **{choice_col: choice_id, **({at_col: now} if vote == 2 else {})}))
                return ANSWER_SAVED
            before, changes = old
            if before == choice_id:
                return ANSWER_SAME
            if before is not None and changes >= CHANGES_MAX:
                log.warning("room %s: participant %d changed question %r more than %d times; refused",
                            room.code, p.id, question_id, CHANGES_MAX)
                return ANSWER_FLOOD
            conn.execute(answers.update().where(answers.c.participant_id == p.id, answers.c.question_id == question_id)
                         .values(**{choice_col: choice_id, at_col: now,
                                    changes_col: changes + (before is not None)}))
            return ANSWER_SAVED if before is None else ANSWER_CHANGED

    def my_answer(self, code: str, token: str, question_id: str, vote: int = 1) -> str | None:
        col = answers.c.choice_id if vote == 1 else answers.c.choice2_id
        with self._read() as conn:
            return conn.execute(sa.select(col).join(participants, participants.c.id == answers.c.participant_id)
                                .where(participants.c.room_code == code, participants.c.token == str(token)[:64],
                                       answers.c.question_id == question_id)).scalar()

    def my_answers(self, code: str, token: str) -> dict[str, tuple[str | None, str | None]]:
        """Every answer of one participant: question id -> (first vote, second vote)."""
        with self._read() as conn:
            rows = conn.execute(sa.select(answers.c.question_id, answers.c.choice_id, answers.c.choice2_id)
                                .join(participants, participants.c.id == answers.c.participant_id)
                                .where(participants.c.room_code == code, participants.c.token == str(token)[:64])).all()
        return {q: (c1, c2) for q, c1, c2 in rows}

    def counts(self, code: str, question_id: str, vote: int = 1) -> dict[str, int]:
        """How many chose each choice id in that vote (ids nobody chose are absent)."""
        col = answers.c.choice_id if vote == 1 else answers.c.choice2_id
        with self._read() as conn:
            rows = conn.execute(sa.select(col, sa.func.count())
                                .where(answers.c.room_code == code, answers.c.question_id == question_id, col.is_not(None))
                                .group_by(col)).all()
        return {choice: n for choice, n in rows}

    def tallies(self, code: str) -> dict[tuple[str, int], dict[str, int]]:
        """Every count of the room: (question id, vote) -> {choice id: how many}, for the results."""
        out: dict[tuple[str, int], dict[str, int]] = {}
        with self._read() as conn:
            for vote, col in ((1, answers.c.choice_id), (2, answers.c.choice2_id)):
                rows = conn.execute(sa.select(answers.c.question_id, col, sa.func.count())
                                    .where(answers.c.room_code == code, col.is_not(None))
                                    .group_by(answers.c.question_id, col)).all()
                for qid, choice, n in rows:
                    out.setdefault((qid, vote), {})[choice] = n
        return out

    def all_answers(self, code: str) -> list[tuple[str, str, str]]:
        """Every first-vote answer of the room as (question id, participant's label, choice id)."""
        with self._read() as conn:
            rows = conn.execute(sa.select(answers.c.question_id, participants.c.id, participants.c.nickname, answers.c.choice_id)
                                .join(participants, participants.c.id == answers.c.participant_id)
                                .where(answers.c.room_code == code, answers.c.choice_id.is_not(None))
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
