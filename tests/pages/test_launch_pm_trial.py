"""What a fresh PM tripped on in the launch check (/work/notes/PM_TRIAL.md, items 2, 3, 4, 5, 9, 11, 12, 14,
16), each held on the page in both languages. Expected figures come from `latency.estimate` called
directly (tests/exploring/test_launch.py's `direct`) and from hand arithmetic, never from
latency.exploring.launch, which the page calls."""

from __future__ import annotations

import re

import math
import urllib.parse

import pytest

from latency.estimation import places, scenario
from latency.estimation.catalog import load_catalog
from latency.exploring import explorer
from latency.language import formats, i18n
from tests.conftest import all_text, run_page
from tests.exploring.test_launch import busy_setup, direct, p95_high, within

CAT = load_catalog()
DATA = explorer.load("en")
PLACES = places.load_places()
DEFAULT = dict(DATA.default)
H100 = CAT.hardware["h100-sxm"].price_usd_per_hour
FIFTY = dict(DEFAULT, model_size_b=70.6, devices=2, precision="fp8", concurrency=50, prompt_tokens=5000)
# The PM's set-up with more users than one server of 8 H100s holds (50 did until the all-reduce ran at its
# measured rate, round 4's fifteenth pass): meeting the target takes several servers.
MANY = dict(FIFTY, concurrency=120)
"""Issue 33's fifty users of a 70B model on two H100s: one server is not enough for the target."""
BUSY = busy_setup()
"""Many users at once in steady use (found by busy_setup): the typical first token's range is within 1 s, the 95% figure's is not."""
LONG_DOC = dict(DEFAULT, document_tokens=45000)
"""A first token of about 2 s against a 1 s target: the launch check fails it."""


def rounding_setup() -> dict:
    """A long document whose first token misses the 1 s target by a margin that prints differently
    from the difference of the printed figures (1.35 s prints "1.4 s": the margin must print as
    0.4 s, not 0.35 s). Found with latency.estimate, so a refit of the estimator moves the document,
    not the test."""
    f = formats.get("en")
    for tokens in range(30000, 80001, 500):
        e = direct(dict(DEFAULT, document_tokens=tokens))
        printed = float(formats.seconds_number(e.ttft_s))
        # a clear failure (even the fast end of the range is over the target), so the page says so
        if e.ranges["ttft_s"][0] > 1.1 and e.ttft_s < 4.0 and f.seconds(e.ttft_s - 1.0) != f.seconds(printed - 1.0):
            return dict(DEFAULT, document_tokens=tokens)
    raise AssertionError("no document length whose margin rounds differently")
LANGS = ("ko", "en")


def page(lang: str, values: dict | None = None, **extra):
    query = {k: str(v) for k, v in scenario.to_query(values).items()} if values else {}
    at = run_page("launch", lang, {**query, **{k: str(v) for k, v in extra.items()}})
    assert not at.exception, at.exception[0].value
    return at


def strings(lang: str):
    return i18n.strings("launch", lang), i18n.strings("estimator", lang), formats.get(lang)


def metric(at, label: str):
    return next(m for m in at.metric if m.label == label)


def servers_for_traffic(values: dict) -> int:
    """Servers the day's requests need, by hand: requests / (86,400 s x answers served together / busy seconds each)."""
    e = direct(values)
    per_day = 86400.0 * e.running_batch / (e.breakdown["prefill"] + e.breakdown["decode"])
    return max(math.ceil(values["requests_per_day"] / per_day), 1)


# --- item 2: the monthly cost is the set-up as entered; what passing takes is its own figure ----------------

@pytest.mark.parametrize("lang", LANGS)
def test_cost_per_month_is_the_set_up_as_entered_and_meeting_the_target_is_its_own_figure(lang):
    s, _, f = strings(lang)
    at = page(lang, MANY)
    entered = servers_for_traffic(MANY) * 2 * H100 * 730.0  # the 2 H100s entered, kept on for 730 h
    assert metric(at, s("m_monthly")).value == f.usd(entered)
    to_pass = metric(at, s("m_pass_cost"))
    assert to_pass.value != f.usd(entered)
    # what passing takes: as many servers of 2 H100s as keep 120 users within the target (the metric's small print)
    # what passing takes: servers of some device count per server (the cheapest: test_cost_to_meet_the_target_...)
    servers, per = (int(x.split()[0].replace(",", "")) for x in to_pass.proto.delta.split(" × ")) if lang == "en" else (None, None)
    if servers is not None:
        assert servers > 1 and to_pass.value == f.usd(servers * per * H100 * 730.0)


