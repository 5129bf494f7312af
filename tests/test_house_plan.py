"""The house plan of `latency/` (issue 22; docs/architecture.md "The house plan").

A static scan of every import in `latency/`, lazy ones inside functions included, so a module that
reaches a floor above its own fails here the moment it is written:
- `latency/` is a few subpackages and the package's face; the only other top-level modules are the
  thin command modules that keep `python -m latency.calibrate` and friends at their old address;
- imports between subpackages run one way (ALLOWED below), so there is no cycle between them;
- nothing in `latency/` imports streamlit, and nothing anywhere imports a command module.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "latency"

# Which floors each subpackage may import: language is the ground floor (reading YAML, its errors,
# the words and number formats), the estimate stands on it, charts and measured numbers on the
# estimate, teaching on those, and exploring at the top (the explorer pages show the entry's budgets
# with the estimate). measured stands beside charts, teaching and exploring: none of them imports it.
ALLOWED = {
    "language": set(),
    "estimation": {"language"},
    "charts": {"language", "estimation"},
    "measured": {"language", "estimation"},
    "teaching": {"language", "estimation", "charts"},
    "exploring": {"language", "estimation", "charts", "teaching"},
    "room": set(),  # the onboarding room's store stands alone: the page passes quiz ids and answers in
}
COMMANDS = {"calibrate": "estimation.calibrate", "content": "teaching.content", "log_samples": "measured.log_samples"}
MAX_MODULES = 11


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _dotted(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def imported(path: Path) -> list[tuple[int, str]]:
    """Every module or face name `path` imports, as absolute dotted names (relative imports resolved),
    with its line: `from latency.teaching import content` gives latency.teaching, `from latency import
    Hardware` gives latency.Hardware (a name of the face, or a subpackage or command module by that name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = _dotted(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]  # the package a module's relative imports start from
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            if base == "latency" or base == "":
                out += [(node.lineno, f"{base}.{a.name}".lstrip(".")) for a in node.names]
            else:
                out.append((node.lineno, base))
    return out


def floor_of(dotted: str) -> str | None:
    """The subpackage a dotted name lies in: '' for the face and its names, None outside latency."""
    parts = dotted.split(".")
    if parts[0] != "latency":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else ""


def violations(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        own = floor_of(_dotted(path))
        for line, name in imported(path):
            parts = name.split(".")
            if parts[0] == "streamlit":
                found.append(f"{rel}:{line} imports streamlit")
            elif parts[0] == "latency" and len(parts) > 1 and parts[1] in COMMANDS:
                found.append(f"{rel}:{line} imports the command module latency.{parts[1]}")
            elif own and floor_of(name) is not None:
                target = floor_of(name)
                if target != own and target not in ALLOWED[own]:
                    found.append(f"{rel}:{line} ({own}) imports {name} ({target or 'the package face'})")
    return found


def test_latency_is_subpackages_and_its_face():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert top == sorted(["__init__.py", *(f"{c}.py" for c in COMMANDS)]), top
    subpackages = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert subpackages == sorted(ALLOWED), subpackages
    for name in subpackages:
        assert (PACKAGE / name / "__init__.py").read_text(encoding="utf-8").strip(), f"{name} says what it holds"
        modules = [p for p in (PACKAGE / name).glob("*.py") if p.name != "__init__.py"]
        assert 1 <= len(modules) <= MAX_MODULES, (name, len(modules))


def test_imports_run_one_way_and_never_reach_streamlit():
    assert violations(_modules()) == []


@pytest.mark.parametrize("case, expected", [
    ("from latency.teaching import content\n", "(estimation) imports latency.teaching (teaching)"),
    ("def f():\n    from latency.exploring.tradeoffs import headline\n", "(estimation) imports latency.exploring.tradeoffs"),
    ("from latency import Hardware\n", "imports latency.Hardware (the package face)"),
    ("import streamlit as st\n", "imports streamlit"),
    ("from latency import content\n", "imports the command module latency.content"),
])
def test_the_scan_catches_an_upward_import(tmp_path, monkeypatch, case, expected):
    """The rule itself fails on each kind of wrong import, written into a module of the estimate."""
    fake_root = tmp_path
    (fake_root / "latency" / "estimation").mkdir(parents=True)
    bad = fake_root / "latency" / "estimation" / "bad.py"
    bad.write_text(case, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", fake_root)
    found = violations([bad])
    assert len(found) == 1 and expected in found[0], found


def test_relative_imports_are_resolved(tmp_path, monkeypatch):
    (tmp_path / "latency" / "language").mkdir(parents=True)
    bad = tmp_path / "latency" / "language" / "bad.py"
    bad.write_text("from ..estimation import estimator\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert violations([bad]) == ["latency/language/bad.py:1 (language) imports latency.estimation (estimation)"]


def test_no_code_imports_a_command_module():
    """The command modules exist for `python -m` alone; pages, ui, tests and benchmarks import the real ones."""
    found = []
    for folder in ("pages", "ui", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, name in imported(path):
                parts = name.split(".")
                if parts[0] == "latency" and len(parts) > 1 and parts[1] in COMMANDS:
                    found.append(f"{path.relative_to(ROOT)}:{line} {name}")
    found += [f"app.py:{line} {name}" for line, name in imported(ROOT / "app.py")
              if name.split(".")[0] == "latency" and name.split(".")[1:2] and name.split(".")[1] in COMMANDS]
    assert found == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_command_modules_are_thin_and_refuse_an_import(command):
    text = (PACKAGE / f"{command}.py").read_text(encoding="utf-8")
    assert f"from latency.{COMMANDS[command]} import main" in text
    assert len(text.splitlines()) <= 12, "a command module only forwards to its subpackage"
    done = subprocess.run([sys.executable, "-c", f"import latency.{command}"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode != 0 and f"import latency.{COMMANDS[command]}" in done.stderr, done.stderr


def test_a_page_with_a_title_of_its_own_begins_it_with_its_name_in_the_menu():
    """One name per idea: a PM try read '모델·서버·비용 견주기' in the menu and '트레이드오프 탐색' as the page's heading,
    and the measure and logs pages had headings of their own too. A page whose strings have a `title` begins it
    with the menu's name (the rest may say what the page answers); the lesson's heading puts its subject inside
    the menu's words ('15분 수업' / '15분 지연 시간 수업')."""
    from latency.language import i18n
    from ui import shell

    checked = 0
    for p in shell.PAGES:
        for lang in i18n.LANGS:
            try:
                table = i18n.strings(p.url_path, lang).table if p.url_path else {}
            except (FileNotFoundError, i18n.ContentError):  # a page without strings of its own
                continue
            if "title" not in table:
                continue
            nav = i18n.strings("common", lang)(p.nav_key)
            assert table["title"].startswith(nav) or p.url_path == "lesson", (p.url_path, lang, nav, table["title"])
            checked += 1
    assert checked >= 10
