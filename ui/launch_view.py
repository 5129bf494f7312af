"""The launch check's figures (latency.exploring.launch.Check) in words and metrics, and the one-page
summary built from the same words for the Markdown and PNG exports. Every number comes from the
`Check`, i.e. from `scenario.evaluate` with the inputs on screen."""

from __future__ import annotations

import math
import urllib.parse
from typing import Any, Mapping, Sequence

import streamlit as st

from latency.charts import launch_card
from latency.estimation import scenario
from latency.estimation.estimator import STAGES
from latency.exploring import launch
from latency.exploring.launch import Check
from latency.language.formats import seconds_each
from latency.language import formats
from latency.language.i18n import Strings, md

FIGURES_KEY = "launch_figures"
SETUP_HEADING_KEY = "launch_setup_heading"
REST_KEY = "launch_rest"
CHANGE_ANCHOR = "launch-what-to-change"
"""The id the verdict's link jumps to: just above the "What to change" tab (a fixed name, no reader text in it)."""

LAYOUT_CSS = f"""<style>
#{CHANGE_ANCHOR} {{ scroll-margin-top: 5rem; }}
@media (min-width: 769px) {{
  .st-key-{FIGURES_KEY}, [data-testid="stLayoutWrapper"]:has(> .st-key-{FIGURES_KEY}) {{ order: 1; }}
  .st-key-{REST_KEY}, [data-testid="stLayoutWrapper"]:has(> .st-key-{REST_KEY}) {{ order: 2; }}
  .st-key-{SETUP_HEADING_KEY}, [data-testid="stLayoutWrapper"]:has(> .st-key-{SETUP_HEADING_KEY}) {{ display: none; }} }}
</style>"""
"""The launch page's order by width (PM trial item 14): on a phone (768 px and below, where Streamlit folds
the sidebar away) the figures follow the verdict, before the 25 inputs under their heading; wider (no heading:
every input stays on the first screen at 1366 x 768), the inputs fit on one screen
under the verdict and the figures follow them. The page's main column is a flex column: `order` moves the
figures' container and everything after it below the inputs (Streamlit wraps a keyed container in a
stLayoutWrapper, the flex item that `order` must reach). Style only (no content, no user text)."""

KIND_ALERT = {"pass": st.success, "borderline": st.warning, "fail": st.error, "no_fit": st.error}


def link_source(url: str | None) -> str:
    """A price source's link part only (the catalog adds the arithmetic in brackets)."""
    return (url or "").split(" ")[0]


def source_link(url: str | None) -> str:
    """A catalog price source as a Markdown link named by its site ("[lambda.ai](https://...)"); catalog
    content, checked by latency/estimation/catalog.py, never URL or user text. A source without a link is
    named as such."""
    link = link_source(url)
    host = urllib.parse.urlsplit(link).netloc
    if not host or not link.startswith("https://"):
        return md(url or "–")
    return f"[{md(host)}]({link})"


OVERHEAD_MOSTLY = 0.5
"""The prefill stage is said to be mostly the engine's fixed request handling (Estimate.overhead_s) when that is at
least half of it: then no device change moves it much, whatever the compute."""