@pytest.mark.parametrize("lang", LANGS)
def test_side_by_side_compares_the_two_set_ups_as_entered(lang):
    """The PM's B used the same 2 H100s as A and was said to cost 12% as much: both as entered cost the same."""
    s, _, f = strings(lang)
    b = dict(FIFTY, concurrency=5)
    at = page(lang, FIFTY, view="compare", b=urllib.parse.urlencode(scenario.to_query(b)))
    same_cost = servers_for_traffic(FIFTY) == servers_for_traffic(b)
    assert same_cost  # the same 2 H100s and the same requests a day
    (said,) = [m.value for m in at.markdown if s("diff_cost_same") in m.value]     # one sentence says it
    assert "%" not in said                                                           # no "12% as much"
    # what meeting the target takes, A's and B's, in a sentence of its own
    assert s("diff_pass_costs", a="", b="")[:6] in said


# --- item 3: never "Passes" while the 95% figure's range goes past the target ------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_no_pass_while_the_95_percent_figure_misses_and_the_rule_is_said(lang):
    s, _, f = strings(lang)
    e = direct(BUSY)
    assert formats.seconds_value(e.ranges["ttft_s"][1]) <= 1.0            # the typical range is within ...
    assert formats.seconds_value(p95_high(BUSY)) > 1.0                     # ... the 95% figure's is not
    at = page(lang, BUSY)
    assert not at.success
    (warning,) = [w.value for w in at.warning]
    assert warning.startswith(s("verdict_borderline_p95", measure="", value="", range="", budget="", p95="", p95_range="")[:4])
    assert f.seconds(p95_high(BUSY)) in warning                            # the 95% figure's top end is named
    assert s("verdict_rule") in [c.value for c in at.caption]
    # and the default set-up, whose 95% figure is within, still passes, with the rule under it
    at = page(lang)
    assert at.success and s("verdict_rule") in [c.value for c in at.caption]


# --- item 4: the delay from other users, one quantity with one name ----------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_delay_from_other_users_is_named_apart_from_the_queue_stage_and_adds_up(lang):
    s, es, f = strings(lang)
    e, alone = direct(BUSY), direct(dict(BUSY, concurrency=1))
    delay = e.ttft_s - alone.ttft_s
    queue = e.breakdown["queue"]
    # what the sentence says the delay is made of: the queue stage and a longer prefill (one user: no queue)
    assert alone.breakdown["queue"] == 0.0
    assert delay == pytest.approx(queue + e.breakdown["prefill"] - alone.breakdown["prefill"], abs=1e-12)
    at = page(lang, BUSY)
    text = all_text(at)
    shown = [formats.seconds_number(x) for x in (delay, alone.ttft_s, queue, delay - queue)]
    with_unit = [f.seconds(1.0).replace("1", digits, 1) for digits in shown]  # "0.089 s", as the page prints them
    for piece in with_unit:
        assert piece in text
    assert es("stage_queue") in text and es("stage_prefill") in text
    assert "mean wait" not in text and "평균 기다림" not in text


# --- item 5: the margin agrees with the figures at the printed rounding -------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_margin_is_the_difference_of_the_printed_figures(lang):
    s, _, f = strings(lang)
    long_doc = rounding_setup()
    e = direct(long_doc)
    printed = float(formats.seconds_number(e.ttft_s))
    assert f.seconds(e.ttft_s - 1.0) != f.seconds(printed - 1.0)
    at = page(lang, long_doc)
    (error,) = [x.value for x in at.error]
    assert f"{f.seconds(e.ttft_s)}" in error and f.seconds(printed - 1.0) in error      # "1.4 s ... 0.4 s over"
    assert f.seconds(e.ttft_s - 1.0) not in error                                      # not "0.35 s over"


