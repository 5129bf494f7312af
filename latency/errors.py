"""The one error type for broken content files, and the one YAML reader (`read_yaml`), shared by
every loader in `latency`.

A content author must be able to fix the file from the message alone, so every error
names the file, the path inside it (e.g. ``examples[2].budget_s``) and the problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class ContentError(ValueError):
    """A content or catalog file that cannot be used as it is."""

    def __init__(self, file: str | Path, path: str, problem: str) -> None:
        self.file = str(file)
        self.path = path or "(top level)"
        self.problem = problem
        super().__init__(f"{self.file}: {self.path}: {problem}")


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
