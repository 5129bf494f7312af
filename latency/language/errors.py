"""The one error type for broken content files, and the one YAML reader (`read_yaml`), shared by
every loader in `latency`.

A content author must be able to fix the file from the message alone, so every error
names the file, the path inside it (e.g. ``examples[2].budget_s``) and the problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

PROJECT_DIR = Path(__file__).resolve().parents[2]

# Which pages read which content file (url paths of ui.shell.PAGES, "" = the glossary start page;
# "*" = every page), so an error
# message can say truthfully what it takes down. Keys are project-relative globs; first match wins.
# Kept by hand next to the loaders: see docs/architecture.md for who loads what.
READERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("content/ui/common.yaml", ("*",)),
    ("content/ui/glossary.yaml", ("",)),
    ("content/ui/learn.yaml", ("learn",)),
    ("content/ui/plain_words.yaml", ("", "learn", "lesson", "estimator", "tradeoffs")),
    ("content/ui/scenario.yaml", ("estimator", "tradeoffs", "launch")),
    ("content/ui/units.yaml", ("learn", "estimator", "tradeoffs", "launch", "measure", "logs")),
    ("content/ui/how.yaml", ("how-it-works",)),
    ("content/ui/estimator.yaml", ("estimator", "launch")),
    ("content/ui/tradeoffs.yaml", ("tradeoffs",)),
    ("content/ui/launch.yaml", ("launch",)),
    ("content/ui/measure.yaml", ("measure",)),
    ("content/ui/logs.yaml", ("logs",)),
    # the entry's use-case budgets and comparison classes feed the explorer and the how page
    ("content/terms/*", ("", "learn", "how-it-works", "estimator", "tradeoffs", "launch")),
    ("content/hardware.yaml", ("how-it-works", "estimator", "tradeoffs", "launch", "logs")),
    ("content/models.yaml", ("how-it-works", "estimator", "tradeoffs", "launch", "logs")),
    ("content/precisions.yaml", ("how-it-works", "estimator", "tradeoffs", "launch", "logs")),
    ("content/places.yaml", ("estimator", "tradeoffs", "launch", "logs")),
    ("content/presets.yaml", ("estimator",)),
    ("content/feel.yaml", ("estimator",)),
    ("latency/estimation/calibration_report.json", ("how-it-works",)),
)


def shown_path(file: str | Path) -> str:
    """A file as a message may show it: relative to the project (``content/ui/common.yaml``), never
    the server's absolute path; a file outside the project is shown by its name alone."""
    path = Path(file)
    if not path.is_absolute():
        return path.as_posix()
    try:
        return path.resolve().relative_to(PROJECT_DIR).as_posix()
    except ValueError:
        return path.name


def affected_pages(file: str | Path) -> tuple[str, ...]:
    """The url paths of the pages that read `file` (("*",) = every page; () = not known)."""
    from fnmatch import fnmatch

    rel = shown_path(file)
    return next((pages for pattern, pages in READERS if fnmatch(rel, pattern)), ())


def file_lang(file: str | Path) -> str | None:
    """The language of a per-language file (``content/terms/<id>.<lang>.yaml``), else None."""
    parts = Path(file).name.split(".")
    return parts[-2] if len(parts) >= 3 and parts[-1] == "yaml" else None


class ContentError(ValueError):
    """A content or catalog file that cannot be used as it is.

    ``file`` is the file as given (the loaders need it); ``shown_file`` is how messages show it:
    relative to the project, never an absolute server path (str(err) uses it too)."""

    def __init__(self, file: str | Path, path: str, problem: str) -> None:
        self.file = str(file)
        self.shown_file = shown_path(file)
        self.path = path or "(top level)"
        self.problem = problem
        super().__init__(f"{self.shown_file}: {self.path}: {problem}")

    def __reduce__(self):
        # st.cache_data pickles what a cached function returns (the glossary index carries its
        # problems): rebuild from the three fields, since the default rebuild passes only the message
        return (type(self), (self.file, self.path, self.problem))


def read_yaml(file: str | Path) -> Any:
    """A content file read with ``yaml.safe_load`` (never anything that can run code). A missing
    file or broken YAML raises ContentError naming the file and, where YAML knows it, the line and
    column of the problem."""
    file = Path(file)
    try:
        return yaml.safe_load(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ContentError(file, "", "file is missing") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ContentError(file, where, f"invalid YAML: {getattr(exc, 'problem', None) or exc}") from exc