# --- item 9: levers fit the target's measure; the whole answer is named when a lever slows it ---------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_first_token_target_gets_no_decode_only_levers_and_the_slower_whole_answer_is_named(lang):
    s, _, f = strings(lang)
    at = page(lang, view="change")
    text = all_text(at)
    assert s("lever_skip_first_token", lever=s("lever_shorter_answers")) in text
    assert s("lever_skip_first_token", lever=s("lever_speculative")) in text
    # the cheaper L4 meets the first-token target, and its whole answer is far slower: said in its line
    links = {p.proto.label: p.proto.query_string for p in at.get("page_link") if p.proto.label[:1].isdigit()}
    (query,) = [q for q in links.values() if "hardware=l4" in q]
    counts = re.findall(r"(?:^|&)devices=([^&]+)", query)  # the count the link opens (the lever tries each)
    l4_setup = dict(DEFAULT, hardware="l4", **({"devices": int(counts[0])} if counts and counts[0].isdigit() else {}))
    base, l4 = direct(DEFAULT), direct(l4_setup)
    assert l4.total_s > 1.25 * base.total_s
    note = s("lever_total_slower", before=f.seconds(base.total_s), after=f.seconds(l4.total_s)).rstrip(".")
    assert any(note in label for label in links), links


def test_a_whole_answer_target_still_gets_shorter_answers():
    s, _, _ = strings("en")
    at = page("en", dict(DEFAULT, measure="total", budget_s=2.0, output_tokens=1000), view="change")
    assert s("lever_skip_first_token", lever=s("lever_shorter_answers")) not in all_text(at)


# --- item 11: words a PM had to guess ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_cost_limit_says_what_0_means_and_the_arrival_options_do_not_reuse_at_once(lang):
    s, _, _ = strings(lang)
    at = page(lang)
    limit = next(w for w in at.number_input if w.key == "monthly_budget_usd")
    assert "0 =" in limit.label
    arrival = next(w for w in at.selectbox if w.key == "arrival")
    users = next(w for w in at.number_input if w.key == "concurrency")
    assert users.label == s("in_concurrency")
    at_once = "at once" if lang == "en" else "동시"
    assert at_once in users.label and not any(at_once in o for o in arrival.options)


# --- item 12: 70B reachable without typing ------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_seventy_b_is_among_the_first_options_of_the_model_size_list(lang):
    at = page(lang)
    box = next(w for w in at.selectbox if w.key == "model_size_b")
    assert box.options.index("Llama 3.1 70B") < 5, box.options[:8]  # a drop-down shows the first five without scrolling
    assert "Llama 3.1 405B" in box.options[:5]


# --- item 14: verdict and figures before the 25 inputs --------------------------------------------------------

def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


@pytest.mark.parametrize("lang", LANGS)
def test_the_verdict_and_the_figures_come_before_the_inputs(lang):
    at = page(lang)
    order = [type(n).__name__ for n in _walk(at.main)]
    first_input = min(order.index(k) for k in ("Selectbox", "NumberInput") if k in order)
    assert order.index("Success") < first_input
    assert order.index("Metric") < first_input and order.count("Metric") == 9
    assert all(i < first_input for i, k in enumerate(order) if k == "Metric")


# --- item 16: the export carries B, the difference and what to change ----------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_markdown_export_carries_b_the_difference_and_what_to_change(lang):
    from latency.exploring import launch
    from ui import launch_export, launch_view, scenario_inputs
    s, es, f = strings(lang)
    data = explorer.load(lang)
    w = launch_view.Words(s, es, f, data, PLACES, scenario_inputs.all_option_texts(es, data, f, lang), lang)
    a_values, b_values = dict(LONG_DOC), dict(DEFAULT)
    a = launch.check(CAT, a_values)
    text = launch_view.summary_markdown(w, a, "http://example.test/launch",
                                        launch_export.sections(w, a, a_values, b_values, lambda v, search_users=True:
                                                               launch.check(CAT, v, search_users=search_users), PLACES))
    assert f"## {s('export_b_heading')}" in text and f"## {s('export_diff_heading')}" in text
    assert f"## {s('export_change_heading')}" in text
    b = direct(b_values)
    assert f.seconds(b.ttft_s) in text.split(f"## {s('export_b_heading')}")[1]       # B's first token, from the estimator
    dt = direct(a_values).ttft_s - b.ttft_s                                   # B is sooner by this much
    assert f.seconds(dt) in text.split(f"## {s('export_diff_heading')}")[1]
    change = text.split(f"## {s('export_change_heading')}")[1]
    assert change.count("\n1. ") == 1 and "- 1." not in change                # the suggestions, a numbered list
    # the PNG carries them too and stays one A4 page (1240 x 1754 at 150 dpi)
    import io

    from PIL import Image
    extra = launch_export.sections(w, a, a_values, b_values, lambda v, search_users=True:
                                   launch.check(CAT, v, search_users=search_users), PLACES)
    img = Image.open(io.BytesIO(launch_view.summary_png(w, a, "http://example.test/launch", extra)))
    assert img.width == 1240 and img.height < 1754
    # a passing A with no B adds nothing
    ok = launch.check(CAT, DEFAULT)
    plain = launch_view.summary_markdown(w, ok, "x", launch_export.sections(w, ok, DEFAULT, None, None, PLACES))
    assert s("export_b_heading") not in plain and s("export_change_heading") not in plain


