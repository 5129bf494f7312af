"""Korean on the learner's path reads like Korean (learner trial, item 3): a particle after a filled-in value
is chosen by the value ("초당 111토큰으로", never "토큰로"), one colon per sentence, one speech level in the
app's own words, no invisible characters inside a shown link."""

from __future__ import annotations

import re

import pytest

from latency.language import i18n

UI_TEXTS = [(area, key, text) for area in i18n.ui_areas()
            for key, texts in i18n.load_area(area).items() for lang, text in texts.items() if lang == "ko"]
# a placeholder followed straight by a particle that changes with the word before it, the particle ending there
HAND_PARTICLE = re.compile(r"\{[a-z_0-9]+\}(?:으로|로|을|를|은|는|이|가|과|와)(?![\uac00-\ud7a3])")


@pytest.mark.parametrize("area", i18n.ui_areas())
def test_a_particle_after_a_value_is_chosen_by_the_value(area):
    """"초당 111토큰로" (the calculator's chatbot example, {burst}로): the particle must come from the value."""
    bad = [f"{key}: {text}" for a, key, text in UI_TEXTS if a == area and HAND_PARTICLE.search(text)]
    assert not bad, "write it as a format spec, e.g. {value:으로}:\n" + "\n".join(bad)
