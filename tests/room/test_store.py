"""The room store on SQLite and PostgreSQL: migrations, codes, expiry, one answer per participant
per question, refused input changing nothing, a database that is down named. Expected values are
counted by hand from what each test writes."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa

from latency.room import codes, store as room_store
from latency.room.store import NoRoom, Store, StoreDown

CHOICES = ("fast", "slow", "same")


def _head() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(room_store.MIGRATIONS))
    return ScriptDirectory.from_config(cfg).get_current_head()


HEAD = _head()


def rows(s: Store, table: str) -> int:
    with s.engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(room_store.metadata.tables[table])).scalar_one()


def test_migrations_create_the_schema_once_and_again_change_nothing(store):
    store.migrate()  # a second server start: already at head
    insp = sa.inspect(store.engine)
    assert {"rooms", "participants", "answers", "alembic_version"} <= set(insp.get_table_names())
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == HEAD
    # the migration's columns are the ones the store's tables declare
    for name, table in room_store.metadata.tables.items():
        assert {c["name"] for c in insp.get_columns(name)} == set(table.columns.keys()), name


def test_codes_have_no_look_alike_characters():
    for group in codes.LOOK_ALIKES:
        assert not set(group.upper()) & set(codes.ALPHABET), group
    picks = iter("CFHKMN")
    assert codes.new_code(lambda alphabet: next(picks)) == "CFHKMN"
    assert codes.normalize(" cfh-kmn ") == "CFHKMN" and codes.is_valid("CFHKMN")
    assert not codes.is_valid("CFHKM0") and not codes.is_valid("CFHKM")


def test_a_room_opens_and_is_found_by_what_a_person_types(store):
    code, key = store.open_room()
    assert codes.is_valid(code) and len(key) >= 24
    room = store.room(f" {code[:3].lower()} {code[3:]} ")
    assert (room.code, room.screen, room.revealed) == (code, "lobby", frozenset())
    assert store.is_presenter(code, key) and not store.is_presenter(code, key + "x") and not store.is_presenter(code, None)


@pytest.mark.parametrize("typed, why", [("", "invalid"), ("AB", "invalid"), ("<script>", "invalid"), ("CFHKMN", "unknown")])
def test_an_unknown_or_mistyped_code_says_why(store, typed, why):
    with pytest.raises(NoRoom) as err:
        store.room(typed)
    assert err.value.why == why


def test_rooms_expire_after_24_hours_and_are_deleted_with_everything_in_them(store, clock):
    code, _ = store.open_room()
    p = store.join(code, "Ana")
    assert store.answer(code, p.token, "q1", "fast", CHOICES) == room_store.ANSWER_SAVED
    clock.advance(hours=23, minutes=59)
    assert store.room(code).code == code
    clock.advance(minutes=1)
    with pytest.raises(NoRoom) as err:
        store.room(code)
    assert err.value.why == "expired"
    store.open_room()  # opening a room purges the expired ones
    assert (rows(store, "rooms"), rows(store, "participants"), rows(store, "answers")) == (1, 0, 0)
    with pytest.raises(NoRoom) as err:
        store.room(code)
    assert err.value.why == "unknown"


def test_a_nickname_is_kept_as_typed_text_and_a_rejoin_is_the_same_participant(store):
    code, _ = store.open_room()
    for hostile in ("'); DROP TABLE rooms; --", "<img src=x onerror=1>", "[a](https://evil.ex)"):
        assert len(hostile) <= room_store.NICKNAME_MAX
        assert store.join(code, hostile).nickname == hostile
    assert rows(store, "rooms") == 1  # parameterised: the text is data, never SQL
    p = store.join(code, "Ana")
    again = store.join(code, "other name", token=p.token)
    assert again == p and store.count_participants(code) == 4
    assert store.join(code, "   ").nickname is None and store.count_participants(code) == 5


def test_one_answer_per_participant_per_question_a_change_replaces_it(store):
    code, _ = store.open_room()
    a, b = store.join(code, "a"), store.join(code, "b")
    assert store.answer(code, a.token, "q1", "fast", CHOICES) == room_store.ANSWER_SAVED
    assert store.answer(code, b.token, "q1", "fast", CHOICES) == room_store.ANSWER_SAVED
    assert store.counts(code, "q1") == {"fast": 2}
    assert store.answer(code, a.token, "q1", "slow", CHOICES) == room_store.ANSWER_CHANGED
    assert store.answer(code, a.token, "q1", "slow", CHOICES) == room_store.ANSWER_SAME
    assert store.counts(code, "q1") == {"fast": 1, "slow": 1}
    assert store.my_answer(code, a.token, "q1") == "slow" and store.my_answer(code, b.token, "q2") is None
    assert sorted(store.all_answers(code)) == [("q1", "a", "slow"), ("q1", "b", "fast")]


def test_invalid_choices_floods_and_strangers_change_nothing_and_are_logged(store, clock, caplog):
    code, _ = store.open_room()
    p = store.join(code)
    caplog.set_level(logging.WARNING, logger="latency.room")
    assert store.answer(code, p.token, "q1", "<b>x</b>", CHOICES) == room_store.ANSWER_INVALID
    assert store.answer(code, "not-a-token", "q1", "fast", CHOICES) == room_store.ANSWER_NOBODY
    assert store.counts(code, "q1") == {}
    results = [store.answer(code, p.token, "q1", CHOICES[k % 2], CHOICES) for k in range(30)]  # 30 writes in no time
    assert results.count(room_store.ANSWER_FLOOD) >= 30 - room_store.FLOOD_MAX
    assert store.counts(code, "q1") in ({"fast": 1}, {"slow": 1})
    assert "invalid choice id" in caplog.text and "unknown participant" in caplog.text and "refused" in caplog.text
    clock.advance(seconds=11)  # the window has passed: answering works again
    assert store.answer(code, p.token, "q2", "same", CHOICES) == room_store.ANSWER_SAVED


def test_only_the_presenter_moves_the_room_and_a_revealed_question_is_closed(store):
    code, key = store.open_room()
    p = store.join(code)
    with pytest.raises(PermissionError):
        store.set_screen(code, "guess", "5")
    store.set_screen(code, key, "q:q1")
    assert store.room(code).screen == "q:q1"
    store.reveal(code, key, "q1")
    store.reveal(code, key, "q2")
    assert store.room(code).revealed == {"q1", "q2"}
    assert store.answer(code, p.token, "q1", "fast", CHOICES) == room_store.ANSWER_CLOSED
    assert store.counts(code, "q1") == {}


def test_two_processes_on_one_database_share_a_room(backend_url, clock):
    """Two Store objects (as two server processes would hold) on one URL."""
    one, two = Store(backend_url, clock=clock), Store(backend_url, clock=clock)
    one.migrate(), two.migrate()
    code, key = one.open_room()
    p = two.join(code, "on the other process")
    two.answer(code, p.token, "q1", "same", CHOICES)
    one.set_screen(code, key, "3")
    assert one.counts(code, "q1") == {"same": 1} and two.room(code).screen == "3"


def test_a_database_that_is_down_is_named():
    down = Store("postgresql+psycopg://nobody@127.0.0.1:9/none")  # port 9 (discard): nothing listens
    with pytest.raises(StoreDown):
        down.migrate()
    with pytest.raises(StoreDown):
        down.room("CFHKMN")


def test_the_database_url_and_the_data_directory():
    assert room_store.database_url({"LATENCY_DATA_DIR": "/srv/x"}) == "sqlite:////srv/x/room.db"
    assert room_store.database_url({"LATENCY_DB_URL": "postgresql://u:p@h/db"}) == "postgresql+psycopg://u:p@h/db"
    assert room_store.database_url({"LATENCY_DB_URL": "sqlite:////tmp/r.db"}) == "sqlite:////tmp/r.db"
    assert str(room_store.data_dir({"XDG_DATA_HOME": "/home/u/.data"})) == "/home/u/.data/latency-explainer"