# --- round 2, item 1: meeting the target is the cheapest plan the app knows (devices per server x servers) ----

from tests.exploring.test_launch import passes_rule  # noqa: E402


def most_users_by_hand(values: dict) -> int:
    """The most users at once one server keeps within the target by the page's rule, by bisection with
    latency.estimate (tests/exploring/test_launch.py's `passes_rule`); 0 when not even one."""
    if not passes_rule(values, users=1):
        return 0
    lo, hi = 1, scenario.CONCURRENCY_MAX
    if passes_rule(values, users=hi):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if passes_rule(values, users=mid) else (lo, mid)
    return lo


def cheapest_by_hand(values: dict) -> tuple[float, int, int]:
    """(monthly cost, servers, devices per server): every device count the H100 allows, each with the servers
    the users at once and the day's requests need, kept on 730 h at the catalog's price."""
    out = []
    for n in (1, 2, 4, 8, 16, 32, 64):
        v = dict(values, devices=n)
        try:
            if not direct(v).fits:
                continue
        except ValueError:
            continue
        most = most_users_by_hand(v)
        if most < 1:
            continue
        servers = max(math.ceil(v["concurrency"] / most), servers_for_traffic(v), 1)
        out.append((servers * n * H100 * 730.0, servers, n))
    return min(out)


@pytest.mark.parametrize("lang", LANGS)
def test_cost_to_meet_the_target_searches_devices_per_server_with_servers(lang):
    s, _, f = strings(lang)
    two, eight = page(lang, FIFTY), page(lang, dict(FIFTY, devices=8))
    cost, servers, per = cheapest_by_hand(FIFTY)
    entered_two = math.ceil(50 / most_users_by_hand(FIFTY)) * 2 * H100 * 730.0
    assert cost < entered_two                          # 2 devices per server is not the cheapest way
    for at in (two, eight):                            # the same figure, whichever device count is entered
        m = metric(at, s("m_pass_cost"))
        assert m.value == f.usd(cost)
        assert s("m_pass_cost_small", servers=s("servers_one" if servers == 1 else "servers", n=f"{servers:,}"),
                 per=f.count(per, "devices")) == m.proto.delta
    # the page says which way it found it, and what the entered 2 devices per server would take
    text = all_text(two).replace("\\$", "$")
    assert f.usd(entered_two) in text
    assert s("devices_plan", hardware=CAT.hardware["h100-sxm"].label(lang), most=f.count(64, "devices"),
             servers=s("servers_one" if servers == 1 else "servers", n=f"{servers:,}"), per=f.count(per, "devices"),
             cost=f.usd(cost)) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_users_line_says_the_rule_behind_the_counts(lang):
    s, _, f = strings(lang)
    text = all_text(page(lang, FIFTY))
    most2, most8 = most_users_by_hand(FIFTY), most_users_by_hand(dict(FIFTY, devices=8))
    assert most2 < most8
    assert s("users_most", most=f.count(most2, "users"), per=f.count(2, "devices"), budget=f.seconds(1.0)) in text
    assert s("users_plan", per=f.count(8, "devices"), most=f.count(most8, "users")) in text


@pytest.mark.parametrize("lang", LANGS)
def test_what_to_change_offers_more_servers_with_the_device_count(lang):
    s, _, f = strings(lang)
    at = page(lang, MANY, view="change")
    cost, servers, per = cheapest_by_hand(MANY)
    links = [p for p in at.get("page_link") if s("lever_servers") in p.proto.label]
    assert len(links) == 1, [p.proto.label for p in at.get("page_link")]
    label = links[0].proto.label.replace("\\$", "$")
    assert f.count(per, "devices") in label and f.usd(cost) in label
    assert s("servers_one" if servers == 1 else "servers", n=f"{servers:,}") in label
    assert f"devices={per}" in links[0].proto.query_string


# --- round 2, item 2: one verdict word per rule across the three pages; each page names its rule -------------

