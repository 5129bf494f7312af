"""The launch review (issue 33; the six questions of issue 31 and three of issue 33), walked as a PM
walks it: a fresh launch check, the inputs changed with the widgets (never by editing a URL), the
side-by-side tab and the "what to change" links followed by clicking them. Each question counts the
page loads (a view: opening the page, or following a link) and must be answered within three.
The answers on screen are checked against `latency.exploring.launch.check` of the same set-up."""

from __future__ import annotations

import urllib.parse

import pytest

from latency.estimation.catalog import load_catalog
from latency.exploring import explorer, launch
from latency.language import formats, i18n
from tests.conftest import run_page

CAT = load_catalog()
DATA = explorer.load("en")
DEFAULT = dict(DATA.default)
MAX_VIEWS = 3


class Walk:
    """A PM on the launch check: `views` counts page loads."""

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.s = i18n.strings("launch", lang)
        self.f = formats.get(lang)
        self.views = 0
        self.at = self.open({})

    def open(self, query: dict):
        self.views += 1
        at = run_page("launch", self.lang, query)
        assert not at.exception, at.exception[0].value
        self.at = at
        return at

    def set(self, **values):
        for key, value in values.items():
            widget = next(w for kind in ("selectbox", "number_input") for w in getattr(self.at, kind) if w.key == key)
            widget.set_value(value).run()
            assert not self.at.exception, (key, self.at.exception[0].value)
        return self

    def metric(self, key: str) -> str:
        return next(m.value for m in self.at.metric if m.label == self.s(key))

    def values(self) -> dict:
        return {k: self.at.session_state[k] for k in DEFAULT if k in self.at.session_state}

    def suggestions(self) -> list:
        return [p for p in self.at.get("page_link") if p.proto.page.endswith("launch") and p.proto.label[:1].isdigit()]

    def follow(self, link):
        query = dict(urllib.parse.parse_qsl(link.proto.query_string))
        query.pop("lang", None)
        return self.open(query)

    def text(self) -> str:
        parts = [m.value for m in self.at.markdown] + [c.value for c in self.at.caption]
        parts += [a.value for kind in ("success", "warning", "error") for a in getattr(self.at, kind)]
        return "\n".join(parts)


def check_of(walk: Walk):
    return launch.check(CAT, walk.values())


def test_q1_first_token_from_seoul_to_us_west():
    w = Walk()
    w.set(users_place="seoul", server_place="san_francisco")
    c = check_of(w)
    assert c.values["distance_km"] == 9029.0
    assert w.metric("m_ttft") == w.f.seconds(c.ttft_s) and w.metric("m_p95") == w.f.seconds(c.p95_ttft_s)
    assert w.views <= MAX_VIEWS


def test_q2_largest_model_for_a_02_s_autocomplete():
    """Start from a model too big; 'what to change' offers the largest smaller model that passes, named as a quality trade."""
    w = Walk()
    w.set(model_size_b=405.0, budget_s=0.2, measure="ttft")
    assert w.at.error  # fails
    links = [p for p in w.suggestions() if w.s("lever_smaller_model") in p.proto.label]
    assert links and w.s("quality_size") in w.text()
    w.follow(links[0])
    assert w.at.success and w.at.session_state["model_size_b"] < 405.0
    bigger = [s for s in DATA.sizes if w.at.session_state["model_size_b"] < s < 405.0]
    assert all(not launch.check(CAT, {**w.values(), "model_size_b": s}, False).passes for s in bigger[:5])
    assert w.views <= MAX_VIEWS


def test_q3_thirty_two_users_on_one_gpu():
    w = Walk()
    w.set(concurrency=32, devices=1)
    c = check_of(w)
    assert w.metric("m_users") in (w.f.count(c.max_users, "users"), w.s("at_least", v=f"{c.max_users:,}"))
    assert w.metric("m_tps") == formats.number(c.tps_user)
    assert w.views <= MAX_VIEWS


def test_q4_seventy_b_in_int4_against_fp8_side_by_side():
    w = Walk()
    w.set(model_size_b=70.6, precision="fp8")
    w.at.session_state["launch_tab"] = w.s("tab_compare")
    w.at.run()
    w.at.button(key="launch_keep_b").click().run()
    w.set(precision="int4_awq")
    a, b = launch.check(CAT, w.values()), launch.check(CAT, {**w.values(), "precision": "fp8"})
    d = launch.difference(a, b)
    said = w.s("diff_sooner" if d.time_delta_s < 0 else "diff_later", dt=w.f.seconds(abs(d.time_delta_s)), measure=w.s("measure_ttft"))
    assert any(said in m.value for m in w.at.markdown)  # the difference in words
    assert len(w.at.metric) == 3 * 9
    assert w.views <= MAX_VIEWS


def test_q5_big_models_are_always_slow():
    """8B against 405B side by side: the first token differs by a fraction of a second, the whole answer and the cost do not."""
    w = Walk()
    w.at.session_state["launch_tab"] = w.s("tab_compare")
    w.at.run()
    w.at.button(key="launch_keep_b").click().run()
    w.set(model_size_b=405.0)
    a, b = launch.check(CAT, {**w.values()}), launch.check(CAT, {**DEFAULT})
    d = launch.difference(a, b)
    assert d.time_delta_s < 0 and d.cost_ratio < 1  # B (8B) is sooner and cheaper
    assert w.s("differs_mark") in w.text()
    assert w.views <= MAX_VIEWS


def test_q6_a_loop_model():
    w = Walk()
    w.set(arch="looped", model_size_b=39.8)
    c = check_of(w)
    assert w.metric("m_total") == w.f.seconds(c.total_s)
    assert w.views <= MAX_VIEWS


def test_q7_fifty_users_on_two_h100s_with_5000_token_prompts():
    w = Walk()
    w.set(model_size_b=70.6, precision="fp8", devices=2, concurrency=50, prompt_tokens=5000)
    c = check_of(w)
    assert not c.passes and (w.at.error or w.at.warning)  # fails, or borderline
    assert w.metric("m_p95") == w.f.seconds(c.p95_ttft_s)
    links = w.suggestions()
    assert links
    w.follow(links[0])  # the cheapest change that passes
    assert w.at.success
    assert w.views <= MAX_VIEWS


def test_q8_a_60000_token_contract():
    w = Walk()
    w.set(document_tokens=60000)
    c = check_of(w)
    assert c.dominant == "prefill" and not c.passes
    assert i18n.strings("estimator", "en")("stage_prefill") in w.text()
    w.follow(w.suggestions()[0])
    assert w.at.success
    assert w.views <= MAX_VIEWS


def test_q9_the_cheapest_02_s_autocomplete_for_seoul():
    """The set-up passes; 'what to change' lists only cheaper set-ups that still pass, cheapest first, and
    never a model below the PM's minimum size."""
    w = Walk()
    w.set(budget_s=0.2, measure="ttft", server_place="seoul", min_model_b=8.03)
    base = check_of(w)
    assert base.passes
    links = w.suggestions()
    assert links
    w.follow(links[0])
    cheaper = check_of(w)
    assert cheaper.passes and cheaper.monthly_usd < base.monthly_usd and cheaper.values["model_size_b"] >= 8.03
    assert w.views <= MAX_VIEWS
