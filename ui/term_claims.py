"""What the estimator says about an entry's claims (issue 34 item 1, issue 31 item 1).

The entry's text stays as written. The app speaks in two places only:

* `note`: under a claim the estimator finds misleading (a check that does not hold everywhere), ONE short
  note in plain words that says what is true and when: the check's `note` ("더 정확히 말하면: ..."), or for
  a meeting phrase or a use, the `better` phrasing beside it, with one link that opens the set-up where
  the claim does not hold in the calculator. No verdict badge, no figure: figures are in the fold.
* `fold`: at the end of the page, one closed expander ("계산기로 확인한 내용") with every check: the claim
  it tests, what the calculator found, and each set-up with its full specs and its figures.

Every figure comes from `latency.teaching.claims` (each set-up through `scenario.evaluate`, the one
evaluation every page uses). A set-up is written with every input that differs from the calculator's
default (`setup`), and the defaults are named once at the fold's top, so two lines that read the same
are the same set-up and show the same figures (tests/pages/test_entry_checks.py holds that).
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any, Mapping, Sequence

import streamlit as st

from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.language import formats
from latency.language.i18n import Strings, md
from latency.teaching import claims, content

DEFAULTS = scenario.DEFAULTS


def value_text(s: Strings, measure: str, value: float) -> str:
    return s(f"unit_{measure}", v=formats.seconds_number(value))


def bits(catalog: Catalog, precision: str) -> int:
    """A format's bits per number as a reader knows them (FP16 16, FP8 and INT8 8, INT4 and Q4_K_M 4)."""
    entry = catalog.precisions[precision]
    digits = re.findall(r"\d+", entry.family)
    return int(digits[-1]) if digits else round(8 * entry.bytes_per_param)


def setup(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any]) -> str:
    """A set-up with every input the estimate depends on that differs from the calculator's default, and
    always the model, the chip, the number format and the distance: '70.6B · NVIDIA H100 SXM · FP16 / BF16
    (16-bit) · 1,149 km · 32 users at once'. The defaults left out are named once (`defaults_line`)."""
    arch = "" if values["arch"] == "dense" else " " + s(f"arch_{values['arch']}")
    precision = catalog.precisions[values["precision"]]  # its name and bits: "FP8 · 8비트" (the catalog's long label
    # carries words a reader does not have, "부동소수점", "bpw")
    parts = [f"{formats.size_number(float(values['model_size_b']))}B{arch}", catalog.hardware[values["hardware"]].label(lang),
             precision.label(lang).split(" (")[0] + " · " + s("where_bits", n=bits(catalog, values["precision"]))]
    km = float(values["distance_km"])
    parts.append(s("where_local") if values.get("access") == "none" else f"{km:,.0f} km")
    devices = values.get("devices", scenario.DEVICES_AUTO)
    if devices != scenario.DEVICES_AUTO:
        parts.append(s("where_devices", n=int(devices)))
    if int(values["concurrency"]) != DEFAULTS["concurrency"]:
        parts.append(s("where_users", n=int(values["concurrency"])))
    if values.get("arrival", "steady") != DEFAULTS["arrival"]:
        parts.append(s(f"where_arrival_{values['arrival']}"))
    if int(values["prompt_tokens"]) != DEFAULTS["prompt_tokens"]:
        parts.append(s("where_prompt", n=int(values["prompt_tokens"])))
    if int(values.get("document_tokens", 0) or 0):
        parts.append(s("where_document", n=int(values["document_tokens"])))
    if int(values["output_tokens"]) != DEFAULTS["output_tokens"]:
        parts.append(s("where_output", n=int(values["output_tokens"])))
    if int(values.get("context_tokens", 0) or 0):
        parts.append(s("where_context", n=int(values["context_tokens"])))
    if values["connection"] != DEFAULTS["connection"]:
        parts.append(s(f"where_{values['connection']}"))
    if values.get("access") not in (DEFAULTS["access"], "none"):
        parts.append(s(f"where_access_{values['access']}"))
    if values["engine"] != DEFAULTS["engine"]:
        parts.append(s("where_engine_" + str(values["engine"]).replace(".", "_")))
    return " · ".join(parts)


def defaults_line(s: Strings) -> str:
    """The inputs a set-up line leaves out, named (issue 31 item 1: an input the reader does not see is named)."""
    return s("fold_defaults", prompt=DEFAULTS["prompt_tokens"], output=DEFAULTS["output_tokens"])


def misleading(results: Mapping[str, claims.ClaimResult], checks: Sequence[Any]) -> claims.ClaimResult | None:
    """The first check on a claim that finds it misleading, else None: a check that does not hold in every
    set-up it tries, except a `contrast` check (the text itself says "here, not there"), which misleads only
    where it holds everywhere or nowhere."""
    def misleads(c) -> bool:
        verdict = results[c.id].verdict
        return verdict != "conditional" if getattr(c, "contrast", False) else verdict != "holds"
    return next((results[c.id] for c in checks if c.id in results and misleads(c)), None)