def typical_kind(values: dict) -> str:
    """The estimator's and trade-off page's rule, by hand from latency.estimate: the typical figure's range as
    printed within the target ("within"), straddling it ("borderline"), or over it even at its low end."""
    e = direct(values)
    lo, hi = (formats.seconds_value(x) for x in e.ranges["ttft_s" if values["measure"] == "ttft" else "total_s"])
    b = values["budget_s"]
    return "within" if hi <= b else ("over" if lo > b else "borderline")


def launch_kind(values: dict) -> str:
    """The launch check's rule, by hand: fails when the typical figure is over; passes when the 95%-of-users
    figure's range, as printed, is within; borderline in between."""
    kind = typical_kind(values)
    if kind == "over":
        return "over"
    return "within" if kind == "within" and formats.seconds_value(p95_high(values)) <= values["budget_s"] else "borderline"


VERDICT_SETUPS = [dict(FIFTY), dict(FIFTY, devices=8), dict(FIFTY, model_size_b=43.0, concurrency=1),
                  dict(FIFTY, devices=1), dict(DEFAULT), dict(DEFAULT, concurrency=20)]
ALERT = {"within": "success", "borderline": "warning", "over": "error"}
BORDERLINE_WORD = {"ko": "아슬아슬", "en": "orderline"}


def alert_kind(at, marker: str) -> str:
    """The kind of the one alert whose text holds `marker` (the page's rule)."""
    found = [k for k, kind in (("within", "success"), ("borderline", "warning"), ("over", "error"))
             for el in getattr(at, kind) if marker in str(el.value)]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("i", range(len(VERDICT_SETUPS)))
def test_each_page_s_verdict_word_follows_its_named_rule(lang, i):
    v = VERDICT_SETUPS[i]
    query = {k: str(x) for k, x in scenario.to_query(v).items()}
    expected = {"estimator": typical_kind(v), "tradeoffs": typical_kind(v), "launch": launch_kind(v)}
    for name, expect in expected.items():
        at = run_page(name, lang, query)
        assert not at.exception, at.exception[0].value
        rule = i18n.strings(name, lang)("verdict_rule")
        if name == "launch":
            rule = i18n.strings("launch", lang)(f"verdict_{'pass' if expect == 'within' else 'fail' if expect == 'over' else 'borderline'}").split(":")[0]
        kind = alert_kind(at, rule)
        assert kind == expect, (name, v, kind, expect)
        texts = [str(el.value) for el in getattr(at, ALERT[kind]) if rule in str(el.value)]
        assert (BORDERLINE_WORD[lang] in texts[0]) == (kind == "borderline"), (name, texts)
        if name != "launch":  # the typical user's rule is named beside the verdict, the launch check's stricter one too
            assert i18n.strings(name, lang)("verdict_rule") in texts[0]


# --- round 2, item 3: a change that makes the target's figure worse is never "at best" --------------------------

@pytest.mark.parametrize("values", [FIFTY, dict(FIFTY, measure="total", budget_s=30.0, output_tokens=1000)])
def test_not_enough_levers_are_faster_than_now_and_slower_ones_are_said_to_be(values):
    from latency.exploring import levers
    key = "ttft_s" if values["measure"] == "ttft" else "total_s"
    now = getattr(direct(values), key)
    _, tried = levers.suggest(CAT, values, DATA.sizes, PLACES, [d for d in DATA.device_choices if d != "auto"])
    said = {t.lever: t.reason for t in tried if t.best is not None}
    assert "slower" in said.values()                 # FP8 -> INT4 here: its 16-bit KV cache makes it slower
    for t in tried:
        if t.best is None:
            continue
        then = getattr(direct(dict(t.best.values)), key)  # by latency.estimate, not the lever's own check
        assert (t.reason == "slower") == (then >= now), (t.lever, t.reason, then, now)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_says_a_slower_change_is_slower(lang):
    s, _, f = strings(lang)
    at = page(lang, FIFTY, view="change")
    text = all_text(at)
    assert s("lever_not_enough", lever=s("lever_precision"), change="X", result="Y").split("X")[0] not in text
    assert s("lever_slower", lever=s("lever_precision"), change="X", result="Y").split("(")[0] in text


# --- round 2, item 6: wording -----------------------------------------------------------------------------------

import re  # noqa: E402

