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
FOLD_KEY = "learn_fold"  # ui/style.py sets the fold's text a step smaller and its lists tighter (a phone read it in 9 screens)


def value_text(s: Strings, measure: str, value: float) -> str:
    return s(f"unit_{measure}", v=formats.seconds_number(value))


def bits(catalog: Catalog, precision: str) -> int:
    """A format's bits per number as a reader knows them (FP16 16, FP8 and INT8 8, INT4 and Q4_K_M 4)."""
    entry = catalog.precisions[precision]
    digits = re.findall(r"\d+", entry.family)
    return int(digits[-1]) if digits else round(8 * entry.bytes_per_param)


def parts(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any], every: bool = False) -> dict[str, str]:
    """Every input of a set-up the estimate depends on, each as a few plain words, by input name: the model
    always (by the catalog's name, the one the lesson, the race and the calculator print: "Llama 3.1 8B"); the
    rest only where it differs from the calculator's default (named once, `defaults_line`), or all with `every`."""
    default = claims.full_values(catalog, {})
    out = {"model": claims.model_label(catalog, values, lang) or s(
        "where_model", size=f"{formats.size_number(float(values['model_size_b']))}B"
        + ("" if values["arch"] == "dense" else " " + s(f"arch_{values['arch']}")))}
    local = values.get("access") == "none"
    chip = catalog.hardware[values["hardware"]].label(lang).split(" (")[0]  # no two chips share it
    if local:
        out["chip"] = s("where_local_chip", chip=chip)
    elif every or values["hardware"] != default["hardware"]:
        out["chip"] = chip
    if every or values["precision"] != default["precision"]:
        n_bits = s("where_bits", n=bits(catalog, values["precision"]))
        # the format's name only where two formats share a bit count (Q4_K_M and INT4): "4비트(Q4_K_M)"; the
        # catalog's long label carries words a reader does not have ("부동소수점", "bpw")
        same_bits = [p for p in catalog.precisions if bits(catalog, p) == bits(catalog, values["precision"])]
        out["precision"] = n_bits if len(same_bits) == 1 or values["precision"] in DEFAULT_FORMATS else s(
            "where_format", bits=n_bits, name=catalog.precisions[values["precision"]].label(lang).split(" (")[0])
    if not local and (every or float(values["distance_km"]) != float(default["distance_km"])):
        out["distance"] = s("where_km", km=f"{float(values['distance_km']):,.0f} km")
    devices = values.get("devices", scenario.DEVICES_AUTO)
    if devices != scenario.DEVICES_AUTO or every:
        out["devices"] = (s("where_devices", n=int(devices)) if devices != scenario.DEVICES_AUTO else s("where_devices_auto"))
    if every or int(values["concurrency"]) != DEFAULTS["concurrency"]:
        out["concurrency"] = s("where_users", n=int(values["concurrency"]))
    if every or values.get("arrival", "steady") != DEFAULTS["arrival"]:
        out["arrival"] = s(f"where_arrival_{values['arrival']}")
    if every or int(values["prompt_tokens"]) != DEFAULTS["prompt_tokens"]:
        out["prompt_tokens"] = s("where_prompt", n=int(values["prompt_tokens"]))
    if every or int(values.get("document_tokens", 0) or 0):
        out["document_tokens"] = s("where_document", n=int(values["document_tokens"]))
    if every or int(values["output_tokens"]) != DEFAULTS["output_tokens"]:
        out["output_tokens"] = s("where_output", n=int(values["output_tokens"]))
    if every or int(values.get("context_tokens", 0) or 0):
        out["context_tokens"] = s("where_context", n=int(values["context_tokens"]))
    if every or values["connection"] != DEFAULTS["connection"]:
        out["connection"] = s(f"where_{values['connection']}")
    if values.get("access") not in (DEFAULTS["access"], "none") or (every and values.get("access") != "none"):
        out["access"] = s(f"where_access_{values['access']}")
    if every or values["engine"] != DEFAULTS["engine"]:
        out["engine"] = s("where_engine_" + str(values["engine"]).replace(".", "_"))
    return out


DEFAULT_FORMATS = ("fp16", "fp8")  # the formats a reader meets first: named by their bits alone


def setup(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any]) -> str:
    """A set-up in a few words, the model first: 'Llama 3.1 70B', 'Llama 3.1 8B (NVIDIA L4, 9,029 km)',
    'Llama 3.1 70B (내 기기(Apple M2 Ultra), 4비트(Q4_K_M))'. Every input that differs from the default (named
    once at the fold's top, `defaults_line`) is in it, so two set-ups that read the same are the same estimate
    (tests/pages/test_entry_checks.py). Learner trial: a whole sentence per set-up made the fold 9 phone screens."""
    p = parts(s, catalog, lang, values)
    extras = [v for k, v in p.items() if k != "model"]
    model = p["model"]
    if extras and model.endswith(")") and " (" in model:  # "GPT-4급 대형 모델 (가정, 8비트)", not "(가정) (8비트)"
        model, own = model[:-1].split(" (", 1)
        extras = [own, *extras]
    return s("setup_phrase", model=model, extras=s("setup_extras", list=", ".join(extras)) if extras else "")


