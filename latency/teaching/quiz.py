"""The lesson's quiz (content/quiz/<id>.yaml, one question a file): right answers computed by the
estimator when the quiz runs, never typed into the files. Pure Python (never imports streamlit).

Kinds of question:
  faster         options are scenarios; right: the one with the smallest `measure` (ttft or total)
  how_long       one scenario; options are time bands [from_s, to_s); right: the band holding it
  biggest_stage  one scenario; options are stages; right: the largest stage of its breakdown

Every option has `feedback` saying why, and may use {time} (its computed seconds: the option's
scenario for `faster`, the question's for the others). The `explanation` says which option it
argues for (`argues_for`); that is never shown as the answer: `check` refuses a question whose
computed answer differs from it, and one whose options are too close to call: the estimate's own
range (`Estimate.ranges`, the calibration's 10th-90th percentile) would allow another answer.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from latency.estimation.catalog import Catalog
from latency.language.errors import ContentError, read_yaml
from latency.estimation.estimator import STAGES, Estimate
from latency.language.i18n import CONTENT_DIR, LANGS, UI_DIR, load_area
from latency.estimation.places import DistanceStop
from latency.teaching.lesson import Lesson, Scenario, _ID, id_too_long, parse_scenario, texts

QUIZ_DIR = CONTENT_DIR / "quiz"
KINDS = ("faster", "how_long", "biggest_stage")
MEASURES = ("ttft", "total")
QUIZ_MIN = 10
PLACEHOLDERS = {"time"}


@dataclass(frozen=True)
class Option:
    id: str
    label: Mapping[str, str]
    feedback: Mapping[str, str]
    scenario: Scenario | None = None            # faster
    band: tuple[float, float] | None = None     # how_long: [from_s, to_s)
    stage: str | None = None                    # biggest_stage


@dataclass(frozen=True)
class Question:
    id: str
    file: str
    kind: str
    measure: str
    review_step: str
    question: Mapping[str, str]
    scenario: Scenario | None
    options: tuple[Option, ...]
    argues_for: str
    explanation: Mapping[str, str]


@dataclass(frozen=True)
class Outcome:
    """What the estimator says: the right option, each option's seconds, and whether it is too
    close to call (`close` names why, else None)."""

    right: str
    seconds: Mapping[str, float]
    close: str | None


def _placeholders(file: Path, path: str, value: Mapping[str, str]) -> None:
    for lang, text in value.items():
        try:
            names = {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
        except ValueError as exc:
            raise ContentError(file, f"{path}.{lang}", f"bad {{placeholder}}: {exc}") from exc
        if names - PLACEHOLDERS:
            raise ContentError(file, f"{path}.{lang}", f"unknown placeholder(s) {sorted(names - PLACEHOLDERS)}; allowed: {{time}}")


def load_question(file: Path, catalog: Catalog, stops: Sequence[DistanceStop], lesson: Lesson) -> Question:
    """One question file, checked; ContentError naming the file and the place of the first problem."""
    raw = read_yaml(file)
    allowed = {"kind", "measure", "review_step", "question", "scenario", "options", "explanation"}
    if not isinstance(raw, dict):
        raise ContentError(file, "", f"expected a mapping with keys {sorted(allowed)}")
    extra = set(raw) - allowed
    if extra:
        raise ContentError(file, "", f"unknown key(s) {sorted(map(str, extra))}; allowed: {sorted(allowed)}")
    qid = file.stem
    if not _ID.match(qid.replace("-", "_")):
        raise ContentError(file, "", "file name must be an id of a-z, 0-9, - and _")
    if id_too_long(qid):
        raise ContentError(file, "", f"file name: {id_too_long(qid)}")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise ContentError(file, "kind", f"expected one of {list(KINDS)}, found {kind!r}")
    measure = raw.get("measure", "total")
    if measure not in MEASURES:
        raise ContentError(file, "measure", f"expected one of {list(MEASURES)}, found {measure!r}")
    steps = [s.id for s in lesson.steps]
    if raw.get("review_step") not in steps:
        raise ContentError(file, "review_step", f"expected a lesson step id {steps}, found {raw.get('review_step')!r}")
    scenario = None
    if kind == "faster":
        if "scenario" in raw:
            raise ContentError(file, "scenario", "a 'faster' question has a scenario per option, not one for the question")
    else:
        scenario = parse_scenario(file, "scenario", raw.get("scenario", {}), catalog, stops)
    opts = raw.get("options")
    if not isinstance(opts, list) or not 2 <= len(opts) <= 5:
        raise ContentError(file, "options", "expected a list of 2 to 5 options")
    options = []
    for i, o in enumerate(opts):
        path = f"options[{i}]"
        if not isinstance(o, dict) or not isinstance(o.get("id"), str) or not _ID.match(o["id"]):
            raise ContentError(file, f"{path}.id", "every option needs an id of a-z, 0-9 and _")
        if id_too_long(o["id"]):
            raise ContentError(file, f"{path}.id", id_too_long(o["id"]))
        own = {"faster": "scenario", "how_long": "band", "biggest_stage": "stage"}[kind]
        extra = set(o) - {"id", "label", "feedback", own}
        if extra:
            raise ContentError(file, path, f"unknown key(s) {sorted(map(str, extra))} for a {kind!r} question; allowed: id, label, feedback, {own}")
        feedback = texts(file, f"{path}.feedback", o.get("feedback"), 60)
        _placeholders(file, f"{path}.feedback", feedback)
        opt = Option(o["id"], texts(file, f"{path}.label", o.get("label"), 30), feedback)
        if kind == "faster":
            opt = Option(opt.id, opt.label, opt.feedback, scenario=parse_scenario(file, f"{path}.scenario", o.get("scenario"), catalog, stops))
        elif kind == "how_long":
            band = o.get("band")
            if not (isinstance(band, list) and len(band) == 2 and all(b is None or (isinstance(b, (int, float)) and not isinstance(b, bool) and b >= 0) for b in band)):
                raise ContentError(file, f"{path}.band", f"expected [from_s, to_s] in seconds (to_s may be null: no end), found {band!r}")
            lo, hi = float(band[0] or 0.0), float("inf") if band[1] is None else float(band[1])
            if not lo < hi:
                raise ContentError(file, f"{path}.band", f"from_s ({lo:g}) must be below to_s ({hi:g})")
            opt = Option(opt.id, opt.label, opt.feedback, band=(lo, hi))
        else:
            if o.get("stage") not in STAGES:
                raise ContentError(file, f"{path}.stage", f"expected one of {list(STAGES)}, found {o.get('stage')!r}")
            opt = Option(opt.id, opt.label, opt.feedback, stage=o["stage"])
        options.append(opt)
    ids = [o.id for o in options]
    if len(set(ids)) != len(ids):
        raise ContentError(file, "options", f"option ids must differ: {ids}")
    if kind == "how_long":
        bands = sorted(o.band for o in options)  # type: ignore[type-var]
        if bands[0][0] != 0 or bands[-1][1] != float("inf") or any(a[1] != b[0] for a, b in zip(bands, bands[1:])):
            raise ContentError(file, "options", "the bands must cover 0 s to no end without gaps or overlaps")
    if kind == "biggest_stage" and len({o.stage for o in options}) != len(options):
        raise ContentError(file, "options", "each option must name a different stage")
    expl = raw.get("explanation")
    if not isinstance(expl, dict) or expl.get("argues_for") not in ids:
        raise ContentError(file, "explanation.argues_for", f"expected the id of the option the explanation argues for, one of {ids}")
    explanation = texts(file, "explanation.text", expl.get("text"), 80)
    _placeholders(file, "explanation.text", explanation)
    return Question(qid, str(file), kind, measure, raw["review_step"], texts(file, "question", raw.get("question"), 60),
                    scenario, tuple(options), expl["argues_for"], explanation)


def _value(est: Estimate, measure: str) -> tuple[float, float, float]:
    key = f"{measure}_s"
    lo, hi = est.ranges[key]
    return getattr(est, key), lo, hi


def evaluate(q: Question, catalog: Catalog) -> Outcome:
    """The right option, computed now by the estimator, and whether the estimate's range could flip it."""
    if q.kind == "faster":
        vals = {o.id: _value(o.scenario.run(catalog), q.measure) for o in q.options}  # type: ignore[union-attr]
        right = min(vals, key=lambda k: vals[k][0])
        others = [vals[k][1] for k in vals if k != right]
        close = None
        if vals[right][2] >= min(others):
            close = (f"{right}'s range reaches {vals[right][2]:.3g} s, while another option's range starts at "
                     f"{min(others):.3g} s: the ranges overlap")
        return Outcome(right, {k: v[0] for k, v in vals.items()}, close)
    est = q.scenario.run(catalog)  # type: ignore[union-attr]
    if q.kind == "how_long":
        value, lo, hi = _value(est, q.measure)
        right = next(o.id for o in q.options if o.band[0] <= value < o.band[1])  # type: ignore[index]
        band = next(o.band for o in q.options if o.id == right)
        close = None
        if lo < band[0] or hi >= band[1]:  # type: ignore[index]
            close = f"the estimate {value:.3g} s has the range {lo:.3g} to {hi:.3g} s, which leaves the band {band}"
        return Outcome(right, {o.id: value for o in q.options}, close)
    parts = est.breakdown
    right_opt = max(q.options, key=lambda o: parts[o.stage])  # type: ignore[index]
    top = parts[right_opt.stage]  # type: ignore[index]
    second = max([parts[o.stage] for o in q.options if o is not right_opt] + [0.0])  # type: ignore[index]
    lo, hi = est.ranges["total_s"]
    spread = hi / lo  # how far the estimate itself may be off, as a factor
    close = None
    if second * spread >= top:
        close = f"the largest stage ({top:.3g} s) is within the estimate's spread (x{spread:.2f}) of the next ({second:.3g} s)"
    return Outcome(right_opt.id, {o.id: parts[o.stage] for o in q.options}, close)  # type: ignore[index]


