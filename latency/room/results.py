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


# --- a whole session (issue 30 items 4, 5): two votes, the room's learning gain, per-option CSV ---
@dataclass(frozen=True)
class VoteScore:
    """One question's first and second vote: how many answered and how many were right in each."""

    question_id: str
    answered1: int
    right1: int
    answered2: int
    right2: int

    @property
    def share1(self) -> float | None:
        return self.right1 / self.answered1 if self.answered1 else None

    @property
    def share2(self) -> float | None:
        """None when the room did not vote a second time on this question."""
        return self.right2 / self.answered2 if self.answered2 else None


def vote_scores(rights: Sequence[tuple[str, str]], tallies: Mapping[tuple[str, int], Mapping[str, int]]) -> list[VoteScore]:
    """Per question (in `rights`' order: (question id, right choice id)), from the store's tallies
    ((question id, vote) -> {choice id: count})."""
    out = []
    for qid, right in rights:
        one, two = tallies.get((qid, 1), {}), tallies.get((qid, 2), {})
        out.append(VoteScore(qid, sum(one.values()), int(one.get(right, 0)), sum(two.values()), int(two.get(right, 0))))
    return out


@dataclass(frozen=True)
class Gain:
    """The room's learning in one line: the share right on the first vote over every question asked,
    and, over the questions voted twice, the first vote's and the second vote's share right."""

    first_all: float | None       # every question asked, first vote
    questions_twice: int          # how many questions the room voted on twice
    first_twice: float | None     # those questions, first vote
    second_twice: float | None    # those questions, second vote


def gain(scores: Sequence[VoteScore]) -> Gain:
    def share(right: int, answered: int) -> float | None:
        return right / answered if answered else None

    twice = [x for x in scores if x.answered2]
    return Gain(share(sum(x.right1 for x in scores), sum(x.answered1 for x in scores)), len(twice),
                share(sum(x.right1 for x in twice), sum(x.answered1 for x in twice)),
                share(sum(x.right2 for x in twice), sum(x.answered2 for x in twice)))


def final_answer(first: str | None, second: str | None) -> str | None:
    """A participant's answer to a question: the second vote when they voted again, else the first."""
    return second if second is not None else first


def my_score(rights: Sequence[tuple[str, str]], mine: Mapping[str, tuple[str | None, str | None]]) -> int:
    """How many of the questions in `rights` (the questions asked) one participant got right, final answer."""
    return sum(final_answer(*mine.get(qid, (None, None))) == right for qid, right in rights)


def option_rows(questions: Sequence[tuple[str, str, Sequence[tuple[str, str]], str]],
                tallies: Mapping[tuple[str, int], Mapping[str, int]], yes: str, no: str,
                people: int | None = None, no_answer: str = "") -> list[list[object]]:
    """The CSV's rows: one per question and option, `questions` as (question id, its title,
    [(option id, label)], right option id): number, question, option, right (yes/no), first vote
    count, second vote count (empty when the room voted once). With `people` (everyone who joined
    the room), one more row per question: `no_answer`, how many of them gave no answer in each
    vote. No participant appears."""
    rows: list[list[object]] = []
    for k, (qid, title, options, right) in enumerate(questions, 1):
        one, two = tallies.get((qid, 1), {}), tallies.get((qid, 2), {})
        for oid, label in options:
            rows.append([k, title, label, yes if oid == right else no, int(one.get(oid, 0)),
                         int(two.get(oid, 0)) if two else ""])
        if people is not None:
            silent = [max(0, people - sum(int(n) for n in t.values())) for t in (one, two)]
            rows.append([k, title, no_answer, "", silent[0], silent[1] if two else ""])
    return rows
