"""The guided lesson (content/lesson.yaml) as validated, typed steps, and what each step shows.

Pure Python (never imports streamlit). A step is one short screen: a title, a body of at most
WORD_LIMIT words, one interaction (its `widget`), one takeaway sentence, and speaker notes for
presenter mode. Steps that show numbers carry an estimator scenario (`Scenario`): a catalog model,
a catalog device, a named distance; every time shown comes from `latency.estimate` on it.

Widgets (what the one interaction varies):
  timeline  the restaurant analogy: answer length (output tokens) changes a four-part timeline
  feel      wait 0.2 s, 1 s or 3 s (options, seconds) before a sample answer streams in
  stages    pick one of the four stages (options: stage names) to see what it is and how big
  model / hardware / distance / users
            one input of the scenario varied over `options` (catalog model ids, catalog hardware
            ids, distance stop ids, user counts); a mini-chart compares the start with the choice
  myths     pick a misconception (options: {myth, fact, say}); shows the fact and what to say

Public API: `load_lesson()`, `Scenario.run()`, `resolve_step()`, `vary()`, `check()`.
Every problem is a `ContentError(file, path, problem)` naming the step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from latency.estimation.catalog import Catalog
from latency.language.errors import ContentError, read_yaml
from latency.estimation import scenario as scenario_mod
from latency.estimation.estimator import STAGES, Estimate
from latency.language.i18n import CONTENT_DIR, LANGS
from latency.estimation.places import DistanceStop
from latency.estimation.scenario import CONCURRENCY_MAX, OUTPUT_MAX, PROMPT_MAX

LESSON_FILE = CONTENT_DIR / "lesson.yaml"
WIDGETS = ("timeline", "feel", "stages", "model", "hardware", "distance", "users", "myths")
VARIED = {"model": "model", "hardware": "hardware", "distance": "distance", "users": "users", "timeline": "output_tokens"}
"""Widgets that vary one scenario field over their options, and which field."""
STEP_MIN, STEP_MAX = 6, 8
WORD_LIMIT = 120   # body words per step (the issue: "at most about 120 words")
TAKEAWAY_LIMIT = 30
QUIZ, DONE = "quiz", "done"
"""The two screens after the steps: ?step=quiz and ?step=done."""
FEEL_MAX_S = 5.0   # the longest wait the "feel" step may play


def count_words(text: str) -> int:
    """Words separated by white space (Korean eojeol count the same way)."""
    return len(text.split())


# --------------------------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scenario:
    """One request the estimator can price: catalog ids and plain numbers only."""

    model: str = "llama-3.1-8b"
    hardware: str = "h100-sxm"
    distance_km: float = 0.0
    distance_stop: str | None = None
    precision: str | None = None      # None: the model's default precision
    devices: int | None = None        # None: the fewest devices that hold the model
    prompt_tokens: int = 512
    output_tokens: int = 256
    users: int = 1

    def values(self, catalog: Catalog) -> dict[str, Any]:
        """The scenario as the explorer pages' inputs (`latency.estimation.scenario.KEYS`): the default
        scenario with this request's model, chip, distance, lengths and users. Every other input keeps
        its default (one wired user on a reused connection, the engine picked for the chip), so the
        lesson, the quiz and the estimator give one figure for one set-up (issue 31 item 1)."""
        entry = catalog.models[self.model]
        values = dict(scenario_mod.DEFAULTS)
        values.update(model_size_b=entry.model.params_b, arch=entry.model.architecture or "dense",
                      precision=self.precision or entry.default_precision, hardware=self.hardware,
                      devices=self.devices or scenario_mod.DEVICES_AUTO, distance_km=float(self.distance_km),
                      prompt_tokens=self.prompt_tokens, output_tokens=self.output_tokens, concurrency=self.users)
        return values

    def run(self, catalog: Catalog) -> Estimate:
        """The estimate for this request: the one evaluation of a set-up every page uses
        (`latency.estimation.scenario.evaluate`)."""
        return scenario_mod.evaluate(catalog, self.values(catalog))[2]

    def estimator_query(self, catalog: Catalog) -> dict[str, str]:
        """URL values that open the estimator page on this scenario (every input, so it shows this set-up)."""
        values = self.values(catalog)
        return {k: scenario_mod.url_value(values[k]) for k in scenario_mod.KEYS
                if k in values and k not in ("use_case", "budget_s", "measure", "device_scope")}


SCENARIO_KEYS = ("model", "hardware", "distance", "precision", "devices", "prompt_tokens", "output_tokens", "users")


def _int(file: Path, path: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ContentError(file, path, f"expected a whole number from {lo:,} to {hi:,}, found {value!r}")
    return value


def parse_scenario(file: Path, path: str, raw: Any, catalog: Catalog, stops: Sequence[DistanceStop],
                   base: Scenario | None = None) -> Scenario:
    """A `scenario:` mapping checked against the catalogs and the named distances.

    distance: a stop id from content/places.yaml (e.g. seoul_us_west) or a number of km.
    """
    if raw is None and base is not None:
        return base
    if not isinstance(raw, dict):
        raise ContentError(file, path, f"expected a mapping with keys from {list(SCENARIO_KEYS)}")
    unknown = set(raw) - set(SCENARIO_KEYS)
    if unknown:
        raise ContentError(file, path, f"unknown key(s) {sorted(map(str, unknown))}; allowed: {list(SCENARIO_KEYS)}")
    sc = base or Scenario()
    if "model" in raw:
        if raw["model"] not in catalog.models:
            raise ContentError(file, f"{path}.model", f"unknown model {raw['model']!r}; content/models.yaml has {list(catalog.models)}")
        sc = replace(sc, model=raw["model"], precision=None)
    if "hardware" in raw:
        if raw["hardware"] not in catalog.hardware:
            raise ContentError(file, f"{path}.hardware", f"unknown hardware {raw['hardware']!r}; content/hardware.yaml has {list(catalog.hardware)}")
        sc = replace(sc, hardware=raw["hardware"])
    if "precision" in raw:
        if raw["precision"] not in catalog.precisions:
            raise ContentError(file, f"{path}.precision", f"unknown precision {raw['precision']!r}; known: {list(catalog.precisions)}")
        sc = replace(sc, precision=raw["precision"])
    if "distance" in raw:
        sc = with_distance(file, f"{path}.distance", sc, raw["distance"], stops)
    if "devices" in raw:
        sc = replace(sc, devices=_int(file, f"{path}.devices", raw["devices"], 1, 64))
    for key, hi in (("prompt_tokens", PROMPT_MAX), ("output_tokens", OUTPUT_MAX), ("users", CONCURRENCY_MAX)):
        if key in raw:
            sc = replace(sc, **{key: _int(file, f"{path}.{key}", raw[key], 1, hi)})
    try:
        est = sc.run(catalog)
    except ValueError as err:
        raise ContentError(file, path, f"the estimator rejects this scenario: {err}") from err
    if not est.fits:
        raise ContentError(file, path, f"{sc.model} does not fit on {sc.hardware} (needs {est.devices_needed} devices)")
    return sc


def with_distance(file: Path, path: str, sc: Scenario, value: Any, stops: Sequence[DistanceStop]) -> Scenario:
    by_id = {s.id: s for s in stops}
    if isinstance(value, str):
        if value not in by_id:
            raise ContentError(file, path, f"unknown distance stop {value!r}; content/places.yaml has {list(by_id)}")
        return replace(sc, distance_km=by_id[value].km, distance_stop=value)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 20000:
        raise ContentError(file, path, f"expected a stop id or km from 0 to 20,000, found {value!r}")
    return replace(sc, distance_km=float(value), distance_stop=None)


# --------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Myth:
    myth: Mapping[str, str]
    fact: Mapping[str, str]
    say: Mapping[str, str]


@dataclass(frozen=True)
class Step:
    id: str
    widget: str
    title: Mapping[str, str]
    body: Mapping[str, str]
    takeaway: Mapping[str, str]
    notes: Mapping[str, str]
    scenario: Scenario
    options: tuple[Any, ...]     # the widget's choices (see the module docstring)


@dataclass(frozen=True)
class Lesson:
    steps: tuple[Step, ...]
    finish: Scenario              # the scenario the finish screen opens in the estimator

    def index(self, step_id: str) -> int:
        """1-based number of the step with `step_id`."""
        return next(i for i, s in enumerate(self.steps, 1) if s.id == step_id)


_ID = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")
ID_MAX = 40
"""The longest step, question or option id: an onboarding room keeps them in its store (a screen is
"q:<question id>" in a column of 80 characters, answers' ids in 64; latency/room/store.py refuses a
longer value, never cuts it; tests/room/test_store.py holds the two together)."""


def id_too_long(ident: str) -> str | None:
    """The content check's message for an id the room's store could not keep whole; None if it fits."""
    if len(ident) <= ID_MAX:
        return None
    return (f"id {ident!r} has {len(ident)} characters; at most {ID_MAX}, because an onboarding room "
            f"keeps it in its database (latency/room/store.py)")


def texts(file: Path, path: str, value: Any, limit: int | None = None) -> dict[str, str]:
    """Text in every language, each at most `limit` words; ContentError naming the language."""
    if not isinstance(value, dict):
        raise ContentError(file, path, f"expected text in every language {list(LANGS)}, found {value!r}")
    unknown = set(value) - set(LANGS)
    if unknown:
        raise ContentError(file, path, f"unknown language(s) {sorted(map(str, unknown))}; allowed: {list(LANGS)}")
    out = {}
    for lang in LANGS:
        text = value.get(lang)
        if not isinstance(text, str) or not text.strip():
            raise ContentError(file, f"{path}.{lang}", f"expected non-empty text, found {text!r}")
        if limit is not None and count_words(text) > limit:
            raise ContentError(file, f"{path}.{lang}", f"{count_words(text)} words; at most {limit} fit one screen")
        out[lang] = text.strip()
    return out


def _options(file: Path, path: str, widget: str, raw: Any, sc: Scenario, catalog: Catalog,
             stops: Sequence[DistanceStop]) -> tuple[Any, ...]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise ContentError(file, path, f"widget {widget!r} needs a list of at least two options")
    if len(set(map(repr, raw))) != len(raw):
        raise ContentError(file, path, "options must differ from each other")
    if widget == "myths":
        return tuple(Myth(texts(file, f"{path}[{i}].myth", (o or {}).get("myth"), 30),
                          texts(file, f"{path}[{i}].fact", (o or {}).get("fact"), 40),
                          texts(file, f"{path}[{i}].say", (o or {}).get("say"), 40))
                     if isinstance(o, dict) else _bad(file, f"{path}[{i}]", "expected {myth, fact, say}")
                     for i, o in enumerate(raw))
    if widget == "stages":
        for i, o in enumerate(raw):
            if o not in STAGES:
                raise ContentError(file, f"{path}[{i}]", f"unknown stage {o!r}; the stages are {list(STAGES)}")
        return tuple(raw)
    if widget == "feel":
        for i, o in enumerate(raw):
            if isinstance(o, bool) or not isinstance(o, (int, float)) or not 0 < o <= FEEL_MAX_S:
                raise ContentError(file, f"{path}[{i}]", f"expected seconds above 0 and at most {FEEL_MAX_S:g}, found {o!r}")
        return tuple(float(o) for o in raw)
    out = []
    for i, o in enumerate(raw):  # a varied scenario field: each option must give a scenario that runs
        key = VARIED[widget]
        out.append(parse_scenario(file, f"{path}[{i}]", {key: o}, catalog, stops, base=sc))
    return tuple(raw)


def _bad(file: Path, path: str, problem: str):
    raise ContentError(file, path, problem)


def load_lesson(catalog: Catalog, stops: Sequence[DistanceStop], file: Path | None = None) -> Lesson:
    """The lesson's steps from content/lesson.yaml, each checked; ContentError on the first problem."""
    file = file or LESSON_FILE
    raw = read_yaml(file)
    if not isinstance(raw, dict) or not isinstance(raw.get("steps"), list):
        raise ContentError(file, "steps", "expected a list of steps")
    unknown = set(raw) - {"steps", "finish"}
    if unknown:
        raise ContentError(file, "", f"unknown key(s) {sorted(map(str, unknown))}; allowed: steps, finish")
    if not STEP_MIN <= len(raw["steps"]) <= STEP_MAX:
        raise ContentError(file, "steps", f"{len(raw['steps'])} steps; a 15-minute lesson has {STEP_MIN} to {STEP_MAX}")
    steps = []
    allowed = {"id", "widget", "title", "body", "takeaway", "notes", "scenario", "options"}
    for i, s in enumerate(raw["steps"]):
        path = f"steps[{i}]"
        if not isinstance(s, dict):
            raise ContentError(file, path, "expected a mapping")
        extra = set(s) - allowed
        if extra:
            raise ContentError(file, path, f"unknown key(s) {sorted(map(str, extra))}; allowed: {sorted(allowed)}")
        if not isinstance(s.get("id"), str) or not _ID.match(s["id"]) or s["id"] in (QUIZ, DONE):
            raise ContentError(file, f"{path}.id", f"expected an id of a-z, 0-9 and _ (not {QUIZ!r} or {DONE!r}), found {s.get('id')!r}")
        if id_too_long(s["id"]):
            raise ContentError(file, f"{path}.id", id_too_long(s["id"]))
        path = f"steps[{i}] ({s['id']})"
        if s.get("widget") not in WIDGETS:
            raise ContentError(file, f"{path}.widget", f"expected one of {list(WIDGETS)}, found {s.get('widget')!r}")
        sc = parse_scenario(file, f"{path}.scenario", s.get("scenario", {}), catalog, stops)
        takeaway = texts(file, f"{path}.takeaway", s.get("takeaway"), TAKEAWAY_LIMIT)
        for lang, text in takeaway.items():
            if len(re.findall(r"[.!?。](?:\s|$)", text)) != 1:
                raise ContentError(file, f"{path}.takeaway.{lang}", "the takeaway must be exactly one sentence")
        steps.append(Step(s["id"], s["widget"], texts(file, f"{path}.title", s.get("title"), 12),
                          texts(file, f"{path}.body", s.get("body"), WORD_LIMIT), takeaway,
                          texts(file, f"{path}.notes", s.get("notes")), sc,
                          _options(file, f"{path}.options", s["widget"], s.get("options"), sc, catalog, stops)))
    ids = [s.id for s in steps]
    dup = sorted({x for x in ids if ids.count(x) > 1})
    if dup:
        raise ContentError(file, "steps", f"duplicate step id(s) {dup}")
    finish = parse_scenario(file, "finish.scenario", (raw.get("finish") or {}).get("scenario"), catalog, stops) \
        if raw.get("finish") else Scenario()
    return Lesson(tuple(steps), finish)