class Words:
    """The launch check's sentences in the reader's language: one place that turns a `Check` into
    text, for the screen, the side-by-side view, the lever list and the exports alike."""

    def __init__(self, s: Strings, est: Strings, f, data, places: Sequence[Any], labels: Mapping[str, Mapping], lang: str):
        self.s, self.est, self.f, self.data, self.lang, self.labels = s, est, f, data, lang, labels
        self.place = {p.id: p.label[lang] for p in places} | {scenario.PLACE_CUSTOM: s("place_custom")}
        self.measured = launch.measured_hardware(data.catalog)

    # --- values -----------------------------------------------------------------------------
    def value(self, key: str, v: Any) -> str:
        """One input's value as the page names it (never an id)."""
        s, f = self.s, self.f
        if key in ("model_size_b", "min_model_b"):
            if key == "min_model_b" and v <= self.data.sizes[0]:
                return s("min_model_none")
            return f.size_b(v)
        if key == "hardware":
            entry = self.data.catalog.hardware.get(v)
            return entry.label(self.lang) if entry else str(v)
        if key == "precision":
            p = self.data.catalog.precisions.get(v)
            return p.label(self.lang) if p else str(v)
        if key in ("users_place", "server_place"):
            return self.place.get(v, str(v))
        if key == "distance_km":
            return f.km(float(v))
        if key in ("prompt_tokens", "document_tokens", "context_tokens", "output_tokens"):
            return f.count(v, "tokens")
        if key == "concurrency":
            return f.count(v, "users")
        if key == "requests_per_day":
            return s("per_day", n=formats.number(float(v), 3) if v >= 1000 else f"{int(v):,}")
        if key == "budget_s":
            return f.seconds(float(v))
        if key == "measure":
            return s(f"measure_{v}")
        if key == "monthly_budget_usd":
            return s("no_limit") if not v else f.usd(float(v))
        if key in ("prefix_share", "spec_accept"):
            return f.percent(float(v))
        if key == "prefix_cache":
            return s(f"prefix_cache_{v}")
        if key == "spec_tokens":
            return s("spec_off") if not v else f.count(v, "tokens")
        if key == "device_scope":
            return s(f"scope_{v}")
        if key == "arrival":
            return s(f"arrival_{v}")
        if key in self.labels and v in self.labels[key]:
            return self.labels[key][v]
        return scenario.url_value(v)

    def money(self, usd: float) -> str:
        """Dollars inside Markdown text: "$" escaped, so two amounts in one line never open a formula."""
        return md(self.f.usd(usd))

    def servers(self, n: int) -> str:
        return self.s("servers_one" if int(n) == 1 else "servers", n=f"{int(n):,}")

    def name(self, key: str) -> str:
        return self.s(f"name_{key}")

    def auto_came_to(self, v: Mapping[str, Any], c: Check | None) -> str | None:
        """'auto (now 1 device)' for a device count left on auto that the check `c` resolved; else None."""
        if v.get("devices") != scenario.DEVICES_AUTO or c is None or not c.fits:
            return None
        return self.s("devices_auto_came_to", n=self.f.count(c.devices_per_server, "devices"))

    def setup(self, v: Mapping[str, Any], c: Check | None = None) -> str:
        """The set-up in one sentence (what a meeting needs to know to read the figures). A device count on 'auto'
        says the count the check `c` came to (newcomer try, stop 43: "as many as needed (auto)" beside one device
        whose 50 users waited 386 s for memory)."""
        s = self.s
        if v["devices"] != scenario.DEVICES_AUTO:
            devices = self.f.count(v["devices"], "devices")
        else:
            devices = self.auto_came_to(v, c) or s("devices_auto_short")
        where = (s("setup_where", users=md(self.value("users_place", v["users_place"])), server=md(self.value("server_place", v["server_place"])),
                   km=self.f.km(float(v["distance_km"])))
                 if v["server_place"] != scenario.PLACE_CUSTOM else s("setup_where_custom", km=self.f.km(float(v["distance_km"]))))
        entry = next((m for m in self.data.catalog.models.values() if abs(m.model.params_b - float(v["model_size_b"])) < 1e-9
                      and m.model.arch == v["arch"]), None)
        model = self.f.size_b(float(v["model_size_b"]))
        model = s("size_option", name=entry.label(self.lang), size=model) if entry else model
        text = s("setup_sentence", model=md(model), arch=self.value("arch", v["arch"]),
                 precision=md(self.value("precision", v["precision"]).split(" (")[0]),
                 hardware=md(self.value("hardware", v["hardware"])), devices=devices, where=where,
                 users=self.f.count(v["concurrency"], "users"),  # the arrival only for more than one user; no capital
                 arrival=s(f"setup_arrival_{v['arrival']}") if int(v["concurrency"]) > 1 else "",
                 requests=self.value("requests_per_day", v["requests_per_day"]),
                 prompt=self.f.count(v["prompt_tokens"], "tokens"), document=self.f.count(v["document_tokens"], "tokens"),
                 output=self.f.count(v["output_tokens"], "tokens"))
        extras = []
        if int(v.get("context_tokens", 0)):
            extras.append(s("setup_context", n=self.f.count(v["context_tokens"], "tokens")))
        if v.get("prefix_cache") == "on":
            extras.append(s("setup_cache", share=self.f.percent(float(v["prefix_share"]))))
        if int(v.get("spec_tokens", 0) or 0):
            extras.append(s("setup_spec", n=self.f.count(v["spec_tokens"], "tokens"), accept=self.f.percent(float(v["spec_accept"]))))
        if v.get("connection") == "cold":
            extras.append(self.value("connection", "cold"))
        target = s("setup_target", budget=self.f.seconds(float(v["budget_s"])), measure=s(f"measure_{v['measure']}"))
        return " ".join([text] + ([s("setup_extras", extras=", ".join(extras))] if extras else []) + [target])

    # --- figures ----------------------------------------------------------------------------
    def verdict(self, c: Check) -> str:
        s, f = self.s, self.f
        if c.kind == "no_fit":
            # with 'auto' already chosen, or a phone (one per user), "set the count to auto" cannot be followed (PM try, stop 40)
            alone = c.values.get("devices") == scenario.DEVICES_AUTO or getattr(c.entry, "device_class", "") == "phone"
            return s("l_verdict_no_fit_alone" if alone else "l_verdict_no_fit", memory=f.gb(c.est.memory_gb),
                     hardware=md(c.entry.label(self.lang)))
        args = dict(measure=s(f"measure_{c.measure}"), value=f.seconds(c.value_s), budget=f.seconds(c.budget_s),
                    range=f.range(*c.value_range), margin=f.seconds(abs(c.margin_s)),
                    p95=f.seconds(c.p95_value_s), p95_range=f.range(*c.p95_value_range))
        if c.kind == "borderline" and c.verdict.kind == "within":  # the typical user is within, 95% of users are not
            return s("verdict_borderline_p95", **args)
        return s(f"verdict_{c.kind}", **args)

    def stage(self, key: str) -> str:
        return self.est(f"stage_{key}")

    def dominant(self, c: Check) -> str:
        if c.kind == "no_fit":
            return ""
        key = "dominant_ttft" if c.measure == "ttft" else "dominant_total"
        what = self.s(f"dominant_what_{c.dominant}")
        prefill_s, overhead_s = c.est.breakdown["prefill"], c.est.overhead_s
        if c.dominant == "prefill" and overhead_s >= OVERHEAD_MOSTLY * prefill_s:
            # "a device with more compute shortens it" beside a suggestion list where 2 devices or FP8 changed nothing
            what = self.s("dominant_what_prefill_overhead", overhead=self.f.seconds(overhead_s),
                          compute=self.f.seconds(prefill_s - overhead_s))
        return self.s(key, stage=self.stage(c.dominant), share=self.f.percent(c.dominant_share), what=what)

    def p95_how(self, c: Check) -> str:
        s, f = self.s, self.f
        if c.kind == "no_fit":  # no 95% figure for a model that does not fit (PM re-check: "how 6,341 s was found" under it)
            return ""
        if c.p95_rule == "alone":
            return s("p95_alone" if int(c.values["concurrency"]) <= 1 else "p95_same")
        queue = min(float(c.est.breakdown["queue"]), c.wait_others_s)  # with one user the queue is 0 (decision 2)
        wait, alone, queue_s, rest = seconds_each(f, [c.wait_others_s, c.alone_ttft_s, queue, c.wait_others_s - queue])
        return s(f"p95_{c.p95_rule}", wait=wait, alone=alone, queue=queue_s, rest=rest,
                 queue_name=self.stage("queue"), prefill_name=self.stage("prefill"),
                 users=f.count(c.values["concurrency"], "users"), p95=f.seconds(c.p95_ttft_s))

    def extrapolated(self, c: Check) -> str:
        """"" where the estimate stands on measurements of this device kind and engine and of this device;
        else why it is extrapolated."""
        if not c.calibrated:
            return "kind"
        return "" if c.entry.id in self.measured else "device"

    def sureness(self, c: Check) -> str:
        s = self.s
        text = s("sure_range", range=self.f.range(*c.ttft_range), total=self.f.range(*c.total_range))
        why = self.extrapolated(c)
        if why == "kind":
            return text + " " + s("sure_extrapolated")
        if why == "device":
            return text + " " + s("sure_extrapolated_device", hardware=md(c.entry.label(self.lang)))
        return text + " " + s("sure_calibrated")

    def users_line(self, c: Check) -> str:
        s, f = self.s, self.f
        if c.max_users is None or c.kind == "no_fit":
            return ""
        if c.max_users == 0:
            return s("users_none")
        most = f.count(c.max_users, "users")
        per = f.count(c.devices_per_server, "devices")
        text = s("users_capped" if c.max_users_capped else "users_most", most=most, per=per, budget=f.seconds(c.budget_s))
        if c.max_users_typical and c.max_users_typical > c.max_users:
            text += " " + s("users_borderline", typical=f.count(c.max_users_typical, "users"))
        if c.plan_per_server is not None and c.plan_per_server != c.devices_per_server and c.plan_max_users:
            text += " " + s("users_plan", per=f.count(c.plan_per_server, "devices"), most=f.count(c.plan_max_users, "users"))
        return text

    def devices_value(self, c: Check) -> str:
        """The count alone (the label names what is counted): "100 devices" does not fit a metric at 1366 px."""
        return "–" if c.devices_total is None else self.s("m_devices_value", n=f"{c.devices_total:,}")

    def share_of(self, ratio: float) -> str:
        """A cost against another: "2.1×" from 1 up, "35%" below (0.02 read as "0×")."""
        return self.f.ratio(ratio) if ratio >= 1 else self.f.percent(ratio)

    def devices_line(self, c: Check) -> str:
        """The set-up as entered (its servers and monthly cost) and, apart, what meeting the target takes."""
        s, f = self.s, self.f
        if c.kind == "no_fit":
            return ""
        monthly = self.money(c.monthly_usd) if math.isfinite(c.monthly_usd) else "–"
        if c.servers_for_users is None:
            return s("devices_never", per=f.count(c.devices_per_server, "devices"), servers=self.servers(c.servers_entered),
                     devices=f.count(c.devices_entered, "devices"), monthly=monthly)
        args = dict(entered=self.servers(c.servers_entered), per=f.count(c.devices_per_server, "devices"),
                    hardware=md(c.entry.label(self.lang)), monthly=monthly, for_users=self.servers(c.servers),
                    to_pass=self.money(c.monthly_to_pass_usd) if math.isfinite(c.monthly_to_pass_usd) else "–",
                    per_day=formats.number(c.answers_per_server_day, 3))
        args["to_pass"] = self.money(c.monthly_to_pass_entered_usd) if math.isfinite(c.monthly_to_pass_entered_usd) else "–"
        text = s("devices_line_same" if c.servers == c.servers_entered else "devices_line", **args)
        text += self.plan_line(c)
        typical = c.servers_for_users_typical
        if typical is not None and c.servers_for_users and typical < c.servers_for_users:
            servers = max(typical, c.servers_for_traffic, 1)
            devices = servers * c.devices_per_server
            price = c.entry.price_usd_per_hour
            cost = devices * price * launch.HOURS_PER_MONTH if price is not None else math.nan
            # said only where settling for borderline would save money: beside a cheaper plan that passes it read as
            # a contradiction (PM re-check: 'cheapest: 1 server of 4, $8,731' then 'borderline: 12 servers, $52,385')
            if not (math.isfinite(cost) and math.isfinite(c.monthly_to_pass_usd) and cost >= c.monthly_to_pass_usd):
                text += " " + s("devices_borderline", servers=self.servers(servers), devices=f.count(devices, "devices"),
                                monthly=self.money(cost) if math.isfinite(cost) else "–")
        return text

    def plan_line(self, c: Check) -> str:
        """" The cheapest the app finds ...: 2 servers of 8 devices, $34,923 a month." where that is not the
        devices per server entered (else "")."""
        if c.plan_servers is None or (c.plan_per_server == c.devices_per_server and c.plan_servers == c.servers):
            return ""
        s, f = self.s, self.f
        return " " + s("devices_plan", hardware=md(c.entry.label(self.lang)),
                       most=f.count(int(c.entry.hardware.resolved("max_devices")), "devices"),
                       servers=self.servers(c.plan_servers), per=f.count(c.plan_per_server, "devices"),
                       cost=self.money(c.monthly_to_pass_usd) if math.isfinite(c.monthly_to_pass_usd) else "–")

    def cost_line(self, c: Check) -> str:
        s, f = self.s, self.f
        e = c.entry
        if e.price_usd_per_hour is None:
            return s("l_cost_no_price", hardware=md(e.label(self.lang)))
        if c.kind == "no_fit":
            return s("l_cost_no_fit")
        text = s("l_cost_line", hourly=self.money(e.price_usd_per_hour), basis=self.est(f"price_basis_{e.price_basis}"),
                 date=md(e.price_date or ""), source=source_link(e.price_source))
        if math.isfinite(c.monthly_usd):
            text += " " + s("monthly_line", hours=formats.number(730, 3), busy=f.percent(min(c.busy_share, 1.0)) if math.isfinite(c.busy_share) else "–",
                            busy_cost=self.money(c.busy_monthly_usd) if math.isfinite(c.busy_monthly_usd) else "–",
                            requests=self.value("requests_per_day", c.values["requests_per_day"]),
                            per_1k_entered=self.money(c.cost_per_1k_entered)
                            if math.isfinite(c.cost_per_1k_entered) else "–")
        return text

    def budget_line(self, c: Check) -> str:
        limit = float(c.values.get("monthly_budget_usd", 0) or 0)
        if limit <= 0 or not math.isfinite(c.monthly_usd):
            return ""
        key = "budget_over" if c.over_budget else "budget_within"
        return self.s(key, monthly=self.money(c.monthly_usd), limit=self.money(limit))

    def notes(self, c: Check) -> list[str]:
        """Inputs the figures use that a reader could miss, named beside them."""
        s, f, v = self.s, self.f, c.values
        out = [self.users_traffic(c)] if c.users_too_few else []
        if c.cached_tokens:
            out.append(s("note_cached", n=f.count(c.cached_tokens, "tokens"), share=f.percent(float(v["prefix_share"]))))
        if int(v.get("spec_tokens", 0) or 0):
            out.append(s("note_spec", n=f.count(v["spec_tokens"], "tokens"), accept=f.percent(float(v["spec_accept"]))))
        if launch.long_answer(c):
            out.append(s("note_long_answer", total=f.seconds(c.total_s), limit=f.seconds(launch.ATTENTION_LIMIT_S),
                         measure=s("in_measure"), whole=s("measure_total")))
        if float(v["model_size_b"]) < float(v.get("min_model_b", 0) or 0):
            out.append(s("note_below_min", size=f.size_b(float(v["model_size_b"])), floor=f.size_b(float(v["min_model_b"]))))
        return out

    def users_traffic(self, c: Check) -> str:
        """The day's requests against the users at once, where they disagree (`Check.users_too_few`); else ""."""
        if not c.users_too_few:
            return ""
        s, f, v = self.s, self.f, c.values
        users, requests = int(v["concurrency"]), int(v["requests_per_day"])
        return s("note_users_traffic", requests=f"{requests:,}", in_progress=formats.number(c.in_progress, 2),
                 rate=formats.number(requests / launch.SECONDS_PER_DAY, 2), service=f.seconds(c.service_s),
                 users=f.count(users, "users"), capacity=formats.number(launch.SECONDS_PER_DAY * users / c.service_s, 3),
                 users_label=self.name("concurrency"), need=f.count(math.ceil(c.in_progress), "users"))

    def metrics(self, c: Check) -> list[tuple[str, str, str, str]]:
        """(label, value, small print, help) of every figure, in the order the page shows them."""
        s, f = self.s, self.f
        if c.kind == "no_fit":
            need = self.f.count(math.ceil(c.est.memory_gb / c.entry.hardware.memory_gb), "devices")
            return [(s("m_memory"), f.gb(c.est.memory_gb), s("m_memory_small", need=need), "")]
        users = ("–" if c.max_users is None else (s("at_least", v=f"{c.max_users:,}") if c.max_users_capped
                                                   else f.count(c.max_users, "users")))
        users_small = (s("m_users_small", n=f"{c.max_users_typical:,}")
                       if c.max_users_typical and c.max_users is not None and c.max_users_typical > c.max_users else "")
        planned = c.plan_servers is not None  # the cheapest plan that meets the target (launch.cheapest_plan)
        reachable = planned or (not c.users_searched and c.servers_for_users is not None)
        plan_servers = c.plan_servers if planned else c.servers
        plan_per = c.plan_per_server if planned else c.devices_per_server
        plan_devices = c.plan_devices if planned else c.devices_total
        servers_small = s("m_devices_small", servers=self.servers(plan_servers),
                          per=f.count(plan_per, "devices")) if reachable else s("m_devices_never")
        no = "–"
        return [
            (s("m_ttft"), f.seconds(c.ttft_s),
             s("m_extrapolated", range=f.range(*c.ttft_range)) if self.extrapolated(c) else f.range(*c.ttft_range), s("m_ttft_help")),
            (s("m_p95"), f.seconds(c.p95_ttft_s), f.range(*c.p95_range), s("m_p95_help", heading=s("details_heading"))),
            (s("m_tps"), formats.number(c.tps_user), f.range(*c.tps_range, kind="tps"), s("m_tps_help")),
            (s("m_total"), f.seconds(c.total_s), f.range(*c.total_range), s("m_total_help")),
            (s("m_users"), users, users_small, s("m_users_help")),
            (s("m_devices"), s("m_devices_value", n=f"{plan_devices:,}") if reachable else no, servers_small, s("m_devices_help")),
            # the cost as entered (idle hours included) is the large figure, the never-idle one that the estimator
            # and the weigh page show the small print (PM try 2026-12-05: "$0.29" large beside "$28.70 as entered"
            # read as a cost per answer a hundred times too low)
            (s("m_cost_1k"), f.usd(c.cost_per_1k_entered), s("m_cost_1k_small_never", never=f.usd(c.cost_per_1k)),
             s("m_cost_1k_help"))
            if math.isfinite(c.cost_per_1k) and math.isfinite(c.cost_per_1k_entered) else
            (s("m_cost_1k_never_idle"), f.usd(c.cost_per_1k) if math.isfinite(c.cost_per_1k) else no, s("m_cost_1k_small"),
             s("m_cost_1k_help")),
            (s("m_monthly"), f.usd(c.monthly_usd) if math.isfinite(c.monthly_usd) else no,
             s("m_monthly_small", devices=f.count(c.devices_entered, "devices"),
               requests=self.value("requests_per_day", c.values["requests_per_day"])), s("m_monthly_help")),
            (s("m_pass_cost"), f.usd(c.monthly_to_pass_usd) if math.isfinite(c.monthly_to_pass_usd) else no,
             s("m_pass_cost_small", servers=self.servers(plan_servers), per=f.count(plan_per, "devices"))
             if reachable else s("m_pass_cost_never"), s("m_pass_cost_help")),
        ]

    def stage_times(self, c: Check) -> list[tuple[str, float]]:
        return [(self.stage(k), float(c.est.breakdown[k])) for k in STAGES]

    def lines(self, c: Check) -> list[str]:
        """The sentences under the figures, in order."""
        out = [self.dominant(c), self.p95_how(c), self.users_line(c), self.devices_line(c), self.cost_line(c),
               self.budget_line(c), self.sureness(c) if c.kind != "no_fit" else ""] + self.notes(c)
        return [t for t in out if t]


