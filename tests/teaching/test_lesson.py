"""The lesson's steps and the quiz's questions as content: every step and every question file is
tested the moment it is added (parametrised over the files), and broken content is refused with a
named ContentError. Expected answers are recomputed here with `latency.estimate` directly from the
YAML, not through `latency.teaching.quiz`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from latency.teaching import content, lesson, quiz
from latency import estimate
from latency.estimation.catalog import load_catalog
from latency.language.errors import ContentError
from latency.language.i18n import LANGS
from latency.estimation.places import great_circle_km, load_stops

CATALOG = load_catalog()
STOPS = load_stops()
LESSON = lesson.load_lesson(CATALOG, STOPS)
RAW_STEPS = yaml.safe_load(lesson.LESSON_FILE.read_text(encoding="utf-8"))["steps"]
QUIZ_FILES = quiz.question_files()
PLACES = yaml.safe_load((lesson.CONTENT_DIR / "places.yaml").read_text(encoding="utf-8"))


# --- independent recomputation -------------------------------------------------------------------
def km_of(distance) -> float:
    """A stop's distance from its two cities' coordinates (haversine), or km as written."""
    if not isinstance(distance, str):
        return float(distance or 0)
    stop = next(s for s in PLACES["stops"] if s["id"] == distance)
    if "from" not in stop:
        return 0.0
    a, b = PLACES["places"][stop["from"]], PLACES["places"][stop["to"]]
    return round(great_circle_km(a["lat"], a["lon"], b["lat"], b["lon"]))


def direct(raw: dict):
    """latency.estimate on a YAML scenario, by hand: batch = users on a datacenter GPU (continuous
    batching), else one at a time with the others queued."""
    entry = CATALOG.models[raw.get("model", "llama-3.1-8b")]
    hw = CATALOG.hardware[raw.get("hardware", "h100-sxm")]
    users = raw.get("users", 1)
    batch = users if hw.kind == "datacenter_gpu" else 1
    return estimate(entry.model_at(raw.get("precision", entry.default_precision)), hw.hardware,
                    raw.get("prompt_tokens", 512), raw.get("output_tokens", 256), batch=batch,
                    distance_km=km_of(raw.get("distance", 0)), devices=raw.get("devices"), concurrent_users=users)


# --- steps -----------------------------------------------------------------------------------------
def test_a_fifteen_minute_lesson_has_six_to_eight_steps():
    assert 6 <= len(LESSON.steps) <= 8
    assert [s.id for s in LESSON.steps] == [r["id"] for r in RAW_STEPS]


@pytest.mark.parametrize("raw", RAW_STEPS, ids=[r["id"] for r in RAW_STEPS])
def test_every_step_is_short_with_one_interaction_and_one_takeaway(raw):
    assert raw["widget"] in lesson.WIDGETS  # one interaction: exactly one widget name
    for lang in LANGS:
        assert len(raw["body"][lang].split()) <= 120, (lang, len(raw["body"][lang].split()))
        assert len(re.findall(r"[.!?](\s|$)", raw["takeaway"][lang].strip())) == 1, raw["takeaway"][lang]
        assert raw["title"][lang].strip() and raw["notes"][lang].strip()
    if lang == "en":
        assert not re.search(r"[\uac00-\ud7a3]", raw["body"]["en"] + raw["takeaway"]["en"] + raw["notes"]["en"])


@pytest.mark.parametrize("raw", [r for r in RAW_STEPS if r["widget"] in lesson.VARIED], ids=lambda r: r["id"])
def test_every_option_of_a_step_gives_the_estimate_its_chart_shows(raw):
    step = next(s for s in LESSON.steps if s.id == raw["id"])
    field = {"timeline": "output_tokens"}.get(raw["widget"], raw["widget"])
    for option in raw["options"]:
        expected = direct({**raw.get("scenario", {}), field: option})
        got = lesson.vary(step, option, CATALOG, STOPS).run(CATALOG)
        assert got.total_s == pytest.approx(expected.total_s, rel=1e-9)
        assert got.breakdown == pytest.approx(expected.breakdown, rel=1e-9)


def test_steps_that_vary_a_factor_move_the_stage_they_teach():
    """The lesson's claims, checked on the estimator: size and hardware move decode, distance moves network."""
    def spread(step_id: str, stage: str) -> float:
        step = next(s for s in LESSON.steps if s.id == step_id)
        values = [lesson.vary(step, o, CATALOG, STOPS).run(CATALOG).breakdown[stage] for o in step.options]
        return max(values) - min(values)

    assert spread("model_size", "decode") > spread("model_size", "network")
    assert spread("hardware", "decode") > spread("hardware", "network")
    assert spread("distance", "network") > spread("distance", "decode")


