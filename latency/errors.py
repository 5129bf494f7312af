"""The one error type for broken content files, shared by every loader in `latency`.

A content author must be able to fix the file from the message alone, so every error
names the file, the path inside it (e.g. ``examples[2].budget_s``) and the problem.
"""

from __future__ import annotations

from pathlib import Path


class ContentError(ValueError):
    """A content or catalog file that cannot be used as it is."""

    def __init__(self, file: str | Path, path: str, problem: str) -> None:
        self.file = str(file)
        self.path = path or "(top level)"
        self.problem = problem
        super().__init__(f"{self.file}: {self.path}: {problem}")
