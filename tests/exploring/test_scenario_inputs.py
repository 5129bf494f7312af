"""Inputs that do what they say (issue 31 item 4, issue 33 item 4): URL numbers out of range are clamped to
the nearest allowed value and named; the GPU-count options hold a count a link set; a use case in the URL
brings its target on both explorer pages."""

from __future__ import annotations

import pytest

from latency.estimation import places, scenario
from latency.estimation.catalog import load_catalog
from latency.teaching import content

CAT = load_catalog()
CASES = {u.id: u for u in content.use_case_budgets("en")}
DEFAULT = scenario.defaults(places.load_stops(), CASES)
SPECS = scenario.specs(CAT, DEFAULT, list(CASES))


@pytest.mark.parametrize("key,raw,used", [
    ("concurrency", "100000", scenario.CONCURRENCY_MAX),   # was the default, 1
    ("concurrency", "0", 1),
    ("devices", "65", scenario.DEVICES_MAX),
    ("distance_km", "-5", 0.0),
    ("prompt_tokens", "999999999", scenario.PROMPT_MAX),
    ("document_tokens", "200000", scenario.DOCUMENT_MAX),
    ("budget_s", "0.001", scenario.BUDGET_MIN_S),
    ("model_size_b", "1e9", 2000.0),
])
def test_out_of_range_numbers_are_clamped_to_the_nearest_allowed_value_and_named(key, raw, used):
    values, notices = scenario.parse_query({key: raw}, SPECS)
    assert values[key] == used
    (notice,) = notices
    assert (notice.key, notice.raw, notice.reason, notice.used) == (key, raw, "out_of_range", used)


@pytest.mark.parametrize("key,raw", [("concurrency", "lots"), ("concurrency", "2.5"), ("devices", "nan")])
def test_numbers_that_are_not_numbers_or_not_whole_take_the_default(key, raw):
    values, (notice,) = scenario.parse_query({key: raw}, SPECS)
    assert values[key] == SPECS[key].default == notice.used and notice.reason in ("not_a_number", "not_whole")


def test_the_gpu_count_box_holds_a_count_a_link_set():
    assert scenario.device_options() == (scenario.DEVICES_AUTO,) + scenario.DEVICE_COUNTS
    assert 3 in scenario.device_options(3) and scenario.device_options(3).count(3) == 1
    assert scenario.device_options(8) == scenario.device_options()


def test_the_trade_off_page_default_target_is_its_own_and_named():
    page = scenario.defaults(places.load_stops(), CASES, page="tradeoffs")
    case = CASES[scenario.PAGE_DEFAULTS["tradeoffs"]["use_case"]]
    assert (page["use_case"], page["budget_s"], page["measure"]) == (case.id, case.budget_s, case.measure)
    assert {k: v for k, v in page.items() if k not in ("use_case", "budget_s", "measure")} == \
        {k: v for k, v in DEFAULT.items() if k not in ("use_case", "budget_s", "measure")}
