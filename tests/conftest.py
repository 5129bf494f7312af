"""Shared test fixtures and helpers (unit, AppTest)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from latency.language import i18n
from ui import shell

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
PAGES = {p.url_path: p.file for p in shell.PAGES}  # url_path -> page file: app.py's own navigation list
DEFAULT_PAGE = shell.DEFAULT_PAGE.url_path  # the default=True page (the glossary, URL /)


def pytest_configure(config):
    """Under pytest-xdist (tests/run.sh runs two workers), each worker gets a PostgreSQL database of its
    own, so one worker's room tests never drop the tables another is using: latency_test_gw0, ..."""
    worker, base = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("LATENCY_TEST_PG_URL")
    if not worker or not base or not worker.isalnum():
        return
    import sqlalchemy as sa

    from latency.room.store import database_url

    name = f"{base.rsplit('/', 1)[1]}_{worker}"
    engine = sa.create_engine(database_url({"LATENCY_DB_URL": base}), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))  # a fixed name: worker ids are gw0, gw1, ...
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    os.environ["LATENCY_TEST_PG_URL"] = f"{base.rsplit('/', 1)[0]}/{name}"


def run_page(page: str, lang: str | None = "ko", query: dict | None = None, timeout: float = 30):
    """Run the whole app (entry + one page) headless in AppTest, as a user opening that URL."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=timeout)
    if lang is not None:  # None: an address with no ?lang= (the /join typed from the projector)
        at.query_params["lang"] = lang
    for key, value in (query or {}).items():
        at.query_params[key] = value
    # A non-default page is opened as a deep link: switch before the first run. The page's
    # shell.page_strings() sees that app.py did not run first and reruns through it (ui/shell.py
    # ensure_entry). Switching after a first run loses the sidebar language switch's value in
    # AppTest (its widget id changes with the page), so the page would run with lang None.
    if page != DEFAULT_PAGE:
        at.switch_page(PAGES[page])
    at.run()
    return at


def in_order(node, folded: bool = False):
    """(element, inside an expander) for every leaf element under an AppTest node, in page order."""
    for child in getattr(node, "children", {}).values():
        inside = folded or getattr(child, "type", "") == "expander"
        if getattr(child, "children", None):
            yield from in_order(child, inside)
        else:
            yield child, inside


def all_text(at) -> str:
    """Every piece of text the page shows (markdown, headings, captions, metrics, alerts...)."""
    parts = []
    for node in at.main if hasattr(at, "main") else []:
        parts.append(str(getattr(node, "value", "")))
    for kind in ("title", "header", "subheader", "markdown", "caption", "text", "info", "warning", "error", "success"):
        for el in getattr(at, kind):
            parts.append(str(el.value))
    for m in at.metric:
        parts += [str(m.label), str(m.value)]
    return "\n".join(parts)


@pytest.fixture(autouse=True)
def _no_legacy_pages_mode(monkeypatch):
    """Run AppTest the way a live server runs after its first request.

    AppTest resets PagesManager's class flag before every run, so each run starts in Streamlit's
    legacy pages-folder mode and runs pages/<x>.py alone until app.py's st.navigation ends it; a live
    server leaves that mode for good after the first st.navigation. The app handles the first case
    (ui.shell.ensure_entry, covered by the fresh-server browser test in tests/e2e/test_shell.py); here
    AppTest's reset goes to a subclass so the runs behave like a warm server. Test scaffolding only.
    """
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import app_test

    class WarmPagesManager(PagesManager):
        pass

    monkeypatch.setattr(app_test, "PagesManager", WarmPagesManager)
    monkeypatch.setattr(PagesManager, "uses_pages_directory", False)


@pytest.fixture(params=list(i18n.LANGS))
def lang(request) -> str:
    """Every supported language, enumerated from the code's own list."""
    return request.param


@pytest.fixture(autouse=True, scope="session")
def _room_store_in_a_temp_dir(tmp_path_factory):
    """The room store (issue 25) of every test, and of the servers the browser tests start, lives in a
    temporary data directory: never the developer's own data directory or LATENCY_DB_URL."""
    os.environ["LATENCY_DATA_DIR"] = str(tmp_path_factory.mktemp("latency-data"))
    os.environ.pop("LATENCY_DB_URL", None)


@pytest.fixture(scope="session")
def calibration_fit(tmp_path_factory, worker_id):
    """`calibrate.fit_all` of the calibration data, once per test command: (fitted params as JSON data, the
    printed report, calibration_report.json's text). The fit takes ~3 CPU-minutes; test_calibration and the
    How page's report check both need it, and under pytest-xdist they often land in different workers, which
    each fitted anew (stop 39: 199 s and 197 s in one run). Here the first worker to ask fits and writes the
    result into the run's shared temporary folder; the other waits on the lock and reads it (pytest-xdist docs,
    "Making session-scoped fixtures execute only once"). Nothing outlives the run, so no stale fit is read."""
    import fcntl
    import json

    from latency.estimation import calibrate
    from latency.estimation.estimator import calibration_dir

    def fit() -> dict:
        params, text, report = calibrate.fit_all(calibration_dir())
        return {"params": json.loads(json.dumps(params)), "text": text, "report": calibrate.to_json(report)}

    if worker_id == "master":  # one process: nothing to share
        data = fit()
    else:
        root = tmp_path_factory.getbasetemp().parent
        file = root / "calibration-fit.json"
        with open(root / "calibration-fit.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if not file.exists():
                file.write_text(json.dumps(fit()), encoding="utf-8")
            data = json.loads(file.read_text(encoding="utf-8"))
    return data["params"], data["text"], data["report"]
