"""Nothing the room keeps is cut (issue 30 item 1): every screen of the real lesson and quiz goes
into the store and comes back whole, a value longer than its column is refused with a named error
and changes nothing, the content check refuses an id the store could not keep, and a database made
by the first migration upgrades in place. Lengths are counted by hand from the strings written."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from alembic import command
from alembic.config import Config

from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from latency.room import store as room_store
from latency.room.store import Store, ValueTooLong
from latency.teaching import lesson, quiz

CATALOG, STOPS = load_catalog(), load_stops()
LESSON = lesson.load_lesson(CATALOG, STOPS)
QUESTIONS = quiz.load_quiz(CATALOG, STOPS, LESSON)
LONG_QUESTION = "q:q08-small-desktop-vs-big-cluster"  # 34 characters: the screen the old column cut


def test_every_screen_of_the_real_room_comes_back_whole(store):
    code, key = store.open_room()
    assert len(LONG_QUESTION) == 34
    for screen in ["lobby", *map(str, range(1, len(LESSON.steps) + 1)), *(f"q:{q.id}" for q in QUESTIONS), "done"]:
        store.set_screen(code, key, screen)
        assert store.room(code).screen == screen


def test_every_steps_longest_choice_of_the_real_lesson_comes_back_whole(store):
    """The presenter's choice on each step (rooms.choices, JSON): the longest option of every step, all
    kept at once, comes back whole; a step's choice (its option's id, its index for the myths) within
    the store's limit."""
    code, key = store.open_room()
    chosen = {}
    for step in LESSON.steps:
        values = list(range(len(step.options))) if step.widget == "myths" else list(step.options)
        chosen[step.id] = max(values, key=lambda v: len(str(v)))
        assert len(str(chosen[step.id])) <= room_store.CHOICE_MAX
        store.set_choice(code, key, step.id, chosen[step.id])
    assert store.room(code).choices == chosen
    assert len(LESSON.steps) * (lesson.ID_MAX + room_store.CHOICE_MAX + 8) <= room_store.CHOICES_MAX  # ids at their longest


def test_the_longest_id_the_content_check_allows_fits_every_column_that_keeps_it():
    longest = "x" * lesson.ID_MAX
    assert len("q:" + longest) <= room_store.rooms.c.screen.type.length
    assert lesson.ID_MAX <= room_store.answers.c.question_id.type.length
    assert lesson.ID_MAX <= room_store.answers.c.choice_id.type.length
    assert all(len(q.id) <= lesson.ID_MAX and all(len(o.id) <= lesson.ID_MAX for o in q.options) for q in QUESTIONS)


def test_a_value_longer_than_its_column_is_refused_by_name_and_changes_nothing(store):
    code, key = store.open_room()
    store.set_screen(code, key, "3")
    with pytest.raises(ValueTooLong) as err:
        store.set_screen(code, key, "q:" + "x" * 79)  # 81 > 80
    assert err.value.column == "rooms.screen" and err.value.limit == 80
    assert store.room(code).screen == "3"
    with pytest.raises(ValueTooLong) as err:
        store.join(code, "n" * 25)  # 25 > 24
    assert err.value.column == "participants.nickname"
    assert store.count_participants(code) == 0
    assert store.join(code, "n" * 24).nickname == "n" * 24  # at the limit: kept whole
    p = store.join(code)
    with pytest.raises(ValueTooLong):
        store.answer(code, p.token, "q" * 65, "fast", ["fast"])
    assert store.all_answers(code) == []


def test_the_content_check_refuses_an_id_the_room_could_not_keep(tmp_path):
    source = quiz.QUIZ_DIR / "q01-far-big-vs-near-small.yaml"
    long_name = "q13-" + "a" * 37  # 41 characters
    (tmp_path / f"{long_name}.yaml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(Exception) as err:
        quiz.load_question(tmp_path / f"{long_name}.yaml", CATALOG, STOPS, LESSON)
    assert "41 characters; at most 40" in str(err.value)
    raw = yaml.safe_load(source.read_text(encoding="utf-8"))
    raw["options"][0]["id"] = "o" * 41
    (tmp_path / "q14.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(Exception) as err:
        quiz.load_question(tmp_path / "q14.yaml", CATALOG, STOPS, LESSON)
    assert "options[0].id" in str(err.value) and "at most 40" in str(err.value)
    steps = yaml.safe_load(lesson.LESSON_FILE.read_text(encoding="utf-8"))
    steps["steps"][0]["id"] = "s" * 41
    (tmp_path / "lesson.yaml").write_text(yaml.safe_dump(steps, allow_unicode=True), encoding="utf-8")
    with pytest.raises(Exception) as err:
        lesson.load_lesson(CATALOG, STOPS, tmp_path / "lesson.yaml")
    assert "steps[0].id" in str(err.value) and "at most 40" in str(err.value)


def _alembic(conn) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(room_store.MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def test_a_database_of_the_first_migration_upgrades_in_place(backend_url, clock):
    """A room made before the screen column was widened keeps its rows, and takes question 8 whole."""
    s = Store(backend_url, clock=clock)
    with s.engine.begin() as conn:
        command.upgrade(_alembic(conn), "0001")
        now = clock()
        conn.execute(sa.text("INSERT INTO rooms (code, presenter_key, screen, revealed, created_at, expires_at) "
                             "VALUES ('CFHKMN', 'k', '3', '', :now, :later)"), {"now": now, "later": now + room_store.ROOM_TTL})
    s.migrate()
    assert s.room("CFHKMN").screen == "3"
    s.set_screen("CFHKMN", "k", LONG_QUESTION)
    assert s.room("CFHKMN").screen == LONG_QUESTION
    s.engine.dispose()