def problems(q: Question, catalog: Catalog) -> list[ContentError]:
    """Why the content check refuses a question: the computed answer contradicts its explanation,
    or the options are too close to call."""
    out = []
    outcome = evaluate(q, catalog)
    if outcome.close:
        out.append(ContentError(q.file, "options", f"too close to call: {outcome.close}"))
    if outcome.right != q.argues_for:
        out.append(ContentError(q.file, "explanation.argues_for",
                                f"the explanation argues for {q.argues_for!r}, but the estimator's answer is {outcome.right!r} "
                                f"({', '.join(f'{k}: {v:.3g} s' for k, v in outcome.seconds.items())})"))
    return out


def question_files(directory: Path | None = None) -> list[Path]:
    return sorted((directory or QUIZ_DIR).glob("*.yaml"))


def load_quiz(catalog: Catalog, stops: Sequence[DistanceStop], lesson: Lesson, directory: Path | None = None) -> tuple[Question, ...]:
    """Every question, in file-name order; ContentError on the first broken file."""
    files = question_files(directory)
    if len(files) < QUIZ_MIN:
        raise ContentError(directory or QUIZ_DIR, "", f"{len(files)} question files; the quiz needs at least {QUIZ_MIN}")
    return tuple(load_question(f, catalog, stops, lesson) for f in files)