def _step(step_id: str):
    return next(s for s in LESSON.steps if s.id == step_id)


def _run(step_id: str, option):
    return lesson.vary(_step(step_id), option, CATALOG, STOPS).run(CATALOG)


def test_each_examples_numbers_match_its_text_and_notes():
    """Issue 34 item 4: step 3's example showed "대기열: 0초" while its note said the queue was as large as decode;
    step 7 said "조금 느려지지만" for 2.4 s -> 14 s. Each sentence of the steps, checked on its own numbers."""
    stages = _step("stages")
    est = stages.scenario.run(CATALOG)
    # step 3 body and notes: 128 people on one gaming GPU: every stage there to pick, the queue large
    assert all(est.breakdown[k] > 0 for k in ("network", "queue", "prefill", "decode")), est.breakdown
    assert est.breakdown["queue"] >= 0.1 * est.total_s and est.breakdown["queue"] > est.breakdown["prefill"] + est.breakdown["network"]
    assert "128" in stages.body["ko"] and "128" in stages.body["en"] and stages.scenario.users == 128
    assert "대기열이 눈에 띄게 크다" in stages.notes["ko"] and "디코드만큼" not in stages.notes["ko"]
    # step 7: "수십 명까지는 조금, 수백 명이 되면 몇 배로 느려집니다", "비용은 크게 내려갑니다"
    step = _step("tradeoffs")
    one, dozens, hundreds = _run("tradeoffs", 1), _run("tradeoffs", 32), _run("tradeoffs", 512)
    assert dozens.total_s <= 1.5 * one.total_s, (one.total_s, dozens.total_s)  # "조금" / "a little"
    assert hundreds.total_s >= 3 * one.total_s, (one.total_s, hundreds.total_s)  # "몇 배로" / "several times"
    assert "조금 느려지지만" not in step.body["ko"] and "몇 배로" in step.body["ko"] and "several times" in step.body["en"]
    # step 4: "주로 디코드가 길어지고, 프리필도 함께 늘어납니다"
    small, big = _run("model_size", "llama-3.1-8b"), _run("model_size", "llama-3.1-70b")
    grow = {k: big.breakdown[k] - small.breakdown[k] for k in ("prefill", "decode")}
    assert grow["decode"] > grow["prefill"] > 0, grow
    # step 5: "같은 8B 모델도 어떤 칩에서 돌리느냐에 따라 몇 배 차이가 납니다"
    totals = [_run("hardware", o).total_s for o in _step("hardware").options]
    assert max(totals) >= 3 * min(totals)
    # step 6: "첫 토큰까지의 시간이 가장 크게 변합니다" (in proportion), and for a few-token answer the network is most of it
    near, far = _run("distance", "same_building"), _run("distance", "seoul_us_west")
    assert far.ttft_s / near.ttft_s > far.total_s / near.total_s
    short = lesson.Scenario(model="llama-3.1-8b", hardware="h100-sxm", distance_km=far.breakdown and
                            next(x for x in STOPS if x.id == "seoul_us_west").km, output_tokens=10).run(CATALOG)
    assert short.breakdown["network"] == max(short.breakdown.values())


@pytest.mark.parametrize("raw,expected", [
    (None, ("what", 1, True)), ("", ("what", 1, True)), ("3", ("stages", 3, True)), ("stages", ("stages", 3, True)),
    ("quiz", ("quiz", 9, True)), ("done", ("done", 10, True)), ("DONE", ("done", 10, True)),
    ("0", ("what", 1, False)), ("9", ("what", 1, False)), ("-1", ("what", 1, False)), ("abc", ("what", 1, False)),
    ("2.5", ("what", 1, False)), ("<b>", ("what", 1, False)),
])
def test_step_values_from_the_url(raw, expected):
    assert lesson.resolve_step(raw, LESSON) == expected