def show_verdict(w: Words, c: Check) -> None:
    """Pass, borderline or fail against the target (and a cost over the monthly limit); the rule is the first
    line of the figures (`show_figures`)."""
    KIND_ALERT[c.kind](w.verdict(c))
    if c.over_budget:
        st.warning(w.budget_line(c))
    if c.users_too_few:  # under the verdict, not the last of the lines (PM re-check: found below a green 'pass')
        st.warning(w.users_traffic(c))


FIGURE_ROWS = (4, 5)
"""The figures in two rows: the four times, then users, devices and the three costs."""


def show_figures(w: Words, c: Check, key: str) -> None:
    """The pass rule in one sentence, the figures as metrics (each with its small print) and the stage line."""
    if c.kind != "no_fit":
        st.caption(w.s("verdict_rule"))
    figures = w.metrics(c)
    start = 0
    for n in FIGURE_ROWS:
        if start >= len(figures):
            break
        row = st.container(horizontal=True, gap="small", horizontal_alignment="distribute", key=f"{key}_m{start}")
        for label, value, small, helptext in figures[start:start + n]:
            row.metric(label, value, delta=small or None, delta_color="off", delta_arrow="off", width=170,
                       help=helptext or None)
        start += n
    if c.fits:
        stages = w.stage_times(c)
        shown = seconds_each(w.f, [t for _, t in stages])
        st.caption(w.s("stages_line", stages=" · ".join(f"{n} {t}" for (n, _), t in zip(stages, shown))))


