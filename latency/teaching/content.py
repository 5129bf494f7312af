"""Term entries: ``content/terms/<term-id>.<lang>.yaml`` → validated, typed, frozen objects.

One file per term and language, so each language loads on its own: a broken Korean file never
breaks the English page and vice versa. Terms and languages are discovered from the file names,
so adding a term (or a language listed in ``latency.language.i18n.LANGS``) means adding files, not code.
The schema is documented in ``content/README.md``.

Public API (pure, cache-free; pages cache with ``files_signature()`` in the key):

* ``term_ids()``, ``has_term(term_id, lang)``, ``load_term(term_id, lang) -> Term``
* ``use_case_budgets(lang, term_id) -> list[UseCase]``: latency budgets stated by the entry
* ``comparison_classes(lang, term_id) -> list[ComparisonClass]``: the at-a-glance model classes
* ``check() -> list[ContentError]``; ``python -m latency.content check`` prints them all.

Every problem is a ``ContentError(file, path, problem)``, e.g.
``inference-latency.en.yaml: examples.items[2].budget_s: expected a number of seconds, found text '0.2 s' (line 41)``.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import os
import re
import sys
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any, Callable, Generic, NamedTuple, Sequence, TypeVar

import yaml

from latency.language.errors import ContentError
from latency.language.i18n import CONTENT_DIR, DEFAULT_LANG, LANGS

TERMS_DIR = CONTENT_DIR / "terms"
DEFAULT_TERM = "inference-latency"
REFERENCE_LANG = DEFAULT_LANG  # other languages must match this file's structure (ids, numbers, links)
MEASURES = ("ttft", "total")  # ttft: time until the first part of the answer; total: until the whole answer
FIGURE_KINDS = ("target", "observed", "sla")
JUMP_TARGETS = ("uses", "role_tips", "misconceptions", "phrases", "related", "read_next")
# claim checks (content/README.md "Claim checks"): what a check measures, how it compares, which row
CHECK_MEASURES = ("ttft", "total", "tokens_per_s", "server_tokens_per_s", "memory_gb", "devices")
CHECK_EXPECT = ("lower", "higher")
CHECK_ROWS = ("size", "latency", "hardware", "deployment")
REPRESENTATIVE = "representative"  # scenarios of latency.teaching.explain.SCENARIOS (the How page's set-ups)
TOOL_PAGES = ("estimator", "tradeoffs", "how-it-works")
TOOL_VIEWS = {"tradeoffs": ("map", "concurrency", "cost", "memory", "tornado"), "estimator": ("timeline", "feel"),
              "how-it-works": ()}

_TERM_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_ITEM_ID = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")
_URL = re.compile(r"^https?://[^\s()<>\[\]\"'`]+$")
_HTTPS = re.compile(r"^https://[a-z0-9.-]+\.[a-z]{2,}(?:[/?#][^\s()<>\[\]\"'`]*)?$", re.IGNORECASE)
_FILE_NAME = re.compile(r"^(?P<term>[^.]+)\.(?P<lang>[^.]+)\.yaml$")

T = TypeVar("T")
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # yaml.safe_load's loader, libyaml's C build if present


# --------------------------------------------------------------------------- typed content
Scenario = tuple[tuple[str, Any], ...]
"""A set-up as sorted (URL key, value) pairs: hashable, so entries stay frozen and cacheable."""


@dataclass(frozen=True)
class Bound:
    min: float | None
    max: float | None

    def contains(self, value: float) -> bool:
        return (self.min is None or self.min <= value) and (self.max is None or value <= self.max)


@dataclass(frozen=True)
class Check:
    """A claim the estimator can test (content/README.md, "Claim checks")."""

    id: str
    row: str | None  # comparison classes only: the table row it tests
    measure: str  # one of CHECK_MEASURES
    scenarios: tuple[Scenario, ...] | str  # set-ups, or REPRESENTATIVE
    bound: Bound | None  # relation (a): the measure lies in [min, max]
    versus: Scenario | None  # relation (b): compared with the scenario with these keys changed ...
    expect: str | None  # ... the measure is "lower" or "higher"
    note: str | None  # what is true and when, in plain words (shown under the claim where the check finds it misleading)
    contrast: bool = False  # the text itself says "in some set-ups, not in others": holding in some is what it claims
    see: str | None = None  # the id of an earlier check whose note explains the same idea: here only a pointer to it


@dataclass(frozen=True)
class Section(Generic[T]):
    """A titled list: ``heading`` plus one or more ``items``."""

    heading: str
    items: tuple[T, ...]
    source: str | None = None


@dataclass(frozen=True)
class Summary:
    heading: str
    text: str
    takeaway: str  # the source's "->" line, shown after an arrow
    source: str | None = None
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class TextBlock:
    heading: str
    text: str
    source: str | None = None
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class Understand:
    heading: str
    question: str
    answer: str
    analogy: TextBlock
    mechanism: TextBlock


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    text: str
    budget_s: float | None  # the latency the example says the use case needs, in seconds
    abandon_s: float | None  # where users start leaving, in seconds
    measure: str | None  # "ttft" or "total": what budget_s is measured against
    source: str | None = None
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class Range:
    min: float
    max: float

    def contains(self, value: float) -> bool:
        return self.min <= value <= self.max


@dataclass(frozen=True)
class ComparisonRows:
    size: str
    latency: str
    hardware: str
    deployment: str


@dataclass(frozen=True)
class ComparisonClass:
    id: str
    name: str  # the table's column header, e.g. "Large LLM (e.g. GPT-4/5)"
    short_name: str  # for legends and bands, e.g. "Large LLM"
    size: str  # source wording
    size_b: Range  # numeric reading, billions of parameters
    latency: str  # source wording
    latency_s: Range  # numeric reading, seconds
    hardware: str
    deployment: str
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class Comparison:
    heading: str
    rows: ComparisonRows
    classes: tuple[ComparisonClass, ...]
    source: str | None = None
    table_note: str | None = None  # what the table's figures rest on (an app-written entry's estimates and their inputs)


@dataclass(frozen=True)
class Question:
    label: str
    target: str  # one of JUMP_TARGETS


@dataclass(frozen=True)
class Use:
    id: str
    name: str
    text: str
    url: str | None
    budget_s: float | None
    measure: str | None
    checks: tuple[Check, ...] = ()
    better: str | None = None  # the use said as the estimator finds it, shown beside it where a check does not hold


@dataclass(frozen=True)
class RoleTip:
    id: str
    role: str
    tip: str
    source: str | None = None


@dataclass(frozen=True)
class Misconception:
    myth: str
    fact: str
    source: str | None = None
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class Misconceptions:
    heading: str
    myth_label: str
    fact_label: str
    items: tuple[Misconception, ...]
    source: str | None = None


@dataclass(frozen=True)
class Figure:
    value_s: float
    kind: str  # target, observed or sla
    label: str
    measure: str


@dataclass(frozen=True)
class Phrase:
    id: str
    text: str
    figure: Figure | None
    source: str | None = None
    checks: tuple[Check, ...] = ()
    better: str | None = None  # the phrase said as the estimator finds it, shown beside it where a check does not hold


@dataclass(frozen=True)
class ToolLink:
    """A link into a tool page on a fitting scenario (content/README.md, "Tool links")."""

    id: str
    page: str  # one of TOOL_PAGES
    label: str
    text: str
    query: Scenario  # URL keys (and `view`)


@dataclass(frozen=True)
class TermLink:
    name: str
    text: str
    term: str | None  # id of the linked term; a link is shown only when that entry exists


@dataclass(frozen=True)
class Term:
    id: str
    lang: str
    file: str
    title: str
    original: str | None  # the term in its original language, shown under the title
    definition: str
    summary: Summary
    understand: Understand
    examples: Section[Example]
    comparison: Comparison
    why_it_matters: Section[str]
    questions: Section[Question]
    uses: Section[Use]
    role_tips: Section[RoleTip]
    misconceptions: Misconceptions
    phrases: Section[Phrase]
    related: Section[TermLink]
    read_next: Section[TermLink]
    seed: str | None = None  # the verbatim source text the entry keeps (exempt from the source rule)
    tools: Section[ToolLink] | None = None

    def headings(self) -> dict[str, str]:
        """Every section heading by section name, in reading order (pages and tests use it)."""
        u = self.understand
        return {
            "summary": self.summary.heading, "understand": u.heading, "question": u.question,
            "analogy": u.analogy.heading, "mechanism": u.mechanism.heading,
            "examples": self.examples.heading, "comparison": self.comparison.heading,
            "why_it_matters": self.why_it_matters.heading, "questions": self.questions.heading,
            "uses": self.uses.heading, "role_tips": self.role_tips.heading,
            "misconceptions": self.misconceptions.heading, "phrases": self.phrases.heading,
            "related": self.related.heading, "read_next": self.read_next.heading,
        }

    def checks(self) -> list[tuple[str, Any, Check]]:
        """Every claim check with where it sits: (path like "examples.items[0]", the object, check)."""
        u = self.understand
        places: list[tuple[str, Any]] = [("summary", self.summary), ("understand.analogy", u.analogy),
                                         ("understand.mechanism", u.mechanism)]
        for name, items in (("examples.items", self.examples.items), ("comparison.classes", self.comparison.classes),
                            ("uses.items", self.uses.items), ("misconceptions.items", self.misconceptions.items),
                            ("phrases.items", self.phrases.items)):
            places += [(f"{name}[{i}]", obj) for i, obj in enumerate(items)]
        return [(where, obj, c) for where, obj in places for c in getattr(obj, "checks", ())]


@dataclass(frozen=True)
class UseCase:
    """A latency budget the entry states for a concrete use, for pages that draw budgets as bands."""

    id: str
    label: str
    budget_s: float
    abandon_s: float | None
    measure: str  # "ttft" (first response) or "total" (whole answer)
    section: str  # where it comes from: examples, uses or phrases


# --------------------------------------------------------------------------- validation machinery
class _Bad:
    """Marks a value that failed validation (the problem is already recorded)."""


BAD = _Bad()


def _fmt_path(path: Sequence[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"text {value!r}"


class _Ctx:
    """Collects every problem of one file, with line numbers from the YAML node tree."""

    def __init__(self, file: Path, root: yaml.Node | None) -> None:
        self.file = file
        self.root = root
        self.errors: list[ContentError] = []

    def node(self, path: Sequence[str | int]) -> yaml.Node | None:
        node = self.root
        for part in path:
            if isinstance(node, yaml.MappingNode):
                nxt = next((v for k, v in node.value if k.value == str(part)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
                nxt = node.value[part]
            else:
                nxt = None
            if nxt is None:
                break
            node = nxt
        return node

    def raw(self, path: Sequence[str | int]) -> str | None:
        node = self.node(path)
        return node.value if isinstance(node, yaml.ScalarNode) and node is not self.root else None

    def fail(self, path: Sequence[str | int], problem: str) -> _Bad:
        node = self.node(path)
        if node is not None and node is not self.root:
            problem += f" (line {node.start_mark.line + 1})"
        self.errors.append(ContentError(self.file, _fmt_path(path), problem))
        return BAD


Parser = Callable[[_Ctx, Any, tuple], Any]


def _text(ctx: _Ctx, value: Any, path: tuple) -> Any:
    if isinstance(value, str):
        return value.strip() if value.strip() else ctx.fail(path, "text is empty")
    raw = ctx.raw(path)
    if isinstance(value, bool):
        return ctx.fail(path, f"expected text, found {_kind(value)}: YAML reads an unquoted {raw or value} "
                              f"as true/false; put the text in quotes: \"{raw or value}\"")
    if isinstance(value, (int, float)):
        return ctx.fail(path, f"expected text, found {_kind(value)}: YAML reads an unquoted {raw or value} "
                              f"as a number; put the text in quotes: \"{raw or value}\"")
    return ctx.fail(path, f"expected text, found {_kind(value)}")


def _pattern(regex: re.Pattern, what: str) -> Parser:
    def parse(ctx: _Ctx, value: Any, path: tuple) -> Any:
        text = _text(ctx, value, path)
        if text is BAD:
            return BAD
        return text if regex.match(text) else ctx.fail(path, f"{text!r} is not a valid {what}")
    return parse


def _choice(options: Sequence[str]) -> Parser:
    def parse(ctx: _Ctx, value: Any, path: tuple) -> Any:
        if value in options:
            return value
        return ctx.fail(path, f"expected one of {list(options)}, found {_kind(value)}")
    return parse


def _flag(ctx: _Ctx, value: Any, path: tuple) -> Any:
    if isinstance(value, bool):
        return value
    return ctx.fail(path, f"expected true or false, found {_kind(value)}")


def _number(ctx: _Ctx, value: Any, path: tuple) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        hint = " (write the number alone, without a unit)" if isinstance(value, str) else ""
        return ctx.fail(path, f"expected a number, found {_kind(value)}{hint}")
    if not math.isfinite(value) or value < 0:
        return ctx.fail(path, f"expected a finite number ≥ 0, found {value}")
    return float(value)


def _nullable(parser: Parser) -> Parser:
    def parse(ctx: _Ctx, value: Any, path: tuple) -> Any:
        return None if value is None else parser(ctx, value, path)
    parse.optional = True  # type: ignore[attr-defined]
    return parse


def _obj(cls: type, spec: dict[str, Parser], rule: Callable[[_Ctx, dict, tuple], None] | None = None,
         what: str = "key") -> Parser:
    """A mapping with exactly the keys of `spec` (nullable ones may be left out) → `cls`."""

    def parse(ctx: _Ctx, value: Any, path: tuple) -> Any:
        if not isinstance(value, dict):
            return ctx.fail(path, f"expected a mapping with keys {list(spec)}, found {_kind(value)}")
        ok = True
        for key in value:
            if key not in spec:
                close = difflib.get_close_matches(str(key), list(spec), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                ctx.fail((*path, str(key)), f"unknown key '{key}'{hint} Allowed here: {', '.join(spec)}")
                ok = False
        out = {}
        for key, parser in spec.items():
            if key not in value and not getattr(parser, "optional", False):
                ctx.fail(path, f"missing {what} '{key}'")
                ok = False
                continue
            out[key] = parser(ctx, value.get(key), (*path, key))
            ok = ok and out[key] is not BAD
        if not ok:
            return BAD
        if rule:
            before = len(ctx.errors)
            rule(ctx, out, path)
            if len(ctx.errors) > before:
                return BAD
        return cls(**out)

    return parse


def _list(item: Parser) -> Parser:
    def parse(ctx: _Ctx, value: Any, path: tuple) -> Any:
        if not isinstance(value, list):
            return ctx.fail(path, f"expected a list, found {_kind(value)}")
        if not value:
            return ctx.fail(path, "the list is empty; at least one item is needed")
        items = [item(ctx, v, (*path, i)) for i, v in enumerate(value)]
        if any(i is BAD for i in items):
            return BAD
        seen: dict[str, int] = {}
        for i, it in enumerate(items):
            ident = getattr(it, "id", None)
            if ident is not None:
                if ident in seen:
                    return ctx.fail((*path, i, "id"), f"duplicate id '{ident}' (also used by item [{seen[ident]}])")
                seen[ident] = i
        return tuple(items)
    return parse


def _budget_rule(ctx: _Ctx, v: dict, path: tuple) -> None:
    """A budget needs its measure, and only a budget has one; users leave after the budget, not before."""
    if v["budget_s"] is not None and v["measure"] is None:
        ctx.fail((*path, "measure"), f"budget_s is set, so measure is required: one of {list(MEASURES)}")
    if v["budget_s"] is None and v["measure"] is not None:
        ctx.fail((*path, "measure"), "measure is set but budget_s is empty; give both or neither")
    abandon = v.get("abandon_s")
    if abandon is not None:
        if v["budget_s"] is None:
            ctx.fail((*path, "abandon_s"), "abandon_s needs a budget_s to go with it")
        elif abandon < v["budget_s"]:
            ctx.fail((*path, "abandon_s"), f"abandon_s ({abandon:g}) is smaller than budget_s ({v['budget_s']:g})")


def _range_rule(ctx: _Ctx, v: dict, path: tuple) -> None:
    if v["min"] > v["max"]:
        ctx.fail((*path, "min"), f"min ({v['min']:g}) is larger than max ({v['max']:g})")


def _default(parser: Parser, empty: Any) -> Parser:
    """Optional: a left-out (or null) value becomes `empty` (e.g. no checks → ())."""
    def parse(ctx: _Ctx, value: Any, path: tuple) -> Any:
        return empty if value is None else parser(ctx, value, path)
    parse.optional = True  # type: ignore[attr-defined]
    return parse


_SCENARIO_SPECS: dict[str, Any] = {}


class _Budget(NamedTuple):
    """A stand-in use case for the scenario defaults while validating (the budget is not a URL key here)."""

    budget_s: float
    measure: str


def _scenario_tools() -> dict[str, Any]:
    """URL specs, slider sizes and distance steps of the estimator page, loaded once (catalog files)."""
    if not _SCENARIO_SPECS:
        from latency.estimation import catalog as catalog_mod, places, scenario, sizing  # lazy: only entries with checks or tools

        cat = catalog_mod.load_catalog()
        stops = places.load_stops()
        case = {"support_chatbot": _Budget(1.0, "total")}
        specs = scenario.specs(cat, scenario.defaults(stops, case), list(case))
        specs.pop("use_case")
        _SCENARIO_SPECS.update(specs=specs, sizes=sizing.size_steps(cat), distances=places.distance_steps(stops))
    return _SCENARIO_SPECS


def _scenario(extra: Sequence[str] = ()) -> Parser:
    """A mapping of the estimator's URL keys → sorted (key, value) pairs, each a value the page can show."""

    def parse(ctx: _Ctx, value: Any, path: tuple) -> Any:
        if not isinstance(value, dict) or not value:
            return ctx.fail(path, f"expected a mapping of URL keys to values, found {_kind(value)}")
        try:
            tools = _scenario_tools()
        except ContentError as err:
            return ctx.fail(path, f"cannot check the scenario: {err}")
        specs = tools["specs"]
        out, ok = [], True
        for key, raw in value.items():
            where = (*path, str(key))
            if key in extra:
                out.append((key, raw))
                continue
            if key == "use_case":
                ok = _pattern(_ITEM_ID, "use case id")(ctx, raw, where) is not BAD and ok
                out.append((key, raw))
                continue
            if key not in specs:
                close = difflib.get_close_matches(str(key), [*specs, *extra], n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                ok = ctx.fail(where, f"unknown scenario key '{key}'{hint} Allowed: {', '.join([*specs, 'use_case', *extra])}") and False
                continue
            parsed, reason = specs[key].parse(str(raw))
            if reason:
                ok = ctx.fail(where, f"{raw!r} is not accepted ({reason.replace('_', ' ')})") and False
                continue
            if key == "model_size_b" and not any(math.isclose(parsed, x, rel_tol=1e-9) for x in tools["sizes"]):
                ok = ctx.fail(where, f"{raw!r} is not a slider step; use one of {', '.join(f'{x:g}' for x in tools['sizes'])}") and False
                continue
            if key == "distance_km" and parsed not in tools["distances"]:
                ok = ctx.fail(where, f"{raw!r} is not a distance step; use one of {', '.join(f'{x:g}' for x in tools['distances'])}") and False
                continue
            out.append((key, parsed))
        return tuple(sorted(out)) if ok else BAD

    return parse


def _bound_rule(ctx: _Ctx, v: dict, path: tuple) -> None:
    if v["min"] is None and v["max"] is None:
        ctx.fail(path, "a bound needs min, max or both")
    elif v["min"] is not None and v["max"] is not None and v["min"] > v["max"]:
        ctx.fail((*path, "min"), f"min ({v['min']:g}) is larger than max ({v['max']:g})")


def _scenarios(ctx: _Ctx, value: Any, path: tuple) -> Any:
    if value == REPRESENTATIVE:
        return REPRESENTATIVE
    if not isinstance(value, list):
        return ctx.fail(path, f"expected a list of scenarios or '{REPRESENTATIVE}', found {_kind(value)}")
    return _list(_scenario())(ctx, value, path)


def _check_rule(in_class: bool) -> Callable[[_Ctx, dict, tuple], None]:
    def rule(ctx: _Ctx, v: dict, path: tuple) -> None:
        if in_class and v["row"] is None:
            ctx.fail((*path, "row"), f"a check on a comparison class needs row: one of {list(CHECK_ROWS)}")
        if not in_class and v["row"] is not None:
            ctx.fail((*path, "row"), "row is only for checks on comparison.classes")
        if v["scenarios"] == REPRESENTATIVE:
            if not (in_class and v["row"] == "latency" and v["measure"] == "total"):
                ctx.fail((*path, "scenarios"), f"'{REPRESENTATIVE}' is only for comparison classes with row: latency, measure: total")
            if v["bound"] is not None or v["versus"] is not None or v["expect"] is not None:
                ctx.fail(path, f"with scenarios: {REPRESENTATIVE} the bound is the class's latency_s; leave out bound, versus and expect")
            return
        if (v["bound"] is None) == (v["versus"] is None):
            ctx.fail(path, "give exactly one relation: bound (the value lies in min..max) or versus + expect")
        if (v["versus"] is None) != (v["expect"] is None):
            ctx.fail((*path, "expect" if v["versus"] is not None else "versus"),
                     f"versus and expect go together: expect is one of {list(CHECK_EXPECT)}")
    return rule


def _checks(in_class: bool = False) -> Parser:
    return _default(_list(_obj(Check, {
        "id": _pattern(_ITEM_ID, "id (lower-case letters, digits and _)"), "row": _nullable(_choice(CHECK_ROWS)),
        "measure": _choice(CHECK_MEASURES), "scenarios": _scenarios,
        "bound": _nullable(_obj(Bound, {"min": _nullable(_number), "max": _nullable(_number)}, _bound_rule)),
        "versus": _nullable(_scenario()), "expect": _nullable(_choice(CHECK_EXPECT)), "note": _nullable(_text),
        "contrast": _default(_flag, False), "see": _default(_nullable(_pattern(_ITEM_ID, "see (the id of an earlier check)")), None),
    }, _check_rule(in_class))), ())


def _tool_rule(ctx: _Ctx, v: dict, path: tuple) -> None:
    view = dict(v["query"]).get("view")
    if view is not None and view not in TOOL_VIEWS[v["page"]]:
        ctx.fail((*path, "query", "view"), f"{view!r} is not a view of the {v['page']} page; "
                                           f"use one of {list(TOOL_VIEWS[v['page']]) or 'none'}")


_ID = _pattern(_ITEM_ID, "id (lower-case letters, digits and _)")
_TERM_REF = _pattern(_TERM_ID, "term id (lower-case letters, digits and -)")
_URL_P = _pattern(_URL, "web address (http:// or https://, no spaces)")
_MEASURE = _nullable(_choice(MEASURES))
_RANGE = _obj(Range, {"min": _number, "max": _number}, _range_rule)

_SOURCE = _nullable(_pattern(_HTTPS, "source address (https://, no spaces)"))


def _section(item: Parser) -> Parser:
    return _obj(Section, {"heading": _text, "items": _list(item), "source": _SOURCE})


def _block(**extra: Parser) -> Parser:
    return _obj(TextBlock, {"heading": _text, "text": _text, "source": _SOURCE, "checks": _checks(), **extra})


_TERM_SPEC: dict[str, Parser] = {
    "title": _text,
    "original": _nullable(_text),
    "seed": _nullable(_text),
    "definition": _text,
    "summary": _obj(Summary, {"heading": _text, "text": _text, "takeaway": _text, "source": _SOURCE,
                              "checks": _checks()}),
    "understand": _obj(Understand, {
        "heading": _text, "question": _text, "answer": _text, "analogy": _block(), "mechanism": _block(),
    }),
    "examples": _section(_obj(Example, {
        "id": _ID, "title": _text, "text": _text, "budget_s": _nullable(_number),
        "abandon_s": _nullable(_number), "measure": _MEASURE, "source": _SOURCE, "checks": _checks(),
    }, _budget_rule)),
    "comparison": _obj(Comparison, {
        "heading": _text,
        "rows": _obj(ComparisonRows, {"size": _text, "latency": _text, "hardware": _text, "deployment": _text}),
        "table_note": _default(_nullable(_text), None),
        "classes": _list(_obj(ComparisonClass, {
            "id": _ID, "name": _text, "short_name": _text, "size": _text, "size_b": _RANGE,
            "latency": _text, "latency_s": _RANGE, "hardware": _text, "deployment": _text,
            "checks": _checks(in_class=True),
        })),
        "source": _SOURCE,
    }),
    "why_it_matters": _section(_text),
    "questions": _section(_obj(Question, {"label": _text, "target": _choice(JUMP_TARGETS)})),
    "uses": _section(_obj(Use, {
        "id": _ID, "name": _text, "text": _text, "url": _nullable(_URL_P),
        "budget_s": _nullable(_number), "measure": _MEASURE, "checks": _checks(), "better": _default(_nullable(_text), None),
    }, _budget_rule)),
    "role_tips": _section(_obj(RoleTip, {"id": _ID, "role": _text, "tip": _text, "source": _SOURCE})),
    "misconceptions": _obj(Misconceptions, {
        "heading": _text, "myth_label": _text, "fact_label": _text,
        "items": _list(_obj(Misconception, {"myth": _text, "fact": _text, "source": _SOURCE, "checks": _checks()})),
        "source": _SOURCE,
    }),
    "phrases": _section(_obj(Phrase, {
        "id": _ID, "text": _text,
        "figure": _nullable(_obj(Figure, {
            "value_s": _number, "kind": _choice(FIGURE_KINDS), "label": _text, "measure": _choice(MEASURES),
        })),
        "source": _SOURCE, "checks": _checks(), "better": _default(_nullable(_text), None),
    })),
    "related": _section(_obj(TermLink, {"name": _text, "text": _text, "term": _nullable(_TERM_REF)})),
    "read_next": _section(_obj(TermLink, {"name": _text, "text": _text, "term": _nullable(_TERM_REF)})),
    "tools": _nullable(_section(_obj(ToolLink, {
        "id": _ID, "page": _choice(TOOL_PAGES), "label": _text, "text": _text, "query": _scenario(extra=("view",)),
    }, _tool_rule))),
}


def _duplicate_keys(ctx: _Ctx, node: yaml.Node | None, path: tuple = ()) -> None:
    """YAML keeps only the last of two equal keys, silently; name both lines instead."""
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            line = key.start_mark.line + 1
            if key.value in seen:
                ctx.errors.append(ContentError(ctx.file, _fmt_path((*path, key.value)),
                                               f"key '{key.value}' appears twice (lines {seen[key.value]} and {line})"))
            seen.setdefault(key.value, line)
            _duplicate_keys(ctx, value, (*path, key.value))
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _duplicate_keys(ctx, value, (*path, i))


# --------------------------------------------------------------------------- files
def _split_name(file: Path) -> tuple[str, str] | None:
    m = _FILE_NAME.match(file.name)
    return (m["term"], m["lang"]) if m else None


def term_file(term_id: str, lang: str, terms_dir: Path | None = None) -> Path:
    return (terms_dir or TERMS_DIR) / f"{term_id}.{lang}.yaml"


def term_ids(terms_dir: Path | None = None) -> list[str]:
    """Every term that has at least one well-named file in a supported language, sorted."""
    ids = set()
    for file in (terms_dir or TERMS_DIR).glob("*.yaml"):
        parts = _split_name(file)
        if parts and parts[1] in LANGS and _TERM_ID.match(parts[0]):
            ids.add(parts[0])
    return sorted(ids)


def has_term(term_id: str, lang: str, terms_dir: Path | None = None) -> bool:
    """Whether an entry file exists for this term and language (it may still be broken)."""
    return bool(_TERM_ID.match(term_id)) and lang in LANGS and term_file(term_id, lang, terms_dir).is_file()


def files_signature(folder: Path | None = None) -> str:
    """A digest of (path, mtime) of every YAML file under ``folder`` (default: all of content/,
    catalogs included): put it in a cache key so an edited, added, removed or broken file is picked
    up while the app runs. A short string, not the list itself: st.cache_data hashes its arguments
    on every call, and hashing the 43-file list took 1.4 ms a call (several calls a rerun);
    os.walk rather than Path.rglob (1.9 ms a rerun)."""
    root = str(folder or CONTENT_DIR)
    items = []
    for here, dirs, files in os.walk(root):
        dirs.sort()
        rel = os.path.relpath(here, root)
        for name in sorted(files):
            if name.endswith(".yaml"):
                items.append(f"{'' if rel == '.' else rel + '/'}{name}\t{os.stat(os.path.join(here, name)).st_mtime_ns}")
    return hashlib.sha1("\n".join(items).encode("utf-8")).hexdigest()


def _validate(file: Path, term_id: str, lang: str) -> tuple[Term | None, list[ContentError]]:
    """Parse and validate one file on its own; returns the term (if valid) and every problem."""
    ctx = _Ctx(file, None)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [ContentError(file, "", f"file is missing: there is no {lang} entry for '{term_id}'")]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [ContentError(file, "", f"cannot read the file: {exc}")]
    try:
        ctx.root = yaml.compose(text, Loader=_SAFE_LOADER)
        data = yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506  (a safe loader: yaml.safe_load's, in C when available)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        return None, [ContentError(file, where, f"invalid YAML: {problem}" + (f" ({context})" if context else ""))]
    if data is None:
        return None, [ContentError(file, "", "the file is empty")]
    if not isinstance(data, dict):
        return None, [ContentError(file, "", f"expected a mapping of sections ({', '.join(_TERM_SPEC)}), found {_kind(data)}")]
    _duplicate_keys(ctx, ctx.root)
    values = _obj(dict, _TERM_SPEC, what="section")(ctx, data, ())
    if values is BAD or ctx.errors:
        return None, ctx.errors
    return Term(id=term_id, lang=lang, file=str(file), **values), []


# fields that must be equal in every language: identity, numbers, links; everything else is text
_STRUCTURAL = {"id", "budget_s", "abandon_s", "measure", "url", "term", "target", "value_s", "kind", "min", "max",
               "seed", "row", "scenarios", "bound", "versus", "expect", "page", "query"}


def _structure_diff(here: Any, there: Any, path: tuple, out: list[tuple[tuple, str]]) -> None:
    if isinstance(here, tuple) and isinstance(there, tuple):
        if len(here) != len(there):
            out.append((path, f"{len(here)} items here but {len(there)} in the {REFERENCE_LANG} file"))
            return
        for i, (a, b) in enumerate(zip(here, there)):
            _structure_diff(a, b, (*path, i), out)
    elif is_dataclass(here) and is_dataclass(there):
        for f in fields(here):
            if f.name in ("id", "lang", "file") and not path:
                continue  # the term's own identity comes from the file name
            a, b = getattr(here, f.name), getattr(there, f.name)
            if f.name in _STRUCTURAL:
                if a != b:
                    out.append(((*path, f.name), f"{a!r} here but {b!r} in the {REFERENCE_LANG} file"))
            else:
                _structure_diff(a, b, (*path, f.name), out)
    elif (here is None) != (there is None) and not (isinstance(here, str) or isinstance(there, str)):
        out.append((path, f"{'empty' if here is None else 'given'} here but "
                          f"{'empty' if there is None else 'given'} in the {REFERENCE_LANG} file"))


def _compare(term: Term, ref: Term) -> list[ContentError]:
    diffs: list[tuple[tuple, str]] = []
    _structure_diff(term, ref, (), diffs)
    ref_name = Path(ref.file).name
    return [ContentError(term.file, _fmt_path(p), f"{msg} ({ref_name}); every language needs the same ids, "
                                                  "numbers and links") for p, msg in diffs]


def _problems(term_id: str, lang: str, terms_dir: Path | None) -> tuple[Term | None, list[ContentError]]:
    file = term_file(term_id, lang, terms_dir)
    if lang not in LANGS:
        return None, [ContentError(file, "", f"unknown language '{lang}'; supported: {', '.join(LANGS)}")]
    if not _TERM_ID.match(term_id):
        return None, [ContentError(file, "", f"'{term_id}' is not a valid term id (lower-case letters, digits and -)")]
    term, errors = _validate(file, term_id, lang)
    if term is not None and lang != REFERENCE_LANG and term_file(term_id, REFERENCE_LANG, terms_dir).is_file():
        ref, ref_errors = _validate(term_file(term_id, REFERENCE_LANG, terms_dir), term_id, REFERENCE_LANG)
        if ref is not None:  # a broken reference file is reported on its own page, not here
            errors = _compare(term, ref)
            term = None if errors else term
    return term, errors


def load_term(term_id: str, lang: str, terms_dir: Path | None = None) -> Term:
    """The validated entry of `term_id` in `lang`; raises the first ContentError (with a count of the rest)."""
    term, errors = _problems(term_id, lang, terms_dir)
    if errors:
        first = errors[0]
        more = len(errors) - 1
        if more:
            raise ContentError(first.file, first.path, f"{first.problem} (and {more} more problem"
                                                       f"{'s' if more > 1 else ''} in this file; "
                                                       "run `python -m latency.content check`)")
        raise first
    assert term is not None
    return term


def use_case_budgets(lang: str, term_id: str = DEFAULT_TERM, terms_dir: Path | None = None) -> list[UseCase]:
    """Latency budgets the entry states for concrete uses, in entry order.

    * examples with a ``budget_s`` (code autocomplete 0.2 s ttft, live captions 1 s ttft,
      support chatbot 1 s total with abandonment at 5 s; exam grading states no number);
    * real-world uses with a ``budget_s`` (GitHub Copilot 0.5 s ttft);
    * meeting phrases whose figure is an ``sla`` (sla_2s: 2 s total). Other phrase figures are a
      general goal (1 s) or a measurement (3 s), not a budget of a use case, so they are left out.
    """
    term = load_term(term_id, lang, terms_dir)
    out = [UseCase(e.id, e.title, e.budget_s, e.abandon_s, e.measure, "examples")
           for e in term.examples.items if e.budget_s is not None]
    out += [UseCase(u.id, u.name, u.budget_s, None, u.measure, "uses")
            for u in term.uses.items if u.budget_s is not None]
    out += [UseCase(p.id, p.figure.label, p.figure.value_s, None, p.figure.measure, "phrases")
            for p in term.phrases.items if p.figure is not None and p.figure.kind == "sla"]
    return out  # type: ignore[arg-type]  (budgets and measures are set whenever selected)


def comparison_classes(lang: str, term_id: str = DEFAULT_TERM, terms_dir: Path | None = None) -> list[ComparisonClass]:
    """The at-a-glance model classes with source wording and numeric ranges (size_b, latency_s)."""
    return list(load_term(term_id, lang, terms_dir).comparison.classes)


_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_DIGIT = re.compile(r"(?<![A-Za-z\-])\d")  # a number, not part of a name like GPT-4 or H100
_NUMBER_FIELDS = ("text", "takeaway", "answer", "tip", "myth", "fact")
PAGES_DIR = CONTENT_DIR.parent / "pages"


def _walk(value: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """(path, value) of every leaf of a term, dataclasses and tuples opened."""
    if is_dataclass(value):
        return [leaf for f in fields(value) for leaf in _walk(getattr(value, f.name), (*path, f.name))]
    if isinstance(value, tuple) and not (value and isinstance(value[0], tuple) and len(value[0]) == 2
                                         and isinstance(value[0][0], str)):
        return [leaf for i, v in enumerate(value) for leaf in _walk(v, (*path, i))]
    return [(path, value)]


def _holders(value: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every object of a term that can carry a `source` (and its path)."""
    out = []
    if is_dataclass(value):
        if any(f.name == "source" for f in fields(value)):
            out.append((path, value))
        for f in fields(value):
            out += _holders(getattr(value, f.name), (*path, f.name))
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            out += _holders(v, (*path, i))
    return out


def cross_problems(term: Term, known_terms: Sequence[str]) -> list[ContentError]:
    """Rules across files and over the whole text: no Hangul outside Korean, every internal link
    resolves, every number has a source (or a claim check, or the entry keeps a seed text)."""
    errors = []
    skip = {"id", "lang", "file", "seed", "scenarios", "versus", "query", "url", "source", "term"}
    if term.lang != "ko":
        for path, value in _walk(term):
            if isinstance(value, str) and not (set(path) & skip) and _HANGUL.search(value):
                errors.append(ContentError(term.file, _fmt_path(path), f"Korean text on the {term.lang} page: {value[:40]!r}"))
    for section in ("related", "read_next"):
        for i, link in enumerate(getattr(term, section).items):
            if link.term and link.term not in known_terms:
                errors.append(ContentError(term.file, f"{section}.items[{i}].term",
                                           f"links to '{link.term}', but content/terms has no such entry; "
                                           f"known: {', '.join(known_terms)}"))
    for i, tool in enumerate(term.tools.items if term.tools else ()):
        if not (PAGES_DIR / f"{tool.page}.py").is_file():
            errors.append(ContentError(term.file, f"tools.items[{i}].page", f"there is no page pages/{tool.page}.py"))
    seen: list[str] = []
    for where, _obj, c in term.checks():  # an idea is explained once: a later mention points to the first note
        if c.see is not None and c.see not in seen:
            errors.append(ContentError(term.file, f"{where}.checks ({c.id}).see",
                                       f"'{c.see}' is not a check earlier on the page; see: names the check whose note comes first"))
        if c.see is not None and c.note is not None:
            errors.append(ContentError(term.file, f"{where}.checks ({c.id})",
                                       "give either note (the idea explained here) or see (explained under an earlier check), not both"))
        seen.append(c.id)
    if term.seed is None:
        for path, obj in _holders(term):
            if obj.source or getattr(obj, "checks", ()):
                continue
            texts = [getattr(obj, f.name) for f in fields(obj) if f.name in _NUMBER_FIELDS]
            if isinstance(obj, Section):
                texts += [v for v in obj.items if isinstance(v, str)]
            if any(_DIGIT.search(t) for t in texts):
                errors.append(ContentError(term.file, _fmt_path(path) or "(top)",
                                           "states a number but has no source: add source: https://… or a claim check"))
    return errors


def _one_way_links(loaded: dict[tuple[str, str], Term]) -> list[ContentError]:
    """A links to B (related or read_next) but B's related does not link back to A: reported on B."""
    errors = []
    for (term_id, lang), term in sorted(loaded.items()):
        targets = {link.term for link in (*term.related.items, *term.read_next.items) if link.term}
        for target in sorted(targets - {term_id}):
            other = loaded.get((target, lang))
            if other is not None and term_id not in {link.term for link in other.related.items}:
                errors.append(ContentError(other.file, "related.items",
                                           f"'{term_id}' links here, but this entry does not link back; "
                                           f"add {{name: ..., text: ..., term: {term_id}}} to related"))
    return errors


def check(terms_dir: Path | None = None) -> list[ContentError]:
    """Every problem of every term file: stray names, unknown languages, schema, ko/en mismatches, gaps."""
    directory = terms_dir or TERMS_DIR
    errors: list[ContentError] = []
    files = sorted(directory.glob("*.yaml"))
    found: dict[str, set[str]] = {}
    loaded: dict[tuple[str, str], Term] = {}
    for file in files:
        parts = _split_name(file)
        if parts is None:
            errors.append(ContentError(file, "", "file name must be <term-id>.<lang>.yaml, "
                                                 f"e.g. {DEFAULT_TERM}.{DEFAULT_LANG}.yaml"))
            continue
        term_id, lang = parts
        term, problems = _problems(term_id, lang, directory)
        errors += problems
        if term is not None:
            errors += cross_problems(term, term_ids(directory))
            loaded[(term_id, lang)] = term
        found.setdefault(term_id, set()).add(lang)
    errors += _one_way_links(loaded)
    for term_id, langs in sorted(found.items()):
        if not _TERM_ID.match(term_id):
            continue
        for lang in LANGS:
            if lang not in langs:
                errors.append(ContentError(term_file(term_id, lang, directory), "",
                                           f"file is missing: '{term_id}' has no {lang} entry"))
    if not files:
        errors.append(ContentError(directory, "", "no term files found"))
    return errors


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] != ["check"] or len(args) > 2:
        print("usage: python -m latency.content check [TERMS_DIR]", file=sys.stderr)
        return 2
    directory = Path(args[1]) if len(args) == 2 else None
    errors = check(directory)
    if directory is None:  # the code's UI keys and placeholders against content/ui (latency/language/content_check.py)
        from latency.language.content_check import check_ui

        errors += check_ui()
    if directory is None:  # the whole content folder: the lesson and its quiz too
        from latency.teaching import lesson, quiz

        errors += lesson.check() + quiz.check()
    if directory is None:  # one vocabulary: no refused synonym in the app's own text (content/vocabulary.yaml)
        from latency.language import vocabulary

        errors += vocabulary.problems()
    for err in errors:
        print(err)
    if errors:
        print(f"{len(errors)} problem{'s' if len(errors) > 1 else ''} found.", file=sys.stderr)
        return 1
    n = len(list((directory or TERMS_DIR).glob("*.yaml")))
    ui = "" if directory else ", and the code's UI keys and placeholders in content/ui"
    print(f"OK: {n} term file{'s' if n != 1 else ''} in {directory or TERMS_DIR}{ui}, no problems.")
    if directory is None:
        print(f"OK: the lesson and {len(quiz.question_files())} quiz questions, every answer computed and clear.")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