def change(s: Strings, catalog: Catalog, lang: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What a compared set-up changes, and only that: 'Llama 3.1 8B', 'NVIDIA L4, 16비트', '사용자 1명'."""
    a, b = parts(s, catalog, lang, before, every=True), parts(s, catalog, lang, after, every=True)
    plain = after["arch"] == "dense" != before["arch"] and float(after["model_size_b"]) == float(before["model_size_b"])
    changed = [s("change_users", users=formats.get(lang).count(int(after["concurrency"]), "users")) if k == "concurrency"
               else s("change_plain") if k == "model" and plain else v
               for k, v in b.items() if a.get(k) != v]
    return ", ".join(changed)


def defaults_line(s: Strings, catalog: Catalog, lang: str) -> str:
    """The inputs a set-up line leaves out, named (issue 31 item 1: an input the reader does not see is named)."""
    default = claims.full_values(catalog, {})
    return s("fold_defaults", prompt=DEFAULTS["prompt_tokens"], output=DEFAULTS["output_tokens"],
             chip=catalog.hardware[default["hardware"]].label(lang).split(" (")[0],
             km=f"{float(default['distance_km']):,.0f} km", bits=s("where_bits", n=bits(catalog, default["precision"])))


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
         better: str | None = None, places: Mapping[str, str] | None = None) -> bool:
    """Under a claim the estimator finds misleading: one short note in plain words (the item's `better`
    phrasing, else the check's `note`) and one link to the set-up where the claim does not hold. An idea is
    explained once (issue 34, learner trial: the Loop idea met four times read as an argument): a check with
    `see:` gets one line pointing to the note under that earlier claim instead."""
    r = misleading(results, checks)
    if r is None:
        return False
    if r.check.see is not None:
        st.caption(s("note_see", where=md((places or {}).get(r.check.see, ""))))
        return True
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


def place(s: Strings, term: content.Term, where: str, obj: Any, check: content.Check) -> str:
    """Where a check's claim sits, as a reader finds it: the tab and the heading ("쉽게 이해하기 · 구체적 메커니즘")."""
    label = claim_label(s, term, where, obj, check)
    return f"{term.understand.heading} · {label}" if where.startswith("understand.") else label


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


def outcome_line(s: Strings, catalog: Catalog, lang: str, r: claims.ClaimResult, o: claims.Outcome,
                 bare: bool = False) -> str:
    """One set-up of a check as one short sentence: what runs, then its figure; the first token beside a
    whole answer where the sentence over the lines speaks of it; the compared set-up by what it changes
    ("Llama 3.1 8B로 바꾸면 2.1초"). `bare`: without the measure's name, under a sentence that names it."""
    c = r.check
    setup_text, value = md(setup(s, catalog, lang, o.values)), value_text(s, c.measure, o.value)
    line = (s("fold_line_bare", setup=setup_text, value=value) if bare
            else s("fold_line", setup=setup_text, measure=s(f"measure_name_{c.measure}"), value=value))
    if c.measure == "total" and r.bound is not None and any(x.outcome == "first_token" for x in r.outcomes):
        line += s("fold_ttft", ttft=value_text(s, "ttft", o.ttft_s))
    if o.other_values is not None and o.other is not None:
        line += s("fold_versus", change=md(change(s, catalog, lang, o.values, o.other_values)), value=value_text(s, c.measure, o.other))
        if c.measure == "server_tokens_per_s" and int(o.other_values["concurrency"]) == 1:
            # one user: the server's figure (whole requests, first-token wait included) is a little under the speed
            # that user reads at, the figure the race, the lesson and the calculator print (learner trial: 127 vs 128)
            one = scenario.evaluate(catalog, o.other_values)[2]
            line += s("fold_server_one", speed=value_text(s, "tokens_per_s", one.decode_tokens_per_s),
                      ttft=value_text(s, "ttft", one.ttft_s))
    return line


def inside(value: float, lo: float | None, hi: float | None) -> bool:
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def bound_text(s: Strings, measure: str, lo: float | None, hi: float | None) -> str:
    """A stated range in words: '1~2초', '1초 이내' (a range from 0 is a ceiling), '2초 이상'."""
    if lo is not None and hi is not None and lo > 0:
        return s("bound_range", min=formats.seconds_number(lo), max=value_text(s, measure, hi))
    if hi is not None:
        return s("bound_max", max=value_text(s, measure, hi))
    return s("bound_min", min=value_text(s, measure, lo))


def finding(s: Strings, r: claims.ClaimResult) -> str:
    """What the set-ups below show, counted from their own figures, so the sentence and the lines agree
    (issue 34, learner trial: "0~1초인 곳도 있고" above lines of 2.2-44 s)."""
    c = r.check
    n = len(r.outcomes)
    measure = s(f"measure_subject_{c.measure}")  # with its particle: "필요한 GPU 수가 2대 이상입니다"
    if r.bound is not None:
        lo, hi = r.bound
        bound = bound_text(s, c.measure, lo, hi)
        k = sum(inside(o.value, lo, hi) for o in r.outcomes)
        if k == n:
            return s("fold_bound_all" if n > 1 else "fold_bound_one", n=n, measure=measure, bound=bound)
        if k:
            return s("fold_bound_some", n=n, k=k, measure=measure, bound=bound)
        first = sum(inside(o.ttft_s, lo, hi) for o in r.outcomes) if c.measure == "total" else 0
        said = s("fold_bound_none" if n > 1 else "fold_bound_not_one", measure=measure, bound=bound)
        if first:
            said += " " + s("fold_bound_first", n=n, k=first, measure=s("measure_subject_ttft"), bound=bound)
        return said
    k = sum(o.outcome == "holds" for o in r.outcomes)
    kind = "time" if c.measure in ("ttft", "total") else "speed" if "tokens" in c.measure else "amount"
    name = s(f"measure_name_{c.measure}")
    more = s(f"fold_{kind}_{c.expect}", measure=name)
    less = s(f"fold_{kind}_{'lower' if c.expect == 'higher' else 'higher'}", measure=name)
    if k == n:
        return s("fold_versus_all" if n > 1 else "fold_versus_one", n=n, what=more)
    if k:
        return s("fold_versus_some", n=n, k=k, what=more)
    return s("fold_versus_none", what=less)


def fold_items(s: Strings, catalog: Catalog, lang: str, term: content.Term, results: Mapping[str, claims.ClaimResult]
               ) -> list[tuple[str, str | None, list[str]]]:
    """The fold's items in the page's order: (the claim's label, what its set-ups show, the set-up lines). A set-up
    check whose set-ups and figures were all shown under one claim above says where instead of repeating them
    (learner trial: the same Loop-against-plain line stood under four claims in a fold 9 phone screens long).""" 
    seen: dict[str, str] = {}
    out = []
    for where, obj, c in term.checks():
        if c.id not in results:
            continue
        r = results[c.id]
        label = claim_label(s, term, where, obj, c)
        lines = [outcome_line(s, catalog, lang, r, o) for o in r.outcomes]
        if all(x in seen for x in lines) and len({seen[x] for x in lines}) == 1:
            out.append((label, None, [s("fold_same", where=md(seen[lines[0]]))]))
            continue
        for x in lines:
            seen.setdefault(x, label)
        if r.bound is None and len(lines) == 1:  # one comparison: its line says both figures; a sentence over it
            # repeated them in words ("처음 설정이 바꾼 설정보다 더 오래 걸립니다"), except that the claim does not hold
            said = lines[0] if r.outcomes[0].outcome == "holds" else s("fold_unlike", line=lines[0])
            out.append((label, None, [said]))
            continue
        # under the sentence that names the measure, each line without it ("Llama 3.1 70B: 7.7초")
        out.append((label, finding(s, r), [outcome_line(s, catalog, lang, r, o, bare=True) for o in r.outcomes]))
    return out


def fold_texts(s: Strings, catalog: Catalog, lang: str, term: content.Term, results: Mapping[str, claims.ClaimResult]) -> list[str]:
    """Every sentence the fold shows, for the page's word list above it ("4비트(Q4_K_M)", "MoE" are met there)."""
    out = [s("fold_intro"), defaults_line(s, catalog, lang)]
    for _label, said, lines in fold_items(s, catalog, lang, term, results):
        out += ([said] if said else []) + lines
    return out


def fold(s: Strings, catalog: Catalog, lang: str, term: content.Term, results: Mapping[str, claims.ClaimResult]) -> None:
    """One closed expander at the page's end: every check of the entry, in the page's order; under each claim
    what its set-ups show, then each set-up in a few words with its figures. The notes are said once, above."""
    items = fold_items(s, catalog, lang, term, results)
    if not items:
        return
    with st.expander(s("fold_heading"), icon=":material/calculate:", key=FOLD_KEY):
        st.caption(s("fold_intro") + " " + defaults_line(s, catalog, lang))
        blocks, last = [], None
        for label, said, lines in items:
            head = ""
            if label != last:  # the claim's label and what its set-ups show in one paragraph, the set-ups under it
                head = f"**{md(label)}**"
                last = label
            lead = " ".join(x for x in (head, said or "") if x)
            blocks.append((f"{lead}\n\n" if lead else "") + "\n".join(f"- {x}" for x in lines))
        st.markdown("\n\n".join(blocks))  # one block: a markdown element per claim added its own margins
