"""Shared test fixtures and helpers (unit, AppTest)."""

from __future__ import annotations

from pathlib import Path

import pytest

from latency import i18n

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
PAGES = {  # url_path -> page file, as app.py registers them
    "learn": "pages/learn.py",
    "how-it-works": "pages/how-it-works.py",
    "estimator": "pages/estimator.py",
    "tradeoffs": "pages/tradeoffs.py",
    "measure": "pages/measure.py",
    "logs": "pages/logs.py",
}
DEFAULT_PAGE = "learn"  # app.py's default=True page


def run_page(page: str, lang: str = "ko", query: dict | None = None, timeout: float = 30):
    """Run the whole app (entry + one page) headless in AppTest, as a user opening that URL."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params["lang"] = lang
    for key, value in (query or {}).items():
        at.query_params[key] = value
    # Run once first: before a run, AppTest resolves pages by file name and would run
    # pages/<x>.py on its own (legacy pages/ folder), without app.py, its language switch or
    # st.navigation. The default page ("learn") needs no switch.
    at.run()
    if page != DEFAULT_PAGE:
        at.switch_page(PAGES[page])
        at.run()
    return at


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
