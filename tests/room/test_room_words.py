"""The room's Korean reads like Korean (issue 30 item 7): no particle written after a placeholder by
hand (it cannot agree with every value: "방 'CNXKFN'는"), the room's own strings in both languages,
and a short title for every quiz question the results chart shows."""

from __future__ import annotations

import re

import yaml

from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from latency.language import i18n
from latency.teaching import lesson, quiz

ROOM_KEYS = {k: v for k, v in yaml.safe_load((i18n.UI_DIR / "lesson.yaml").read_text(encoding="utf-8")).items()
             if k.startswith(("room_", "join_", "start_code_"))}
PARTICLE_AFTER_PLACEHOLDER = re.compile(r"\{[a-z_]+\}['\")]?(은|는|이|가|을|를|과|와|으로|로)(?![가-힣])")


def test_no_hand_written_particle_after_a_placeholder():
    bad = {k: v["ko"] for k, v in ROOM_KEYS.items() if PARTICLE_AFTER_PLACEHOLDER.search(v["ko"])}
    assert not bad, bad
    s = i18n.strings("lesson", "ko")
    assert s("room_expired", code="CNXKFN").startswith("방 CNXKFN은 ")   # 엔: a final consonant
    assert s("room_ended", code="CFHKMY").startswith("방 CFHKMY는 ")     # 와이: a vowel


def test_a_code_ending_in_a_digit_takes_the_particle_of_how_the_digit_is_read():
    """Presenter trial, round 3: "방 H9Y9M3는" (3 is read 삼: a final consonant)."""
    s = i18n.strings("lesson", "ko")
    for code, particle in (("H9Y9M3", "은"), ("H9Y9M2", "는"), ("CNXK36", "은"), ("CNXK47", "은"), ("CNXK45", "는"),
                           ("CNXK49", "는"), ("CNXK48", "은"), ("CNXK40", "은")):  # 삼 육 칠: 받침; 이 오 구: none; 팔 십
        assert s("room_ended", code=code).startswith(f"방 {code}{particle} "), code


def test_every_room_string_is_in_both_languages_and_english_has_no_hangul():
    for key, value in ROOM_KEYS.items():
        assert set(value) == {"ko", "en"} and value["ko"] and value["en"], key
        assert not re.search(r"[가-힣]", value["en"]), key


def test_every_question_has_a_short_title_for_the_results():
    questions = quiz.load_quiz(load_catalog(), load_stops(), lesson.load_lesson(load_catalog(), load_stops()))
    for lang in i18n.LANGS:
        s = i18n.strings("lesson", lang)
        for q in questions:
            title = s(f"room_short_{q.id}")
            assert 0 < len(title) <= 36, (lang, q.id, title)