def test_screen_params_round_trip():
    for n in range(1, lesson.screens(LESSON) + 1):
        assert lesson.resolve_step(lesson.screen_param(n, LESSON), LESSON)[1] == n


def _broken_lesson(tmp_path: Path, edit) -> Path:
    raw = yaml.safe_load(lesson.LESSON_FILE.read_text(encoding="utf-8"))
    edit(raw)
    file = tmp_path / "lesson.yaml"
    file.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return file


@pytest.mark.parametrize("edit,path,problem", [
    (lambda r: r["steps"][0].update(widget="slider"), "steps[0] (what).widget", "expected one of"),
    (lambda r: r["steps"][4]["scenario"].update(hardware="h900"), "steps[4] (hardware).scenario.hardware", "unknown hardware"),
    (lambda r: r["steps"][5]["scenario"].update(distance="mars"), "steps[5] (distance).scenario.distance", "unknown distance stop"),
    (lambda r: r["steps"][1]["body"].update(en="word " * 121), "steps[1] (feel).body.en", "121 words"),
    (lambda r: r["steps"][2]["takeaway"].update(ko="첫 문장입니다. 둘째 문장입니다."), "steps[2] (stages).takeaway.ko", "one sentence"),
    (lambda r: r["steps"][3]["title"].pop("en"), "steps[3] (model_size).title.en", "non-empty text"),
    (lambda r: r["steps"][3].update(options=["llama-3.1-8b", "gpt-5"]), "steps[3] (model_size).options[1].model", "unknown model"),
    (lambda r: r["steps"][1].update(options=[0.2, 60]), "steps[1] (feel).options[1]", "at most"),
    (lambda r: r["steps"].append(dict(r["steps"][0])), "steps", "steps; a 15-minute lesson"),
    (lambda r: r["steps"][3]["scenario"].update(model="llama-3.1-405b", hardware="l4"), "steps[3] (model_size).scenario", "does not fit"),
])
def test_broken_lesson_content_is_named(tmp_path, edit, path, problem):
    file = _broken_lesson(tmp_path, edit)
    with pytest.raises(ContentError) as err:
        lesson.load_lesson(CATALOG, STOPS, file)
    assert err.value.path == path and problem in err.value.problem, str(err.value)
    assert lesson.check(file) and lesson.check(file)[0].path == path


# --- quiz ------------------------------------------------------------------------------------------
def test_the_quiz_has_at_least_ten_questions_of_every_kind():
    questions = quiz.load_quiz(CATALOG, STOPS, LESSON)
    assert len(questions) >= 10
    assert {q.kind for q in questions} == set(quiz.KINDS)


@pytest.mark.parametrize("file", QUIZ_FILES, ids=[f.stem for f in QUIZ_FILES])
def test_every_question_is_answered_by_the_estimator(file):
    raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    q = quiz.load_question(file, CATALOG, STOPS, LESSON)
    outcome = quiz.evaluate(q, CATALOG)
    # the answer is computed, never typed: no field of the file names the right option except the
    # explanation's argues_for, which the check compares with the computed answer
    assert not {"answer", "right", "correct"} & set(raw)
    measure = f"{q.measure}_s"
    if q.kind == "faster":
        values = {o["id"]: getattr(direct(o["scenario"]), measure) for o in raw["options"]}
        right = min(values, key=values.get)
    elif q.kind == "how_long":
        value = getattr(direct(raw["scenario"]), measure)
        right = next(o["id"] for o in raw["options"] if o["band"][0] <= value < (o["band"][1] or float("inf")))
    else:
        parts = direct(raw["scenario"]).breakdown
        right = max(raw["options"], key=lambda o: parts[o["stage"]])["id"]
    assert outcome.right == right
    assert quiz.problems(q, CATALOG) == []  # agrees with its explanation, not too close to call
    assert raw["explanation"]["argues_for"] == right
    for o in q.options:  # every option says why, in every language
        assert all(o.feedback[lang].strip() and o.label[lang].strip() for lang in LANGS)
    assert LESSON.index(q.review_step) >= 1


