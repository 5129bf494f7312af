"""Room store fixtures: a fresh store on SQLite (a temp file) and on PostgreSQL (LATENCY_TEST_PG_URL,
the private cluster tests/run.sh starts; outside it those cases skip, in CI they fail)."""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from latency.room import store as room_store

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


class Clock:
    """A hand-moved UTC clock, so a test can age a room by 24 h without waiting."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw) -> None:
        self.now += timedelta(**kw)


def pg_url() -> str | None:
    url = os.environ.get("LATENCY_TEST_PG_URL")
    if not url:
        if IN_CI:
            pytest.fail("LATENCY_TEST_PG_URL is not set: tests/run.sh starts PostgreSQL for these tests")
        pytest.skip("no PostgreSQL (LATENCY_TEST_PG_URL; tests/run.sh starts one)")
    return room_store.database_url({"LATENCY_DB_URL": url})


def wipe(url: str) -> None:
    """Drop the room tables and Alembic's version table: every test migrates from nothing."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for table in ("answers", "participants", "rooms", "alembic_version"):
            conn.execute(sa.text(f'DROP TABLE IF EXISTS "{table}" CASCADE'))  # fixed names, no input
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'room.db'}"
    url = pg_url()
    wipe(url)
    return url


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(backend_url, clock):
    s = room_store.Store(backend_url, clock=clock)
    s.migrate()
    yield s
    s.engine.dispose()
