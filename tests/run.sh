#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine with Python 3.11, then run them all.
# Used verbatim by the README and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Debian's Chromium for the browser tests (Playwright drives it; browser downloads are impossible here).
if [ ! -x /usr/bin/chromium ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# Node's npm for axe-core, the accessibility rule engine the browser tests inject (tests/e2e/axe/,
# pinned in its package-lock.json; the npm registry is reachable where PyPI is).
if ! command -v npm >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
npm ci --prefix tests/e2e/axe --no-audit --no-fund --loglevel=error >/dev/null

PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -m venv .venv 2>/dev/null; then   # Debian ships venv separately
    rm -rf .venv
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    "$PY" -m venv .venv
  fi
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
.venv/bin/python -m latency.content check
# PostgreSQL for the room tests (issue 25): a private cluster, stopped on exit (so no `exec` below).
source tests/postgres.sh
# Two workers (pytest-xdist): AppTest runs are single-threaded and a browser test leaves a core
# partly idle, so two share this 2-core machine's work (TEST_WORKERS=0 runs in one process; each
# worker gets its own PostgreSQL database, tests/conftest.py). --dist worksteal: a worker that runs out
# of tests takes from the other's queue. With xdist's default ("load") the chunks handed out early stay
# where they were sent, and a worker left with a run of browser tests kept the other idle at the end:
# the same suite in a fresh clone took 32 min 12 s of pytest with "load" and 24 min 52 s with
# "worksteal" (3,215 passed both times, 2026-12-04).
.venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist worksteal "$@"