@dataclass(frozen=True)
class Score:
    right: int
    total: int
    misses: tuple[Question, ...]   # in quiz order, for the "review this step" links


def score(questions: Sequence[Question], outcomes: Mapping[str, Outcome], answers: Mapping[str, str | None]) -> Score:
    """Right answers counted against the computed ones; an unanswered question is a miss."""
    misses = tuple(q for q in questions if answers.get(q.id) != outcomes[q.id].right)
    return Score(len(questions) - len(misses), len(questions), misses)


def fill(text: str, seconds: float, fmt_s) -> str:
    """A feedback or explanation text with its {time} filled in."""
    return text.format(time=fmt_s(seconds)) if "{time}" in text else text


def check(directory: Path | None = None) -> list[ContentError]:
    """Every problem of every question file (for `python -m latency.content check`)."""
    from latency.estimation.catalog import load_catalog
    from latency.estimation.places import load_stops
    from latency.teaching.lesson import load_lesson

    catalog, stops = load_catalog(), load_stops()
    try:
        lesson = load_lesson(catalog, stops)
    except ContentError:
        return []  # latency.teaching.lesson.check reports it; questions cannot be checked without the steps
    files = question_files(directory)
    errors: list[ContentError] = []
    if len(files) < QUIZ_MIN:
        errors.append(ContentError(directory or QUIZ_DIR, "", f"{len(files)} question files; the quiz needs at least {QUIZ_MIN}"))
    try:
        room_words = load_area("lesson") if directory is None else None
    except ContentError as err:  # the strings file's own problems are the UI check's to report
        room_words = None
    for f in files:
        try:
            q = load_question(f, catalog, stops, lesson)
            errors += problems(q, catalog)
        except ContentError as err:
            errors.append(err)
            continue
        if room_words is not None and f"{ROOM_SHORT}{q.id}" not in room_words:
            errors.append(ContentError(UI_DIR / "lesson.yaml", f"{ROOM_SHORT}{q.id}",
                                       "missing: the room's results screen names each question by this short title "
                                       "(ko and en); add it when a question is added or renamed"))
    return errors


ROOM_SHORT = "room_short_"
"""content/ui/lesson.yaml keys `room_short_<question id>`: a question's short title on the room's results
screen (ui/room_results.py). A question without one broke the results screen (a ContentError in the room)."""