def show_lines(w: Words, c: Check) -> None:
    """The sentences under the figures (the cost over the limit and the day's requests the users at once cannot send
    are already in warnings under the verdict, which every caller shows first; the exports keep them as lines)."""
    shown = {w.budget_line(c)} if c.over_budget else set()
    shown |= {w.users_traffic(c)} if c.users_too_few else set()
    st.markdown("\n".join(f"- {line}" for line in w.lines(c) if line not in shown))


def show_check(w: Words, c: Check, key: str, verdict: bool = True) -> None:
    """The verdict, the figures and the sentences (the side-by-side view's columns)."""
    if verdict:
        show_verdict(w, c)
    show_figures(w, c, key)
    show_lines(w, c)


def extra_sections(w: Words, c: Check, b: Check | None, difference: str | None, change: list[str] | None
                   ) -> list[tuple[str, list[str]]]:
    """What the exports add to set-up A: B (its verdict, set-up and figures) and the difference when a B is
    set; "What to change" when A does not pass. (heading, lines) each; B's figures are the lines after its
    first two (`compact` drops them for the one-page PNG)."""
    out = []
    if b is not None:
        figures = [f"{md(label)}: {md(value)}" + (f" ({md(small)})" if small else "") for label, value, small, _ in w.metrics(b)]
        out.append((w.s("export_b_heading"), [w.verdict(b), w.setup(b.values, b), *figures]))
        if difference:
            out.append((w.s("export_diff_heading"), [difference]))
    if change is not None and not c.passes:
        out.append((w.s("export_change_heading"), change))
    return out


