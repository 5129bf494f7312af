"""A room's results from its answers: the count of every option, the room's score per question,
and the CSV the presenter downloads. Pure: the page passes the questions' option ids and right
answers (computed by the estimator) in; nothing here knows the quiz files."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Mapping, Sequence


def distribution(counts: Mapping[str, int], option_ids: Sequence[str]) -> list[tuple[str, int]]:
    """Every option in the question's order with how many chose it (0 for nobody)."""
    return [(o, int(counts.get(o, 0))) for o in option_ids]


@dataclass(frozen=True)
class QuestionScore:
    question_id: str
    answered: int
    right: int

    @property
    def share(self) -> float | None:
        """Right among those who answered; None when nobody answered."""
        return self.right / self.answered if self.answered else None


def scores(rights: Sequence[tuple[str, str]], all_answers: Sequence[tuple[str, str, str]]) -> list[QuestionScore]:
    """The room's score per question: `rights` is (question id, right choice id) in quiz order,
    `all_answers` (question id, participant, choice id) as the store lists them."""
    out = []
    for qid, right in rights:
        chosen = [c for q, _, c in all_answers if q == qid]
        out.append(QuestionScore(qid, len(chosen), sum(c == right for c in chosen)))
    return out


def csv_text(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """CSV with a header row; a cell a spreadsheet would run as a formula (=, +, -, @) is quoted with '."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([_cell(v) for v in row])
    return buf.getvalue()


def _cell(value: object) -> object:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
