"""The entry and the estimator side by side (issue 26, item 2), on every term entry in every language:
each estimator check at most once a page, the set-ups' specs (chip names, formats, bits per weight) folded
behind a details control, and every comparison names both sides."""

from __future__ import annotations

import re

import pytest

from latency.estimation.catalog import load_catalog
from latency.language import i18n
from latency.language.i18n import LANGS
from latency.teaching import claims, content
from tests.conftest import in_order, run_page

TERM_LANGS = [(t, lang) for t in content.term_ids() for lang in LANGS]
ARROW = " → "  # a check's sentence: set-up → what the estimate finds
BLANK_SIDE = re.compile(r"(비교 대상|compared with)\s*→")


def _captions(node):
    """(caption text, inside an expander) in page order."""
    return ((str(el.value), inside) for el, inside in in_order(node) if getattr(el, "type", "") == "caption")


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_each_check_once_specs_folded_and_both_sides_named(term_id, lang):
    at = run_page("learn", lang, {"term": term_id})
    assert not at.exception
    captions = list(_captions(at.main))
    sentences = [t for t, folded in captions if ARROW in t and not folded]
    assert sentences, "no estimator check on the page"
    assert len(sentences) == len(set(sentences)), [t[:80] for t in sentences if sentences.count(t) > 1][:2]
    assert not [t for t in sentences if BLANK_SIDE.search(t)], [t[:120] for t in sentences if BLANK_SIDE.search(t)][:2]
    assert not [t for t, folded in captions if not folded and "bpw" in t]
    # a chip's catalog name stands in a sentence only where the compared set-up uses another chip;
    # each check's chip is named in the details folded below it
    catalog = load_catalog()
    term = content.load_term(term_id, lang)
    results = claims.run_term(term, catalog)
    folded_text = "\n".join(t for t, folded in captions if folded)
    for r in results.values():
        sides = [r.shown.values] + ([r.counter.values] if r.counter is not None else []) + \
                ([r.shown.other_values] if r.bound is None and r.shown.other_values else [])
        chips = {v["hardware"] for v in sides}
        name = catalog.hardware[r.shown.values["hardware"]].label(lang)
        assert name in folded_text, (r.check.id, name)
        archs = {v["arch"] for v in sides}
        if len(archs) > 1:  # a Loop or MoE model against a standard one: the sentence names both kinds
            s = i18n.strings("learn", lang)
            text = next(t for t in sentences if t.startswith(f"{r.shown.values['model_size_b']:g}") or
                        s(f"arch_{r.shown.values['arch']}") in t)
            assert all(s(f"arch_{a}") in text for a in archs), (r.check.id, text)
        if len(chips) == 1:
            assert not [t for t in sentences if name in t and t.startswith(f"{r.shown.values['model_size_b']:g}")], r.check.id


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_no_fact_label_on_a_claim_the_app_then_rejects_on_any_entry(term_id, lang):
    """The misconception cards of every entry: the entry's 'fact' label only where every estimator check on
    that fact holds (verdicts straight from latency.estimate); otherwise the card says 'what the entry says'."""
    from latency.language import i18n

    term = content.load_term(term_id, lang)
    results = claims.run_term(term, load_catalog())
    at = run_page("learn", lang, {"term": term_id})
    assert not at.exception
    norm = lambda x: x.replace("\\", "").replace("'", "")  # noqa: E731  (markdown escapes)
    label = term.misconceptions.fact_label
    for m in term.misconceptions.items:
        # the card: its label on the first line, the fact below (a section's prose may quote the same sentence)
        (card,) = [md.value for md in at.markdown if norm(md.value).split("\n", 1)[-1].strip() == norm(m.fact).strip()][:1] or [None]
        assert card is not None, m.fact[:60]
        rejected = any(results[c.id].verdict != "holds" for c in m.checks if c.id in results)
        if rejected:
            assert f"**{label}**" not in card and i18n.strings("learn", lang)("entry_says") in card, m.fact[:60]
        elif m.checks:  # every check holds: the entry's own label stands
            assert f"**{label}**" in card, m.fact[:60]