def compact(w: Words, extra: Sequence[tuple[str, Sequence[str]]]) -> list[tuple[str, Sequence[str]]]:
    """The extra sections for the one-page PNG: set-up B by its verdict and set-up sentence (its figure list is in
    the Markdown summary), the rest as they are."""
    return [(h, list(body)[:2] if h == w.s("export_b_heading") else body) for h, body in extra]


def summary_markdown(w: Words, c: Check, link: str, extra: Sequence[tuple[str, Sequence[str]]] = ()) -> str:
    """The one-page summary for a meeting, in Markdown: the verdict, the set-up, every figure, the notes, then
    `extra` (B, the difference, what to change: `extra_sections`) and the link."""
    s = w.s
    rows = [f"| {md(label)} | {md(value)} | {md(small)} |" for label, value, small, _ in w.metrics(c)]
    stages = " · ".join(f"{n} {t}" for (n, _), t in zip(w.stage_times(c), seconds_each(w.f, [t for _, t in w.stage_times(c)])))
    parts = [f"# {s('export_title')}", "", f"**{w.verdict(c)}**", "", w.setup(c.values, c), "",
             f"| {s('export_col_figure')} | {s('export_col_value')} | {s('export_col_range')} |", "|---|---|---|", *rows, ""]
    if c.fits:
        parts += [s("stages_line", stages=stages), ""]
    parts += [f"- {line}" for line in w.lines(c)]
    for heading, lines in extra:
        # numbered lines ("1. ...", 'What to change') are a Markdown numbered list: "- 1." read as "• 1."
        parts += ["", f"## {heading}", "", *[line if line[:1].isdigit() else f"- {line}" for line in lines]]
    parts += ["", s("export_link", link=link), "", s("export_footer")]
    return "\n".join(parts) + "\n"


def share_link(url: str | None, query: Mapping[str, str]) -> str:
    """The address that reopens this check: the page's own address with the scenario's query."""
    base = urllib.parse.urlsplit(url or "")
    path = base.path if base.path.rstrip("/").endswith("launch") else base.path.rstrip("/") + "/launch"
    return urllib.parse.urlunsplit((base.scheme, base.netloc, path, urllib.parse.urlencode(query), ""))


def summary_png(w: Words, c: Check, link: str, extra: Sequence[tuple[str, Sequence[str]]] = ()) -> bytes:
    """The same one-page summary as a PNG (latency/charts/launch_card.py), `extra` as headed lines after the notes."""
    rows = [(label, value, small) for label, value, small, _ in w.metrics(c)]
    times = w.stage_times(c)
    shown = seconds_each(w.f, [t for _, t in times])
    stages = [(k, f"{name} {t}", sec) for k, (name, sec), t in zip(STAGES, times, shown)] if c.fits else []
    lines = w.lines(c) + [text for heading, body in compact(w, extra) for text in [f"**{heading}**", *body]]
    return launch_card.png(w.s("export_title"), c.kind, w.verdict(c), w.setup(c.values, c), rows, stages, lines,
                           w.s("export_link", link=link), w.s("export_footer"))