DOUBLE_PERIOD = re.compile(r"[^.]\.\.(?!\.)")


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_ends_in_two_periods(lang):
    for values in (DEFAULT, dict(FIFTY, measure="total", budget_s=30.0, output_tokens=1000)):
        at = page(lang, values, view="change")
        labels = "\n".join(p.proto.label for p in at.get("page_link"))
        assert not DOUBLE_PERIOD.search(all_text(at) + labels), DOUBLE_PERIOD.findall(all_text(at) + labels)


@pytest.mark.parametrize("lang", LANGS)
def test_one_held_request_is_singular(lang):
    """70B FP8 on one H100 with 50 users: memory holds 1 request at a time (latency.estimate's max_concurrent_requests)."""
    v = dict(FIFTY, devices=1)
    e = direct(v)
    assert e.fits and e.max_concurrent_requests == 1
    text = all_text(run_page("estimator", lang, {k: str(x) for k, x in scenario.to_query(v).items()}))
    es = i18n.strings("estimator", lang)
    assert es("fits_on_waiting_one", users=formats.get(lang).count(50, "users"), devices=formats.get(lang).count(1, "devices"),
              held="1", all=formats.get(lang).count(e.devices_for_users, "devices")) in text
    if lang == "en":
        assert "1 of them run at once" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_durations_follow_one_rounding_rule_on_the_launch_check(lang):
    """'Prefill 0.515 s · Decode 25.340 s' was the list rule; every duration is printed as Formats.seconds prints it."""
    from ui import launch_view, scenario_inputs
    s, es, f = strings(lang)
    v = dict(FIFTY, measure="total", budget_s=30.0, output_tokens=1000)
    e = direct(v)
    data = explorer.load(lang)
    w = launch_view.Words(s, es, f, data, PLACES, scenario_inputs.all_option_texts(es, data, f, lang), lang)
    from latency.exploring import launch
    text = launch_view.summary_markdown(w, launch.check(CAT, v), "x")
    for k in ("network", "prefill", "decode"):
        assert f"{es(f'stage_{k}')} {f.seconds(e.breakdown[k])}" in text, (k, f.seconds(e.breakdown[k]))


# --- round 2, item 9: a kept B travels with the share link and the exports' "Reopen" link -------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_share_link_carries_b(lang):
    s, _, _ = strings(lang)
    b = dict(FIFTY, devices=8)
    at = page(lang, FIFTY, view="compare", b=urllib.parse.urlencode(scenario.to_query(b)))
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(shared_address(at, s)).query)
    assert "b" in query
    inner = urllib.parse.parse_qs(query["b"][0])
    assert inner["devices"] == ["8"] and inner["model_size_b"] == ["70.6"]
    assert query["devices"] == ["2"]   # A stays A
    # without a B, no b
    assert "b" not in urllib.parse.parse_qs(urllib.parse.urlsplit(shared_address(page(lang, FIFTY), s)).query)


def shared_address(at, s) -> str:
    """The address under "Link to this check", there to copy (PM try, round 4: the link only reloaded the page)."""
    (box,) = [p for p in at.get("popover") if p.proto.popover.label == s("share_link")]
    (code,) = [c for c in at.code if "/launch?" in c.value]
    assert code.value in [c.value for c in box.code]
    return code.value


# --- round 2, item 7: one name per input on the three pages ------------------------------------------------------

def widget_labels(at) -> set[str]:
    out = set()
    for kind in ("selectbox", "number_input", "slider", "select_slider", "radio", "text_input", "button_group", "toggle"):
        for el in at.get(kind):
            label = getattr(el, "label", None) or getattr(getattr(el, "proto", None), "label", None)
            if label:
                out.add(str(label))
    return out


NAMES = {"ko": {"in_hardware": "기기", "in_devices": "서버 한 대의 기기 수", "in_concurrency": "동시 사용자 수",
                "in_prompt_tokens": "사용자 질문 (토큰)"},
         "en": {"in_hardware": "Device", "in_devices": "Devices per server", "in_concurrency": "Users at once",
                "in_prompt_tokens": "User's question (tokens)"}}
OLD = {"ko": ["하드웨어", "장치 수", "동시 사용자 수 (나 포함)", "질문 길이 (토큰)"],
       "en": ["Hardware", "Devices", "Concurrent users (including you)", "Concurrent users", "Question (tokens)",
              "User's access network"]}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["launch", "estimator", "tradeoffs"])