# --------------------------------------------------------------------------------------------
# What the page shows
# --------------------------------------------------------------------------------------------

def resolve_step(raw: str | None, lesson: Lesson) -> tuple[str, int, bool]:
    """``?step=`` → (screen, number, ok): screen is a step id, QUIZ or DONE; number counts screens
    from 1 (steps, then the quiz, then the finish screen). A missing value is step 1; a value that
    names no screen gives step 1 with ok False, so the page can say so."""
    n = len(lesson.steps)
    screens = [s.id for s in lesson.steps] + [QUIZ, DONE]
    if raw is None or raw == "":
        return screens[0], 1, True
    value = str(raw).strip().lower()
    if value in screens:
        return value, screens.index(value) + 1, True
    if value.isdigit() and 1 <= int(value) <= n:
        return screens[int(value) - 1], int(value), True
    return screens[0], 1, False


def screen_param(number: int, lesson: Lesson) -> str:
    """The ``?step=`` value of screen `number`: the step's number, or quiz / done."""
    n = len(lesson.steps)
    return str(number) if number <= n else (QUIZ if number == n + 1 else DONE)


def screens(lesson: Lesson) -> int:
    return len(lesson.steps) + 2


def vary(step: Step, option: Any, catalog: Catalog, stops: Sequence[DistanceStop]) -> Scenario:
    """The step's scenario with its varied field set to `option` (the widget's current choice)."""
    key = VARIED.get(step.widget)
    if key is None:
        return step.scenario
    if key == "distance":
        return with_distance(LESSON_FILE, step.id, step.scenario, option, stops)
    if key == "users":
        return replace(step.scenario, users=int(option))
    if key == "output_tokens":
        return replace(step.scenario, output_tokens=int(option))
    return replace(step.scenario, **{key: option, **({"precision": None} if key == "model" else {})})


def start_option(step: Step) -> Any:
    """The value the step's own scenario has for the field its widget varies (the "start" bar)."""
    key = VARIED[step.widget]
    sc = step.scenario
    return {"model": sc.model, "hardware": sc.hardware, "distance": sc.distance_stop, "users": sc.users,
            "output_tokens": sc.output_tokens}[key]


def axis_max(step: Step, catalog: Catalog, stops: Sequence[DistanceStop]) -> float:
    """The largest total over the step's options, so its chart axis stays put while the slider moves."""
    totals = [vary(step, o, catalog, stops).run(catalog).total_s for o in step.options] if step.widget in VARIED else []
    return max(totals + [step.scenario.run(catalog).total_s]) * 1.05


# --------------------------------------------------------------------------------------------
# `python -m latency.content check` calls this
# --------------------------------------------------------------------------------------------

def check(file: Path | None = None) -> list[ContentError]:
    """Problems of the lesson file (the first one found), as a list for the content check."""
    from latency.estimation.catalog import load_catalog
    from latency.estimation.places import load_stops

    try:
        load_lesson(load_catalog(), load_stops(), file)
    except ContentError as err:
        return [err]
    return []