def test_the_issue_example_far_big_model_beats_near_small_one_on_the_whole_answer():
    """70B on four H100s in US West against 8B on one L4 in Seoul, for a Seoul user (by hand)."""
    big = estimate(CATALOG.models["llama-3.1-70b"].model, CATALOG.hardware["h100-sxm"].hardware,
                   distance_km=km_of("seoul_us_west"), devices=4)
    small = estimate(CATALOG.models["llama-3.1-8b"].model, CATALOG.hardware["l4"].hardware, distance_km=km_of("same_city"))
    assert big.ranges["total_s"][1] < small.ranges["total_s"][0]
    q = quiz.load_question(quiz.QUIZ_DIR / "q01-far-big-vs-near-small.yaml", CATALOG, STOPS, LESSON)
    assert quiz.evaluate(q, CATALOG).right == "big_far"


def _write_question(tmp_path: Path, source: str, edit) -> Path:
    raw = yaml.safe_load((quiz.QUIZ_DIR / source).read_text(encoding="utf-8"))
    edit(raw)
    file = tmp_path / source
    file.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return file


def test_check_refuses_an_explanation_the_estimator_contradicts(tmp_path):
    file = _write_question(tmp_path, "q01-far-big-vs-near-small.yaml",
                           lambda r: r["explanation"].update(argues_for="small_near"))
    errors = quiz.problems(quiz.load_question(file, CATALOG, STOPS, LESSON), CATALOG)
    assert [e.path for e in errors] == ["explanation.argues_for"]
    assert "'big_far'" in errors[0].problem


def test_check_refuses_options_too_close_to_call(tmp_path):
    """Two H100s running 8B, one in the user's building and one 22 km away: a few milliseconds
    apart on a whole answer of seconds, deep inside each other's ranges."""
    def edit(r):
        r["options"][0]["scenario"] = {"model": "llama-3.1-8b", "hardware": "h100-sxm", "distance": "same_building"}
        r["options"][1]["scenario"] = {"model": "llama-3.1-8b", "hardware": "h100-sxm", "distance": "same_city"}
    file = _write_question(tmp_path, "q01-far-big-vs-near-small.yaml", edit)
    a, b = direct({"distance": "same_building"}), direct({"distance": "same_city"})
    assert a.ranges["total_s"][1] > b.ranges["total_s"][0]  # overlapping, by hand
    errors = quiz.problems(quiz.load_question(file, CATALOG, STOPS, LESSON), CATALOG)
    assert any(e.path == "options" and "too close to call" in e.problem for e in errors)


def test_check_refuses_a_band_the_range_straddles(tmp_path):
    """q03's estimate is about 2.2 s; a band edge at 2 s lies inside the estimate's range."""
    def edit(r):
        r["options"][1]["band"] = [1, 2]
        r["options"][2]["band"] = [2, 20]
    file = _write_question(tmp_path, "q03-how-long-chat-answer.yaml", edit)
    errors = quiz.problems(quiz.load_question(file, CATALOG, STOPS, LESSON), CATALOG)
    assert any("too close to call" in e.problem for e in errors)


def test_check_refuses_a_largest_stage_inside_the_spread(tmp_path):
    """q05 with a 20-token suggestion: decode and network both come to about 0.16 s, within the estimate's spread."""
    file = _write_question(tmp_path, "q05-autocomplete-far.yaml", lambda r: r["scenario"].update(output_tokens=20))
    q = quiz.load_question(file, CATALOG, STOPS, LESSON)
    parts = direct({**yaml.safe_load(file.read_text(encoding="utf-8"))["scenario"]}).breakdown
    close = sorted((parts["decode"], parts["network"]))
    assert close[1] < 1.5 * close[0]  # within half of each other, by hand
    assert any("too close to call" in e.problem for e in quiz.problems(q, CATALOG))


