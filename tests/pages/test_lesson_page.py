"""The lesson page headless (AppTest), in every language: every screen, back/next in the URL, bad
URL values named, presenter mode, the quiz marked against the estimator, broken content named.
Expected numbers come from `latency.estimate` called here by hand."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs

import pytest
import streamlit as st

from latency import estimate
from latency.language import formats, i18n
from latency.teaching import feel, lesson, quiz
from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from tests.conftest import all_text, run_page
from tests.helpers import FakeClock
from ui.announce import status_html

CATALOG, STOPS = load_catalog(), load_stops()
LESSON = lesson.load_lesson(CATALOG, STOPS)
QUESTIONS = quiz.load_quiz(CATALOG, STOPS, LESSON)
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def s(lang: str) -> i18n.Strings:
    return i18n.strings("lesson", lang)


def units(lang: str) -> i18n.Strings:
    return i18n.strings("units", lang)


def page_links(at):
    return at.get("page_link")


def _blocks(node):
    """Every element under an AppTest node, containers included, in page order."""
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _blocks(child)


def no_exception(at) -> None:
    assert not at.exception, at.exception[0].value


@pytest.mark.parametrize("k", range(1, len(LESSON.steps) + 1))
def test_every_step_renders_its_own_text(lang, k):
    step = LESSON.steps[k - 1]
    at = run_page("lesson", lang, {"step": str(k)})
    no_exception(at)
    assert [h.value for h in at.header] == [step.title[lang]]
    text = all_text(at)
    assert step.takeaway[lang] in text.replace("\\", "")
    # the step counted as the room's projector and phones count it (room_projector, room_phone: "3/8단계")
    assert at.get("progress")[0].proto.text == s(lang)("step_count", n=k, total=len(LESSON.steps))
    table = i18n.strings("common", lang)("chart_table_open")  # a chart's numbers behind a control (test_chart_tables.py)
    folded = [e for e in at.expander if e.label != table]
    assert not folded, [e.label for e in folded]  # no "발표자 노트" fold on every step for a learner alone
    menu = [b for b in _blocks(at.main) if getattr(b, "type", "") == "popover" and s(lang)("present_menu") in str(b.proto)]
    assert len(menu) == 1, "the speaker notes and presenter mode sit in one small menu"
    inside = "\n".join(str(getattr(x, "value", "")) for x in _blocks(menu[0]))
    assert step.notes[lang][:30] in inside.replace("\\", "") and s(lang)("present_on") in str([x.proto for x in _blocks(menu[0])])
    if lang == "en":
        assert not HANGUL.search(text), HANGUL.findall(text)[:5]


def test_next_and_back_move_the_step_in_the_url(lang):
    at = run_page("lesson", lang, {"step": "2"})
    at.button(key="lesson_next").click().run()
    assert at.query_params["step"] == "3"
    assert at.header[0].value == LESSON.steps[2].title[lang]
    at.button(key="lesson_back").click().run()
    at.button(key="lesson_back").click().run()
    assert at.query_params["step"] == "1"
    assert all(b.key != "lesson_back" for b in at.button)  # no way back from step 1


def test_last_step_leads_to_the_quiz_and_the_quiz_to_the_finish(lang):
    n = len(LESSON.steps)
    at = run_page("lesson", lang, {"step": str(n)})
    assert at.button(key="lesson_next").label == s(lang)("to_quiz")
    at.button(key="lesson_next").click().run()
    assert at.query_params["step"] == "quiz"
    # past the steps the bar names the screen: no "9 / 10" beside a projector's "8/8단계"
    assert at.get("progress")[0].proto.text == s(lang)("quiz_title")
    assert at.button(key="lesson_next").label == s(lang)("to_finish")
    at.button(key="lesson_next").click().run()
    assert at.query_params["step"] == "done"
    assert at.get("progress")[0].proto.text == s(lang)("to_finish")
    assert all(b.key != "lesson_next" for b in at.button)


@pytest.mark.parametrize("value", ["0", "99", "abc", "<script>", "[x](https://evil.example)"])
def test_a_bad_step_value_is_named_and_step_one_is_shown(lang, value):
    at = run_page("lesson", lang, {"step": value})
    no_exception(at)
    assert len(at.warning) == 1
    shown = at.warning[0].value
    assert "(https://evil.example)" not in shown or "\\[x\\]" in shown  # escaped: never a link
    assert at.header[0].value == LESSON.steps[0].title[lang]


def presenter_css(at) -> str:
    """The presenter stylesheet, if the page sent it (the app's own stylesheet, ui/style.py, is always there)."""
    return "\n".join(h.value for h in at.get("html") if "[data-testid=\"stSidebar\"], [data-testid=\"stSidebarCollapsedControl\"]" in h.value)


def test_a_bad_present_value_is_named(lang):
    at = run_page("lesson", lang, {"step": "1", "present": "yes"})
    assert len(at.warning) == 1 and "present=1" in at.warning[0].value
    assert not presenter_css(at)


def test_presenter_mode_style_and_controls(lang):
    at = run_page("lesson", lang, {"step": "4", "present": "1"})
    no_exception(at)
    css = presenter_css(at)
    body = re.search(r"stMarkdownContainer\"\] p,[^{]*\{ font-size: (\d+)px", css)
    assert body and int(body.group(1)) >= 28
    assert "stSidebar" in css and "display: none" in css
    # one step per screen, no page title above it: the step's own title is the screen's h1 (issue 34 item 7)
    step = LESSON.steps[3]
    assert [t.value for t in at.title] == [step.title[lang]] and not at.header
    assert at.button(key="lesson_next").proto.shortcut and at.button(key="lesson_back").proto.shortcut
    link = next(p for p in page_links(at) if p.value == s(lang)("present_off"))
    assert parse_qs(link.proto.query_string) == {"step": ["4"], "lang": [lang]}
    at_plain = run_page("lesson", lang, {"step": "4"})
    assert not presenter_css(at_plain) and not at_plain.button(key="lesson_next").proto.shortcut


def test_model_step_slider_shows_the_estimate(lang):
    step = next(x for x in LESSON.steps if x.widget == "model")
    at = run_page("lesson", lang, {"step": str(LESSON.index(step.id))})
    at.segmented_control(key=f"lesson_w_{step.id}").set_value("llama-3.1-70b").run()
    by_hand = estimate(CATALOG.models["llama-3.1-70b"].model, CATALOG.hardware[step.scenario.hardware].hardware,
                       distance_km=step.scenario.distance_km)
    metrics = {m.label: m.value for m in at.metric}
    expected = units(lang)("seconds", v=f"{by_hand.total_s:.2g}")
    assert metrics[s(lang)("total")] == expected


def test_feel_step_waits_then_streams_the_sample(lang):
    step = next(x for x in LESSON.steps if x.widget == "feel")
    at = run_page("lesson", lang, {"step": str(LESSON.index(step.id))}, timeout=60)
    at.button(key=f"lesson_ask_{step.id}").click().run()
    no_exception(at)
    done = s(lang)("feel_done", ttft="X", total="Y").split("X")[0]
    assert any(done in h.value and 'role="status"' in h.value for h in at.get("html")), "the result is announced politely"


def script_clock(monkeypatch, clock: FakeClock) -> FakeClock:
    """`clock` as time.sleep and time.monotonic for the page's script thread (AppTest's); the test's own thread
    keeps the real ones."""
    import threading
    import time

    real_sleep, real_clock = time.sleep, time.monotonic
    in_script = lambda fake, real: lambda *a: (real if threading.current_thread() is threading.main_thread() else fake)(*a)  # noqa: E731
    monkeypatch.setattr("time.sleep", in_script(clock.sleep, real_sleep))
    monkeypatch.setattr("time.monotonic", in_script(clock, real_clock))
    return clock


def test_the_played_answer_reports_its_planned_times_and_says_when_the_server_ran_late(lang, monkeypatch):
    """A slow server stretches the wall clock (here 0.2 s pass each time the clock is read): the result gives the chosen wait
    and wait + (n - 1) / tokens per second, by hand, as the start page's race does (learner trial 2026-12-05: the
    lesson said 4.9 s where the start page said 4.8 s for the same answer), and says apart that it finished late."""
    class LateClock(FakeClock):
        def __call__(self) -> float:  # drawing the page takes time too: 0.2 s each time the player reads the clock
            self.now += 0.2
            return self.now

    script_clock(monkeypatch, LateClock())
    step = next(x for x in LESSON.steps if x.widget == "feel")
    at = run_page("lesson", lang, {"step": str(LESSON.index(step.id))}, timeout=60)
    at.button(key=f"lesson_ask_{step.id}").click().run()
    no_exception(at)
    sample = feel.load_samples()[lang]
    wait = float(step.options[0])
    tps = step.scenario.run(CATALOG).decode_tokens_per_s
    n = len(feel.split_tokens(sample.answer, sample.chars_per_token))
    f = formats.get(lang)
    done = s(lang)("feel_done", ttft=f.seconds(wait), total=f.seconds(wait + (n - 1) / tps))
    said = [h.value for h in at.get("html") if 'role="status"' in h.value]
    assert any(html.escape(done) in h for h in said), said
    late = s(lang)("feel_late", late="X").split("X")[0]
    assert any(html.escape(late) in h for h in said), said


def test_feel_step_without_animation_shows_the_answer_at_once(lang, monkeypatch):
    """Reduced motion (issue 23 item 5): nothing is played; the wait is a line, the whole answer is
    there at once, and the times (the chosen wait; wait + (n - 1) / tokens per second, by hand) are
    announced politely."""
    clock = script_clock(monkeypatch, FakeClock())
    step = next(x for x in LESSON.steps if x.widget == "feel")
    at = run_page("lesson", lang, {"step": str(LESSON.index(step.id))}, timeout=60)
    at.toggle(key=f"lesson_still_{step.id}").set_value(True).run()
    at.button(key=f"lesson_ask_{step.id}").click().run()
    no_exception(at)
    assert clock.sleeps == [], "nothing is played"
    sample = feel.load_samples()[lang]
    assert [m.value for m in at.markdown if m.value.strip() == i18n.md(sample.answer).strip()], "the whole answer at once"
    wait = float(step.options[0])
    tps = step.scenario.run(CATALOG).decode_tokens_per_s
    n = len(feel.split_tokens(sample.answer, sample.chars_per_token))
    f = formats.get(lang)
    done = s(lang)("feel_still_done", ttft=f.seconds(wait), total=f.seconds(wait + (n - 1) / tps))
    assert any(html.escape(done) in h.value and 'role="status"' in h.value for h in at.get("html")), [h.value for h in at.get("html")]


def _mark(at, answers: dict) -> None:
    for q in QUESTIONS:
        at.radio(key=f"lesson_q_{q.id}").set_value(answers[q.id])
    next(b for b in at.button if b.proto.is_form_submitter).click().run()


def test_quiz_all_right_scores_full_marks(lang):
    at = run_page("lesson", lang, {"step": "quiz"})
    no_exception(at)
    right = {q.id: quiz.evaluate(q, CATALOG).right for q in QUESTIONS}
    _mark(at, right)
    no_exception(at)
    assert status_html(s(lang)("quiz_score", right=len(QUESTIONS), total=len(QUESTIONS)), heading=3) in [h.value for h in at.get("html")]
    right_mark = f":green-badge[:material/check_circle: {s(lang)('quiz_right')}]"
    assert sum(right_mark in m.value for m in at.markdown) == len(QUESTIONS), "each question is marked right"
    assert not at.success and not at.error, "no alert or status per question: the score alone is announced"
    assert not [p for p in page_links(at) if re.search(r"step=\d", p.proto.query_string)]


def test_quiz_misses_link_back_to_their_steps(lang):
    """Every answer wrong on purpose: one review link per question, to the question's review_step."""
    at = run_page("lesson", lang, {"step": "quiz"})
    right = {q.id: quiz.evaluate(q, CATALOG).right for q in QUESTIONS}
    wrong = {q.id: next(o.id for o in q.options if o.id != right[q.id]) for q in QUESTIONS}
    _mark(at, wrong)
    assert status_html(s(lang)("quiz_score", right=0, total=len(QUESTIONS)), heading=3) in [h.value for h in at.get("html")]
    # each miss on a red badge, the right answer beside it in bold (learner trial: right and wrong looked alike)
    miss = f":red-badge[:material/cancel: {s(lang)('quiz_wrong')}]"
    assert sum(miss in m.value and f"**{s(lang)('quiz_answer', answer='')}" in m.value for m in at.markdown) == len(QUESTIONS)
    # the answer's label is escaped once: escaped twice, "1~5초" showed as "1\\~5초" (learner re-check 2026-12-05)
    assert not [m.value for m in at.markdown if "\\\\" in m.value], [m.value for m in at.markdown if "\\\\" in m.value][:2]
    review = [p for p in page_links(at) if re.search(r"step=\d", p.proto.query_string)]
    assert [parse_qs(p.proto.query_string)["step"][0] for p in review] == [str(LESSON.index(q.review_step)) for q in QUESTIONS]
    text = all_text(at)
    for q in QUESTIONS[:3]:  # the why: every option's feedback is there
        for o in q.options:
            assert o.feedback[lang].split("{time}")[-1].strip()[:20].replace("*", "") in text.replace("\\", "")


def test_finish_screen_sums_up_and_opens_the_estimator(lang):
    at = run_page("lesson", lang, {"step": "done"})
    text = all_text(at).replace("\\", "")
    for step in LESSON.steps:
        assert step.takeaway[lang] in text
    link = next(p for p in page_links(at) if p.proto.page.endswith("estimator"))
    query = parse_qs(link.proto.query_string)
    assert query["hardware"] == [LESSON.finish.hardware] and query["lang"] == [lang]
    assert float(query["model_size_b"][0]) == CATALOG.models[LESSON.finish.model].model.params_b


def test_a_broken_lesson_file_is_named_and_the_app_keeps_working(tmp_path, monkeypatch, lang):
    bad = tmp_path / "lesson.yaml"
    bad.write_text(lesson.LESSON_FILE.read_text(encoding="utf-8").replace("widget: feel", "widget: [feel"), encoding="utf-8")
    monkeypatch.setattr(lesson, "LESSON_FILE", bad)
    st.cache_data.clear()
    st.cache_resource.clear()  # the lesson, quiz and strings tables (cache_resource: shared, not copied)
    try:
        at = run_page("lesson", lang, {"step": "2"})
        no_exception(at)
        assert len(at.error) == 1 and "lesson.yaml" in at.error[0].value
        assert at.sidebar  # the shell (language switch, navigation) still runs
    finally:
        st.cache_data.clear()
        st.cache_resource.clear()  # the lesson, quiz and strings tables (cache_resource: shared, not copied)


def test_the_lessons_cost_is_the_estimators_for_the_same_set_up(lang):
    """Issue 31 item 1: the default scenario costs "$1.90 per 1,000 answers" on the estimator and read "$1.99"
    in the lesson (the lesson counted the network's time as the server's). One user, the estimator's default
    set-up (8B on an H100, Seoul to Tokyo): the two pages show the same cost, and it is the by-hand sum
    price x devices x (prefill + decode) / 3600 / answers served together x 1000."""
    step = next(x for x in LESSON.steps if x.widget == "users")
    at = run_page("lesson", lang, {"step": str(LESSON.index(step.id))})
    at.segmented_control(key=f"lesson_w_{step.id}").set_value(1).run()
    no_exception(at)
    lesson_cost = {m.label: m.value for m in at.metric}[s(lang)("cost_metric")]
    est_page = run_page("estimator", lang)
    no_exception(est_page)
    costs = [m.group(1) for c in est_page.caption for m in [re.search(r"(\$\d[\d,]*(?:\.\d+)?)", str(c.value))] if m and "1,000" in str(c.value)]
    assert costs and lesson_cost == costs[0], (lesson_cost, costs)
    sc = lesson.vary(step, 1, CATALOG, STOPS)
    entry = CATALOG.models[sc.model]
    hw = CATALOG.hardware[sc.hardware]
    e = estimate(entry.model_at(entry.default_precision), hw.hardware, sc.prompt_tokens, sc.output_tokens,
                 distance_km=sc.distance_km)
    by_hand = hw.price_usd_per_hour * e.devices_needed * (e.breakdown["prefill"] + e.breakdown["decode"]) / 3600 / 1 * 1000
    assert lesson_cost == formats.get(lang).usd(by_hand)


def test_the_wrap_up_says_the_score_and_the_explanations_need_no_tap(lang):
    """Learner trial: reading the twelve explanations took twelve taps, and the wrap-up page did not say the score;
    it had no way to the glossary either."""
    at = run_page("lesson", lang, {"step": "quiz"})
    right = {q.id: quiz.evaluate(q, CATALOG).right for q in QUESTIONS}
    answers = {**right, QUESTIONS[0].id: next(o.id for o in QUESTIONS[0].options if o.id != right[QUESTIONS[0].id])}
    _mark(at, answers)
    no_exception(at)
    open_text = "\n".join(str(m.value) for m in at.main.markdown).replace("\\", "")  # not inside any fold
    folded = "\n".join(str(m.value) for e in at.expander for m in e.markdown).replace("\\", "")
    for q in QUESTIONS:
        why = q.explanation[lang].split("{time}")[0].strip()[:25]
        assert why in open_text and why not in folded, q.id
    at.query_params["step"] = "done"
    at.run()
    no_exception(at)
    said = s(lang)("quiz_score", right=len(QUESTIONS) - 1, total=len(QUESTIONS))
    assert said in all_text(at)
    assert [p for p in page_links(at) if p.proto.label == s(lang)("finish_glossary")]  # the start page, at the app's root


def test_the_cost_step_links_its_price_source_and_says_the_sum_in_words(lang):
    """Learner trial: "https:⁠//lambda.ai/..." shown with an invisible character inside, and a formula
    "1대 시간당 $2.99 × 1개 × …" under the cost."""
    k = next(i for i, x in enumerate(LESSON.steps, 1) if x.widget == "users")
    at = run_page("lesson", lang, {"step": str(k)})
    no_exception(at)
    (said,) = [c.value for c in at.caption if s(lang)("source_site", site="X").split("(")[0] in c.value]
    assert "\u2060" not in said and "](https://" in said and "×" not in said, said


def test_a_step_on_a_phone_starts_with_the_step_and_its_choices_fit_rows(lang):
    """Learner trial (390 px): the page's intro and a "4단계" line took room above every step; 405B sat alone
    on a second row of model buttons; a tap on a stage changed a chart below the screen."""
    from tests.conftest import in_order

    at = run_page("lesson", lang, {"step": "4"})
    no_exception(at)
    assert s(lang)("intro", n=len(LESSON.steps), total=len(LESSON.steps) + 2) not in [c.value for c in at.caption]
    assert not [c for c in at.caption if c.value == s(lang)("step_kicker", n=4)]
    choices = at.segmented_control(key="lesson_w_model_size")
    assert [len(o) for o in choices.options] and max(len(o) for o in choices.options) <= 4, choices.options
    k = next(i for i, x in enumerate(LESSON.steps, 1) if x.widget == "stages")
    at = run_page("lesson", lang, {"step": str(k)})
    order = [el for el, _ in in_order(at.main)]
    said = next(i for i, el in enumerate(order) if getattr(el, "type", "") == "markdown"
                and s(lang)("stage_text_network")[:15] in str(el.value))
    plot = next(i for i, el in enumerate(order) if "plotly" in type(el).__name__.lower() or getattr(el, "type", "") == "plotly_chart")
    assert said < plot, "the picked stage's words come right under its buttons, before the chart"


def test_start_again_takes_the_learner_back_to_step_one(lang):
    at = run_page("lesson", lang, {"step": "done"})
    at.button(key="lesson_restart").click().run()
    no_exception(at)
    assert at.query_params["step"] == "1" and at.header[0].value == LESSON.steps[0].title[lang]


def test_the_first_step_opens_with_the_step_and_the_room_entry_waits_in_the_presenter_menu(lang, monkeypatch):
    """Learner trial (issue 34): step 1 opened with the presenter's box and a yellow "phones cannot come in
    (127.0.0.1:8600/join) ... LATENCY_PUBLIC_URL" warning above "1 / 10"; on a phone the step's title started
    ~900 px down. Now the progress and the step come right after the title and the lesson's one-line intro,
    the way into a room sits in the small presenter menu after the step, and no loopback warning shows
    before a room is open (the lobby says it)."""
    monkeypatch.setenv("LATENCY_PUBLIC_URL", "")  # AppTest has no browser address: as on 127.0.0.1
    at = run_page("lesson", lang, {"step": "1"})
    no_exception(at)
    assert not [w for w in at.warning if "LATENCY_PUBLIC_URL" in w.value or "/join" in w.value]
    assert not [e for e in at.error if "LATENCY_PUBLIC_URL" in e.value]
    menu = [b for b in _blocks(at.main) if getattr(b, "type", "") == "popover" and s(lang)("present_menu") in str(b.proto)]
    assert len(menu) == 1
    inside = [getattr(b, "key", None) for b in _blocks(menu[0])]
    assert "lesson_run_button" in inside, "the way into a room is in the presenter menu"
    outside = [b for b in at.button if b.key == "lesson_run_button"]
    assert len(outside) == 1  # the same one button: nowhere else on the page
    # nothing of the presenter's box comes before the step's heading
    order = [(getattr(b, "key", None), getattr(b, "type", "")) for b in _blocks(at.main)]
    header_at = next(i for i, b in enumerate(_blocks(at.main)) if getattr(b, "type", "") == "header")
    run_at = inside and next(i for i, b in enumerate(_blocks(at.main)) if getattr(b, "key", None) == "lesson_run_button")
    assert run_at > header_at, order[:run_at + 1]
    at.button(key="lesson_run_button").click().run()  # it still opens a room and its lobby
    no_exception(at)
    assert at.query_params.get("present") == ["1"] or at.query_params.get("present") == "1"


def test_a_stage_charts_table_names_its_rows_and_rounds_as_the_page_prints(lang):
    """Learner trial: step 3's table said "이 요청" in every row with raw values ("0.0299", "9.87", "0.172").
    Now a row per stage by its name, the bar's name once as the column, each time in seconds as the page
    rounds them (two significant digits) with its share, and the whole answer last. Expected times from
    `latency.estimate` called here on step 1's set-up (8B on an H100, Seoul to Tokyo)."""
    step = LESSON.steps[0]
    at = run_page("lesson", lang, {"step": "1"})
    at.session_state[f"lesson_c_{step.id}_table"] = True
    at.run()
    no_exception(at)
    by_hand = estimate(CATALOG.models["llama-3.1-8b"].model, CATALOG.hardware["h100-sxm"].hardware,
                       distance_km=step.scenario.distance_km)
    (table,) = [t for t in at.table]
    frame = table.value
    text = frame.to_string()
    stage_names = [s(lang)(f"stage_{k}") for k in ("network", "queue", "prefill", "decode")]
    index = [str(i) for i in frame.index]
    assert len(index) == 5 and index[-1] == s(lang)("total")
    assert all(name.lower() in row.lower() for name, row in zip(stage_names, index)), index  # step 1 says "주문 전달 (네트워크)"
    assert list(frame.columns) == [s(lang)("rest_row")]
    sec = lambda v: units(lang)("seconds", v=f"{v:.2g}" if v < 10 else f"{v:.0f}")  # noqa: E731
    for k, row in zip(("network", "prefill", "decode"), (index[0], index[2], index[3])):
        assert str(frame.loc[row].iloc[0]).startswith(sec(by_hand.breakdown[k])), (row, frame.loc[row].iloc[0])
    assert str(frame.loc[s(lang)("total")].iloc[0]) == sec(by_hand.total_s)
    assert "0.0299" not in text and "0.0949" not in text


def test_the_model_step_names_the_weights_format_its_405b_runs_in(lang):
    """Learner trial 2026-12-06: step 4 put the 405B model on eight H100s and the calculator, at its default
    FP16, needed sixteen; the lesson ran it in the model's own FP8 and said so nowhere. The set-up line and the
    devices note name the format, read here from the model's entry in content/models.yaml."""
    k = next(i for i, x in enumerate(LESSON.steps, 1) if x.widget == "model")
    at = run_page("lesson", lang, {"step": str(k)})
    big = max(LESSON.steps[k - 1].options, key=lambda m: CATALOG.models[m].model.params_b)
    assert at.session_state[f"lesson_w_{LESSON.steps[k - 1].id}"] == big  # the step opens on its largest model
    fmt = CATALOG.precisions[CATALOG.models[big].default_precision].label(lang)
    captions = [c.value for c in at.caption]
    named = [c for c in captions if fmt in c]
    assert len(named) >= 2, captions  # the devices note and the set-up line
