"""The glossary start page (`/`) in AppTest: a broken term file is named on every visit, unknown URL
keys are named and dropped, the page leads into the lesson and the estimator."""

from __future__ import annotations

import html
import pickle
import re
import shutil
from pathlib import Path

import pytest

from latency.language.errors import ContentError
from latency.teaching import content, glossary
from tests.conftest import DEFAULT_PAGE, run_page


@pytest.fixture
def terms(tmp_path, monkeypatch) -> Path:
    """The pages read a private copy of content/terms."""
    for file in content.TERMS_DIR.glob("*.yaml"):
        shutil.copy(file, tmp_path / file.name)
    monkeypatch.setattr(content, "TERMS_DIR", tmp_path)
    return tmp_path


def test_a_content_error_survives_a_pickle_round_trip():
    # st.cache_data pickles what a cached function returns; the glossary index carries errors
    err = ContentError("content/terms/x.ko.yaml", "summary.heading", "expected text")
    back = pickle.loads(pickle.dumps(err))
    assert (back.file, back.path, back.problem, str(back)) == (err.file, err.path, err.problem, str(err))


def test_the_index_problems_are_plain_data(terms):
    file = terms / "inference-latency.ko.yaml"
    file.write_text("title: [\n", encoding="utf-8")
    _, problems = glossary.index(terms, ("ko", "en"))
    assert problems and all(isinstance(p, ContentError) for p in problems)
    assert [str(p) for p in pickle.loads(pickle.dumps(problems))] == [str(p) for p in problems]


@pytest.mark.parametrize("broken", ["ko", "en"])
def test_a_broken_term_file_is_named_on_every_visit(terms, broken):
    file = terms / f"inference-latency.{broken}.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace('heading: "', "heading: no #", 1), encoding="utf-8")
    for visit in (1, 2):  # the second visit reads the index from st.cache_data
        at = run_page(DEFAULT_PAGE, broken)
        assert not at.exception, (visit, at.exception)
        assert any(file.name in e.value and "summary.heading" in e.value for e in at.error), (visit, [e.value for e in at.error])


