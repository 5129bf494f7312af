"""The launch check's inputs that change an estimate (a cached shared prompt part, speculative decoding)
are not shown on the explorer pages: when a link or the launch check turns them on, both pages name
them beside their inputs, in the reader's language (issue 31 item 1, issue 33 item 4)."""

from __future__ import annotations

import pytest

from latency.language import i18n
from tests.conftest import all_text, run_page

ON = {"prefix_cache": "on", "prefix_share": "0.5", "spec_tokens": "3", "spec_accept": "0.7"}


@pytest.mark.parametrize("page", ["estimator", "tradeoffs"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_launch_inputs_in_force_are_named(page, lang):
    names = i18n.strings("scenario", lang)
    at = run_page(page, lang, ON)
    assert not at.exception
    text = all_text(at)
    # the words of each item, from the content file, filled as a reader sees them ("50%", "3", "70%")
    assert names("unseen_prefix_cache", share="50%") in text
    assert names("unseen_spec", k=3, accept="70%") in text


@pytest.mark.parametrize("page", ["estimator", "tradeoffs"])
def test_nothing_is_named_when_they_are_off(page):
    names = i18n.strings("scenario", "en")
    text = all_text(run_page(page, "en", {"prefix_cache": "off", "prefix_share": "0.5", "spec_tokens": "0"}))
    assert names("unseen_spec", k=3, accept="70%").split(":")[0] not in text
    assert names("unseen_prefix_cache", share="50%").split(":")[0] not in text


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_link_beyond_the_options_is_read_alike_on_every_page(lang):
    """One link, one set-up: a shared part of 90 (meant as 90%?), 30 draft tokens and a 0.1 acceptance rate are beyond
    what the launch check offers (0-95%, up to 8 tokens, 30-95%). Every page takes 95%, 8 tokens and 30%, and names
    each once, in percent, with the launch check's range. Before, the estimator took 99% ("0.0 to 0.99") and the
    launch check named it twice, the second time quoting "0.99", which the reader never wrote."""
    link = {"prefix_cache": "on", "prefix_share": "90", "spec_tokens": "30", "spec_accept": "0.1"}
    names = i18n.strings("scenario", lang)
    for page in ("estimator", "tradeoffs", "launch"):
        at = run_page(page, lang, link)
        assert not at.exception, page
        warnings = [w.value for w in at.warning]
        about_share = [w for w in warnings if "‘90’" in w]
        assert len(about_share) == 1, (page, warnings)
        assert "95%" in about_share[0] and "99" not in about_share[0], (page, about_share)
        assert not [w for w in warnings if "‘0.99’" in w or "‘0.95’" in w], (page, warnings)
        assert len([w for w in warnings if "‘30’" in w and "8" in w]) == 1, (page, warnings)
        assert len([w for w in warnings if "‘0.1’" in w and "30%" in w and "95%" in w]) == 1, (page, warnings)
        if page == "launch":  # its own inputs show the values taken
            assert at.selectbox(key="prefix_share").value == 0.95
            assert at.selectbox(key="spec_tokens").value == 8
            assert at.selectbox(key="spec_accept").value == 0.3
        else:  # named beside the inputs, as the estimate takes them
            text = all_text(at)
            assert names("unseen_prefix_cache", share="95%") in text, page
            assert names("unseen_spec", k=8, accept="30%") in text, page