def link(values: Mapping[str, Any], lang: str) -> str:
    """The calculator's address on this set-up, relative to the app (every scenario input in the query)."""
    return "estimator?" + urllib.parse.urlencode({**claims.link_values(values), "lang": lang})


def note(s: Strings, lang: str, results: Mapping[str, claims.ClaimResult], checks: Sequence[Any],
         better: str | None = None) -> bool:
    """Under a claim the estimator finds misleading: one short note in plain words (the item's `better`
    phrasing, else the check's `note`) and one link to the set-up where the claim does not hold."""
    r = misleading(results, checks)
    if r is None:
        return False
    text = s("better_lead", text=md(better)) if better else s("note_lead", text=md(r.check.note or ""))
    where = r.counter if r.counter is not None else r.shown
    # the link in the note's own box (a relative address, so it works under any base path): a page link
    # under it took a line of its own for each of a page's notes (issue 34: the entry in six phone screens)
    st.info(f"{text} [{s('note_open')}]({link(where.values, lang)})", icon=":material/lightbulb:")
    return True


def cell(s: Strings, klass: content.ComparisonClass, row: str, results: Mapping[str, claims.ClaimResult]) -> str:
    """A comparison table cell as Markdown: the entry's words, with `{value}` (an app-written entry's estimate)
    filled from the row's check, its first set-up, so the table shows the calculator's own figure."""
    text = getattr(klass, row)
    if "{value}" not in text:
        return md(text)
    check = next((c for c in klass.checks if c.row == row and c.id in results), None)
    value = value_text(s, check.measure, results[check.id].outcomes[0].value) if check else "?"
    return value.join(md(part) for part in text.split("{value}"))


# --- the fold at the end of the page ---------------------------------------------------------------
def claim_label(s: Strings, term: content.Term, where: str, obj: Any, check: content.Check) -> str:
    """Which sentence of the entry a check tests, in a few words: a heading, a title, a table cell."""
    if isinstance(obj, content.Summary):
        return obj.heading
    if isinstance(obj, content.TextBlock):
        return obj.heading
    if isinstance(obj, content.Example):
        return f"{term.examples.heading} · {obj.title}"
    if isinstance(obj, content.ComparisonClass):
        row = getattr(term.comparison.rows, check.row) if check.row else ""
        text = getattr(obj, check.row).replace("{value}", "…") if check.row else ""
        return f"{term.comparison.heading} · {obj.short_name} · {row}: {text}"
    if isinstance(obj, content.Use):
        return f"{term.uses.heading} · {obj.name}"
    if isinstance(obj, content.Misconception):
        return f"{term.misconceptions.heading} · {obj.myth}"
    if isinstance(obj, content.Phrase):
        return f"{term.phrases.heading} · “{obj.text}”"
    return where


def outcome_line(s: Strings, catalog: Catalog, lang: str, r: claims.ClaimResult, o: claims.Outcome) -> str:
    c = r.check
    line = s("fold_line", setup=md(setup(s, catalog, lang, o.values)), measure=s(f"measure_name_{c.measure}"),
             value=value_text(s, c.measure, o.value))
    if c.measure == "total" and r.bound is not None:
        line += s("fold_ttft", ttft=value_text(s, "ttft", o.ttft_s))
    if o.other_values is not None and o.other is not None:
        line += s("fold_versus", setup=md(setup(s, catalog, lang, o.other_values)), value=value_text(s, c.measure, o.other))
    return line


def finding(s: Strings, r: claims.ClaimResult) -> str:
    """What the calculator found, in plain words (no verdict words of a jury: see the module docstring)."""
    c = r.check
    if r.bound is not None:
        lo, hi = r.bound
        bound = (s("bound_range", min=formats.seconds_number(lo), max=value_text(s, c.measure, hi)) if lo is not None and hi is not None
                 else s("bound_max", max=value_text(s, c.measure, hi)) if hi is not None
                 else s("bound_min", min=value_text(s, c.measure, lo)))
        return s(f"fold_bound_{r.verdict}", measure=s(f"measure_name_{c.measure}"), bound=bound)
    return s(f"fold_versus_{r.verdict}_{c.expect}", measure=s(f"measure_name_{c.measure}"))


def fold(s: Strings, catalog: Catalog, lang: str, term: content.Term, results: Mapping[str, claims.ClaimResult]) -> None:
    """One closed expander at the page's end: every check of the entry, in the page's order."""
    checks = [(where, obj, c) for where, obj, c in term.checks() if c.id in results]
    if not checks:
        return
    with st.expander(s("fold_heading"), icon=":material/calculate:"):
        st.caption(s("fold_intro") + " " + defaults_line(s))
        last = None
        for where, obj, c in checks:
            r = results[c.id]
            label = claim_label(s, term, where, obj, c)
            if label != last:
                st.markdown(f"**{md(label)}**")
                last = label
            said = f" {md(c.note)}" if c.note else ""  # the check's plain words, here too
            lines = [finding(s, r) + said] + [outcome_line(s, catalog, lang, r, o) for o in r.outcomes]
            st.markdown("\n".join(f"- {x}" for x in lines[:1]) + "\n" + "\n".join(f"    - {x}" for x in lines[1:]))