@pytest.mark.parametrize("page", [DEFAULT_PAGE, "learn"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_an_unknown_url_key_is_named_and_dropped(page, lang):
    at = run_page(page, lang, {"foo": "bar"})
    assert not at.exception
    assert any("foo" in w.value and "bar" in w.value for w in at.warning), [w.value for w in at.warning]
    assert "foo" not in at.query_params
    assert at.query_params["lang"] == [lang] or at.query_params["lang"] == lang


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_start_page_is_a_front_door(lang):
    """Issue 34 item 3: one sentence on what the app teaches, three real buttons (the lesson, the calculator, a
    10-second "feel it"), the glossary list below them."""
    from latency.language.i18n import strings

    s = strings("glossary", lang)
    at = run_page(DEFAULT_PAGE, lang)
    assert not at.exception
    assert at.title[0].value == s("title") and at.markdown[0].value == s("pitch")
    assert len(re.findall(r"[.!?。]", s("pitch"))) == 1  # one sentence
    buttons = [b.key for b in at.button if b.key and b.key.startswith("start_")]
    assert buttons[:3] == ["start_lesson", "start_estimator", "start_feel"], buttons
    assert at.button(key="start_lesson").proto.type == "primary"
    terms = [link for link in at.get("page_link") if link.proto.page == "learn"]
    assert len(terms) == len(glossary.index(content.TERMS_DIR, ("ko", "en"))[0])
    assert at.header[0].value == s("terms_heading")  # the glossary after the doors
    if lang == "en":  # English has no Hangul (the terms' Korean names stay on the Korean page)
        from tests.conftest import all_text
        doors = " ".join(b.label for b in at.button if b.key and b.key.startswith("start_"))  # not the "한국어" switch
        assert not re.findall(r"[\uac00-\ud7a3]", all_text(at) + doors)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("door,page", [("start_lesson", "lesson"), ("start_estimator", "estimator")])
def test_the_doors_open_their_pages_in_the_same_language(lang, door, page):
    at = run_page(DEFAULT_PAGE, lang)
    at.button(key=door).click().run()
    assert not at.exception
    assert at.query_params.get("lang") in (lang, [lang])
    assert any(getattr(t, "value", "") for t in at.title)
    assert at.title[0].value != __import__("latency.language.i18n", fromlist=["strings"]).strings("glossary", lang)("title"), page


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_feel_it_plays_0_2_s_against_3_s_at_the_default_set_ups_pace(lang, monkeypatch):
    """The race: two answers side by side, the same text at the same pace (the calculator's default set-up,
    named beside them), one starting after 0.2 s, the other after 3 s; both finish and say what they took."""
    from latency.estimation import scenario
    from latency.estimation.catalog import load_catalog
    from latency.language import formats
    from latency.language.i18n import strings
    from latency.teaching import claims, feel
    from tests.helpers import FakeClock

    import threading
    import time

    clock, real_sleep, real_clock = FakeClock(), time.sleep, time.monotonic
    in_script = lambda fake, real: lambda *a: (real if threading.current_thread() is threading.main_thread() else fake)(*a)  # noqa: E731
    monkeypatch.setattr("time.sleep", in_script(clock.sleep, real_sleep))
    monkeypatch.setattr("time.monotonic", in_script(clock, real_clock))
    at = run_page(DEFAULT_PAGE, lang, timeout=60)
    at.button(key="start_feel").click().run(timeout=60)
    assert not at.exception, at.exception
    s, f = strings("glossary", lang), formats.get(lang)
    text = "\n".join(str(m.value) for m in [*at.markdown, *at.caption])
    assert s("feel_fast") in text and s("feel_slow") in text
    catalog = load_catalog()
    est = scenario.evaluate(catalog, claims.full_values(catalog, {}))[2]
    assert formats.number(est.decode_tokens_per_s, 3) in text
    assert f.seconds(0.2) in text and f.seconds(3.0) in text
    # learner trial: "첫 토큰까지 0.2초" read as the default set-up's figure (the lesson gives 0.13초), and "8.03B 모델"
    # where the lesson says "Llama 3.1 8B": the set-up's own first token and the model's name stand beside the race
    (setup,) = [c.value for c in at.caption if s("feel_setup", model="M", chip="C", km="K", tps="T", ttft="X", fast="F",
                                                 slow="S").split("M")[0][:8] in c.value]
    assert f.seconds(est.ttft_s) in setup and "Llama 3.1 8B" in setup and "8.03B" not in setup, setup
    done = [h.value for h in at.get("html") if 'role="status"' in h.value]
    assert len(done) == 2, done  # both answers finished and said what they took
    # learner trial: the "3초 뒤 시작" lane reported "첫 토큰까지 3.2초" and the two lanes wrote the same answer at
    # the same speed in 1.6 s and 1.8 s (the wall clock of a busy server). Each lane reports its own wait, and
    # both the same writing time: (tokens - 1) / speed, computed here from the sample and the estimate.
    sample = feel.load_samples()[lang]
    n = len(feel.split_tokens(sample.answer, sample.chars_per_token))
    write = (n - 1) / est.decode_tokens_per_s
    for lane, wait, line in ((s("feel_fast"), 0.2, done[0]), (s("feel_slow"), 3.0, done[1])):
        said = s("feel_race_done", lane=lane, ttft=f.seconds(wait), write=f.seconds(write), total=f.seconds(wait + write))
        assert html.escape(said, quote=False) in line or said in line, (said, line)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_feel_it_without_animation_plays_nothing_and_says_both_waits(lang, monkeypatch):
    """Reduced motion: the same race as text, nothing played (no sleep), both waits and times said."""
    import threading
    import time

    from latency.language import formats
    from latency.language.i18n import strings
    from tests.helpers import FakeClock

    clock, real_sleep, real_clock = FakeClock(), time.sleep, time.monotonic
    in_script = lambda fake, real: lambda *a: (real if threading.current_thread() is threading.main_thread() else fake)(*a)  # noqa: E731
    monkeypatch.setattr("time.sleep", in_script(clock.sleep, real_sleep))
    monkeypatch.setattr("time.monotonic", in_script(clock, real_clock))
    at = run_page(DEFAULT_PAGE, lang)
    at.toggle(key="start_feel_still").set_value(True).run()
    at.button(key="start_feel").click().run()
    assert not at.exception
    assert clock.sleeps == [], "nothing is played"
    s, f = strings("glossary", lang), formats.get(lang)
    said = [h.value for h in at.get("html") if 'role="status"' in h.value]
    first = s("feel_still_done", ttft="X", total="Y").split("X")[0]
    assert len(said) == 2 and f.seconds(0.2) in said[0] and f.seconds(3.0) in said[1] and all(first in x for x in said)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_calculator_door_opens_the_default_set_up_whatever_was_left_there(lang):
    """Learner trial: after a glossary card's "try it" (an iPhone, 0 km), the start page's "계산기로 내 서비스
    추정하기" opened on those leftovers, not the default set-up the page names."""
    from latency.estimation import scenario

    at = run_page(DEFAULT_PAGE, lang)
    at.session_state["model_size_b"] = 1.24  # what an earlier visit left in the session
    at.button(key="start_estimator").click().run(timeout=60)
    assert not at.exception, at.exception
    q = {k: v if isinstance(v, str) else v[0] for k, v in at.query_params.items()}
    assert float(q["model_size_b"]) == scenario.DEFAULTS["model_size_b"] and float(q["distance_km"]) == 1149, q


def test_the_start_page_shows_the_way_in_for_logs_and_for_a_presenter_at_its_top(lang):
    """Newcomer trials 2026-12-05: a presenter scrolled past the whole glossary for "run a session", and a PM with
    logs found their page only in the side menu. Both ways in stand under the start page's doors, before the
    glossary; the presenter's line leads to the room section at the page's end."""
    from tests.conftest import run_page
    from latency.language import i18n
    from ui import room_join

    at = run_page("", lang)
    s = i18n.strings("glossary", lang)
    logs = [link for link in at.get("page_link") if link.proto.label == s("start_logs")]
    assert logs and logs[0].proto.page.endswith("logs")
    assert s("start_logs") == i18n.strings("common", lang)("nav_logs")  # the page's own name
    top = [m.value for m in at.markdown]
    line = f"[{s('start_present')}](#{room_join.START_ROOM_ANCHOR})"
    assert line in top and top.index(line) < 3, top[:4]  # under the doors: the pitch, then this line
    assert any(f'id="{room_join.START_ROOM_ANCHOR}"' in str(h.proto.body) for h in at.get("html"))
