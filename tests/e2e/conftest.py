"""Browser fixtures: one `streamlit run` on a free loopback port, Debian's Chromium via Playwright.

Like Streamlit's own e2e_playwright: the server fixture waits on /_stcore/health and tests wait
for the app's run state instead of sleeping. In CI (CI=true) a missing browser is a failure;
elsewhere the tests skip with the reason.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
MAIN = "[data-testid=stMain]"
HANGUL = re.compile(r"[\uac00-\ud7a3]")
DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}


def _need(condition: bool, reason: str) -> None:
    if condition:
        return
    if IN_CI:
        pytest.fail(f"browser tests must run in CI: {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER_LINE = re.compile(r"^room \w+: |latency\.room|WARNING|ERROR|Traceback|Error:")  # the store logs "room CODE: ..."


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test carries what the app servers logged while it ran (the room store's warnings: a
    refused or lost answer, a store that was down), so a failure seen only in CI says what the server saw."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    lines = server_warnings(time.time() - max(report.duration, 0) - 5)
    if lines:
        report.sections.append(("server log (warnings)", "\n".join(lines)))


def server_warnings(since: float, pattern: re.Pattern = SERVER_LINE, last: int = 40) -> list[str]:
    """The app servers' log lines that match `pattern`, the last `last` of each log written since `since`."""
    lines = []
    for log in sorted(ARTIFACTS.glob("streamlit*.log")):
        if log.stat().st_mtime < since:
            continue
        hits = [line.rstrip() for line in log.read_text(errors="replace").splitlines() if pattern.search(line)]
        if hits:
            lines += [f"--- {log.name} ---", *hits[-last:]]
    return lines


SERVER_PIDS: dict[str, int] = {}
"""Each running test server's process, by its URL (a test pauses one to hold a click's run back)."""


@contextlib.contextmanager
def streamlit_server(log_name: str = "streamlit.log", env: dict[str, str] | None = None):
    """Start `streamlit run app.py` on a free loopback port; yield its URL once healthy. `env`:
    variables added to this process's environment (the room store's LATENCY_DB_URL)."""
    port = _free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # one log per worker under pytest-xdist
    log = open(ARTIFACTS / (log_name.replace(".log", f"-{worker}.log") if worker else log_name), "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
         "--server.address", "127.0.0.1", "--server.port", str(port), "--server.headless", "true",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited with {proc.returncode}; see {log.name}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("streamlit did not become healthy within 60 s")
    SERVER_PIDS[url] = proc.pid
    try:
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def app_url():
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    _need(Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - depends on the environment
        _need(False, "playwright is not installed (pip install -r requirements-dev.txt)")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=DESKTOP, locale="ko-KR")
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    context.close()


MAIN_DRAWN = "() => ((document.querySelector('[data-testid=stMain]') || {}).innerText || '').trim().length > 0"
"""The main area shows something: the page's first run has drawn its elements (every page has a title)."""
APP_STYLESHEET = "() => [...document.querySelectorAll('style')].some(s => s.textContent.includes('keep-all !important'))"
"""The app's stylesheet (ui/style.py) is in the page: it travels in Streamlit's event container beside the
page's elements, and CI once ran axe on a caption drawn before it arrived (Streamlit's 3.88:1 grey)."""


def wait_idle(page) -> None:
    """Wait until the script run finished and the app's stylesheet is in the page (no sleeping)."""
    page.wait_for_selector("[data-testid=stApp]", state="attached")
    page.wait_for_selector(IDLE, state="attached", timeout=60_000)
    try:
        # "not running" is also the state before the first run starts: a second server's first page under the full
        # run's load was read empty (test_a_whole_room[postgresql-ko], stop 43), so wait for the run's own elements
        page.wait_for_function(MAIN_DRAWN, timeout=60_000)
        page.wait_for_selector(IDLE, state="attached", timeout=60_000)
        page.wait_for_function(APP_STYLESHEET, timeout=15_000)
    except Exception:  # a screen without the app's styles (Streamlit's own error page): the test says what it sees
        pass


def open_app(page, app_url: str, path: str = "", **query: str) -> None:
    qs = "&".join(f"{k}={v}" for k, v in query.items())
    page.goto(f"{app_url}/{path}" + (f"?{qs}" if qs else ""))
    wait_idle(page)


def join_room(page, app_url: str, code: str, lang: str, nick: str, welcome: str, timeout: int = 30_000) -> None:
    """A phone joins a room by its link with a nickname and sees `welcome` (the page's greeting)."""
    from playwright.sync_api import expect

    page.goto(f"{app_url}/lesson?room={code}&lang={lang}")
    wait_idle(page)
    page.locator(MAIN).locator("input[type=text]").first.fill(nick)
    page.keyboard.press("Enter")
    expect(page.locator(MAIN).get_by_text(welcome)).to_be_visible(timeout=timeout)


def shot(page, name: str, full_page: bool = True) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def view(page, locator, name: str) -> None:
    """Screenshot with `locator` at the top of the viewport (Streamlit scrolls inside its main area)."""
    locator.evaluate("el => el.scrollIntoView({block: 'start'})")
    shot(page, name, full_page=False)
