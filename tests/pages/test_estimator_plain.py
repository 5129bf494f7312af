"""The estimator answers a PM in plain words (issue 26, items 5 and 6): the stage list, the network
and server lines that follow the scenario, one decimal rule per list. Expected numbers come from
`latency.estimation.scenario.evaluate` (latency.estimate on the page's inputs), not from the page."""

from __future__ import annotations

import re

import pytest

from latency.estimation import places, scenario
from latency.estimation.catalog import load_catalog
from latency.language import formats
from latency.teaching import content
from tests.conftest import run_page

CATALOG = load_catalog()
DEFAULTS = scenario.defaults(places.load_stops(), {u.id: u for u in content.use_case_budgets("ko")})
STAGES = ("network", "queue", "prefill", "decode")


def stage_lines(at) -> list[str]:
    """The stage list under the timeline: the markdown block of four "- **stage** ..." lines."""
    for md in at.markdown:
        lines = [l for l in md.value.split("\n") if l.startswith("- **")]
        if len(lines) == 4:
            return lines
    raise AssertionError("no stage list on the page")


def pct(fraction: float) -> float:
    return round(fraction * 100, 1)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_stage_shares_of_first_token_beside_whole_answer(lang):
    at = run_page("estimator", lang)
    assert not at.exception
    _, _, est = scenario.evaluate(CATALOG, dict(DEFAULTS))
    lines = stage_lines(at)
    ttft = est.breakdown["network"] + est.breakdown["queue"] + est.breakdown["prefill"]
    for line, key in zip(lines, STAGES):
        shares = [float(x) for x in re.findall(r"([\d.]+)\s?%", line)]
        want_total = est.breakdown[key] / est.total_s * 100
        if key == "decode":
            assert shares == pytest.approx([want_total], rel=0.06, abs=0.06), line
        else:
            assert shares == pytest.approx([est.breakdown[key] / ttft * 100, want_total], rel=0.06, abs=0.06), line


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_one_decimal_rule_in_the_stage_list(lang):
    at = run_page("estimator", lang)
    times = [re.match(r"- \*\*[^*]+\*\* ([\d.,]+)", l).group(1) for l in stage_lines(at)]
    decimals = {len(t.split(".")[1]) if "." in t else 0 for t in times}
    assert len(decimals) == 1, times


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_network_text_follows_the_connection(lang):
    warm = stage_lines(run_page("estimator", lang, {"connection": "warm"}))[0]
    cold = stage_lines(run_page("estimator", lang, {"connection": "cold"}))[0]
    local = stage_lines(run_page("estimator", lang, {"access": "none", "distance_km": "0"}))[0]
    words = {"ko": ("다시 쓰므로", "새 연결이라", "기기 안에서"), "en": ("reused", "is new", "on the device")}[lang]
    assert words[0] in warm and words[1] not in warm
    assert words[1] in cold and words[0] not in cold
    assert words[2] in local


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_server_stage_does_not_speak_of_others_when_alone(lang):
    alone = stage_lines(run_page("estimator", lang, {"concurrency": "1"}))[1]
    crowd = stage_lines(run_page("estimator", lang, {"concurrency": "32"}))[1]
    others = {"ko": "다른 사용자의 요청이 끝나기를", "en": "waiting for other users"}[lang]
    assert others not in alone and others in crowd


def test_seconds_list_keeps_one_rule():
    assert formats.seconds_list([0.03, 0.079, 0.018, 5.2]) == ["0.030", "0.079", "0.018", "5.200"]
    assert formats.seconds_list([0.25, 1.5]) == ["0.25", "1.50"]
    assert formats.seconds_list([12, 30.4]) == ["12", "30"]