@pytest.mark.parametrize("source,edit,path", [
    ("q01-far-big-vs-near-small.yaml", lambda r: r["options"][0]["scenario"].update(hardware="h900"), "options[0].scenario.hardware"),
    ("q01-far-big-vs-near-small.yaml", lambda r: r["options"][1].pop("feedback"), "options[1].feedback"),
    ("q01-far-big-vs-near-small.yaml", lambda r: r.update(review_step="nowhere"), "review_step"),
    ("q01-far-big-vs-near-small.yaml", lambda r: r["options"][0]["feedback"].update(en="About {seconds}."), "options[0].feedback.en"),
    ("q01-far-big-vs-near-small.yaml", lambda r: r.update(answer="big_far"), "(top level)"),
    ("q03-how-long-chat-answer.yaml", lambda r: r["options"][3].update(band=[25, None]), "options"),
    ("q04-biggest-stage-chat.yaml", lambda r: r["options"][0].update(stage="thinking"), "options[0].stage"),
])
def test_broken_question_is_named(tmp_path, source, edit, path):
    file = _write_question(tmp_path, source, edit)
    with pytest.raises(ContentError) as err:
        quiz.load_question(file, CATALOG, STOPS, LESSON)
    assert err.value.path == path, str(err.value)


def test_content_check_command_covers_the_lesson_and_the_quiz(tmp_path, monkeypatch, capsys):
    assert content.main(["check"]) == 0
    for f in QUIZ_FILES:
        shutil.copy(f, tmp_path / f.name)
    bad = _write_question(tmp_path, "q02-first-token-far-vs-near.yaml", lambda r: r["explanation"].update(argues_for="far"))
    monkeypatch.setattr(quiz, "QUIZ_DIR", tmp_path)
    assert content.main(["check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(bad.name in line and "explanation.argues_for" in line for line in out), out


def test_score_counts_computed_answers_and_lists_misses_in_order():
    questions = quiz.load_quiz(CATALOG, STOPS, LESSON)
    outcomes = {q.id: quiz.evaluate(q, CATALOG) for q in questions}
    right = {q.id: outcomes[q.id].right for q in questions}
    assert quiz.score(questions, outcomes, right) == quiz.Score(len(questions), len(questions), ())
    answers = dict(right)
    answers[questions[0].id] = next(o.id for o in questions[0].options if o.id != right[questions[0].id])
    answers[questions[2].id] = None
    result = quiz.score(questions, outcomes, answers)
    assert (result.right, result.misses) == (len(questions) - 2, (questions[0], questions[2]))


def test_the_lesson_runs_the_one_scenario_evaluation():
    """Issue 31 item 1: a lesson set-up is the estimator's set-up (scenario.evaluate on the same inputs), and
    its estimate is what latency.estimate gives on the catalog model and chip with the page defaults."""
    from latency.estimation import scenario
    from latency.estimation.estimator import estimate

    for step in LESSON.steps:
        for option in (step.options if step.widget in lesson.VARIED else [None]):
            sc = lesson.vary(step, option, CATALOG, STOPS) if option is not None else step.scenario
            values = sc.values(CATALOG)
            assert set(values) == set(scenario.KEYS)
            entry = CATALOG.models[sc.model]
            by_hand = estimate(entry.model_at(entry.default_precision), CATALOG.hardware[sc.hardware].hardware,
                               sc.prompt_tokens, sc.output_tokens, distance_km=sc.distance_km, devices=sc.devices,
                               concurrent_users=sc.users)
            assert sc.run(CATALOG).total_s == pytest.approx(by_hand.total_s, rel=1e-12), (step.id, option)
            assert sc.run(CATALOG).ttft_s == pytest.approx(by_hand.ttft_s, rel=1e-12), (step.id, option)


def test_content_check_names_a_question_without_its_room_short_title(monkeypatch):
    """A quiz question with no `room_short_<id>` in content/ui/lesson.yaml broke the room's results
    screen; the content check names it before a room does (issue 30 item 1: nothing breaks mid-session)."""
    from latency.language import i18n
    from latency.teaching import quiz as quiz_module

    words = i18n.load_area("lesson")
    gone = next(k for k in words if k.startswith(quiz_module.ROOM_SHORT))
    monkeypatch.setattr(quiz_module, "load_area", lambda area: {k: v for k, v in words.items() if k != gone})
    found = [e for e in quiz_module.check() if gone in str(e)]
    assert len(found) == 1, [str(e) for e in quiz_module.check()]