def test_each_input_has_one_name_on_the_three_pages(lang, name):
    s = i18n.strings("launch", lang)
    assert {k: s(k) for k in NAMES[lang]} == NAMES[lang]          # the launch check's plain names, as recorded
    at = run_page(name, lang, {"view": "change"} if name == "launch" else None)
    labels = widget_labels(at)
    for label in NAMES[lang].values():
        assert label in labels, (name, label, sorted(labels))
    assert not set(OLD[lang]) & labels, (name, set(OLD[lang]) & labels)
    text = all_text(at)
    arrival = {"ko": ("각자 다른 때에", "꾸준히 사용"), "en": ("Each at their own moment", "Steady use")}[lang]
    assert arrival[1] not in text


# --- round 2, item 8: short names in the narrow boxes, the whole name in the box's help -----------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_short_box_names_its_choice_whole_in_its_help(lang):
    s, es, _ = strings(lang)
    at = page(lang, FIFTY)
    boxes = {sb.key: sb for sb in at.selectbox}
    whole = {"access": es("access_option", name=es("access_wired"), ms="X").split("X")[0],
             "connection": es("connection_warm"), "arrival": s("arrival_steady")}
    for key, name in whole.items():
        assert boxes[key].help.startswith(s("whole_choice", name=name).split("X")[0]), (key, boxes[key].help)
    # the arrival box names its choices whole, as the vocabulary does (PM try, round 4: "Spread out" in the box,
    # "Each at their own moment" in its help and on the other pages)
    assert boxes["arrival"].options == [s("arrival_steady"), s("arrival_burst")]


@pytest.mark.parametrize("lang", LANGS)
def test_a_one_server_plan_that_a_device_count_suggestion_already_opens_is_not_offered_again(lang):
    """PM try: 70.6B on two H100s for 200 users read '3. Devices (2 -> 4 per server)' and below it 'More servers
    (2 -> 4 devices per server, 1 server)': the same set-up twice, the second titled with servers it does not
    add. One link opens four devices per server, and none says more servers."""
    s, _, _ = strings(lang)
    setup = dict(DEFAULT, model_size_b=70.6, devices=2, concurrency=200, requests_per_day=50000)
    cost, servers, per = cheapest_by_hand(setup)
    assert (servers, per) == (1, 4)  # the case: one server of four devices is the cheapest way to pass
    at = page(lang, setup, view="change")
    links = [p for p in at.get("page_link") if "devices=4" in p.proto.query_string]
    assert len(links) == 1, [p.proto.label for p in at.get("page_link")]
    assert not [p for p in at.get("page_link") if s("lever_servers") in p.proto.label]
    assert s("levers_plan_heading") not in all_text(at)


@pytest.mark.parametrize("lang", LANGS)
def test_a_suggestion_borderline_by_its_95_percent_figure_says_so(lang):
    """PM try: 'H200: first token 0.32 s, range 0.21-0.75 s, borderline' against a 1 s target: the range quoted
    was the typical user's, within the target; the 95% figure's (0.36-1.3 s) is what straddles it. The typical
    figure within and the 95% figure past the target are worked out here from latency.estimate."""
    s, _, f = strings(lang)
    # 250 users: since the device lever tries each count (PM try 2026-12-05), an H200 passes the 200-user case,
    # so the borderline best attempt here is FP8's on the same two devices
    setup = dict(DEFAULT, model_size_b=70.6, devices=2, concurrency=250, requests_per_day=50000)
    fp8 = dict(setup, precision="fp8")
    e = direct(fp8)
    assert within(e, fp8) and not passes_rule(fp8)  # the case: borderline by the 95% figure alone
    at = page(lang, setup, view="change")
    lines = [line for m in at.markdown for line in m.value.split("\n") if s("lever_precision") in line and "FP8" in line]
    assert len(lines) == 1, lines
    p95_part = s.table["lever_result_borderline_p95"].split("{p95}")[1].split("{p95_range")[0]  # "의 범위 " / ", its range "
    assert p95_part in lines[0] and f.seconds(p95_high(fp8)).split("–")[-1] in lines[0], lines[0]
    typical_only = s("lever_result_borderline", measure=s("measure_ttft"), value=f.seconds(e.ttft_s),
                     range=f.range(*e.ranges["ttft_s"]), cost="")
    assert typical_only.split(f.range(*e.ranges["ttft_s"]))[0] + f.range(*e.ranges["ttft_s"]) not in lines[0]
