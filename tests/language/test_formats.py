"""The one formatter module and Korean particles: hand-written cases, read aloud by a Korean speaker."""

from __future__ import annotations

import re
import string

import pytest

from latency.language import formats, i18n, korean
from latency.language.korean import attach, josa


# --------------------------------------------------------------------------- Korean particles
@pytest.mark.parametrize("word, particle, expected", [
    # Hangul: 받침 / no 받침 / ㄹ 받침
    ("속도", "은", "속도는"), ("시간", "은", "시간은"), ("예산", "을", "예산을"), ("모델", "을", "모델을"),
    ("서버", "이", "서버가"), ("거리", "과", "거리와"), ("지연", "과", "지연과"),
    ("서울", "으로", "서울로"), ("부산", "으로", "부산으로"), ("도쿄", "으로", "도쿄로"),
    ("실", "을", "실을"), ("답", "이에요", "답이에요"), ("값", "이에요", "값이에요"), ("속도", "이에요", "속도예요"),
    # either form of a pair names it
    ("예산", "를", "예산을"), ("속도", "는", "속도는"), ("시간", "로", "시간으로"),
    # digits read in Sino-Korean
    ("0", "을", "0을"), ("1", "을", "1을"), ("1", "으로", "1로"), ("2", "을", "2를"), ("3", "을", "3을"),
    ("3", "으로", "3으로"), ("4", "이", "4가"), ("5", "이", "5가"), ("6", "을", "6을"), ("7", "으로", "7로"),
    ("8", "으로", "8로"), ("9", "을", "9를"), ("10", "을", "10을"), ("20", "이", "20이"), ("100", "을", "100을"),
    ("1,000", "이", "1,000이"), ("10,000", "을", "10,000을"), ("100,000", "이", "100,000이"), ("2.5", "가", "2.5가"),
    ("0.82", "를", "0.82를"), ("1.0", "이", "1.0이"),
    # numbers with units, by how the unit is read
    ("5초", "을", "5초를"), ("0.2초", "은", "0.2초는"), ("0.2 s", "이", "0.2 s가"), ("2.2배", "을", "2.2배를"),
    ("2.2×", "을", "2.2×를"), ("8B", "을", "8B를"), ("70.6B", "은", "70.6B는"), ("80 GB", "을", "80 GB를"),
    ("12 km", "으로", "12 km로"), ("30%", "이", "30%가"), ("4.34 토큰", "으로", "4.34 토큰으로"),
    ("초당 12토큰", "이", "초당 12토큰이"), ("$5", "이", "$5가"), ("3명", "이", "3명이"), ("2개", "를", "2개를"),
    # English inside Korean
    ("H100", "을", "H100을"), ("A100", "이", "A100이"), ("H100 SXM", "이", "H100 SXM이"), ("MI300X", "은", "MI300X는"),
    ("SLA", "을", "SLA를"), ("GPU", "이", "GPU가"), ("Apple A17 Pro", "을", "Apple A17 Pro를"),
    ("Llama", "을", "Llama를"), ("Qwen", "이", "Qwen이"),
    # closing marks and a trailing parenthesis are not read
    ("'속도'", "은", "'속도'는"), ("스마트폰 (A17)", "을", "스마트폰 (A17)을"), ("시간.", "이", "시간.이"),
])
def test_particle_follows_how_the_word_is_read(word, particle, expected):
    assert attach(word, particle) == expected


def test_unknown_particle_is_named():
    with pytest.raises(ValueError, match="unknown Korean particle '의'"):
        josa("속도", "의")


@pytest.mark.parametrize("template, values, ko, en", [
    ("{b:을} 넘으면", {"b": "5초"}, "5초를 넘으면", "5초 넘으면"),
    ("{x:은} {v:으로}", {"x": "디코드 속도", "v": "4.34 토큰"}, "디코드 속도는 4.34 토큰으로", "디코드 속도 4.34 토큰"),
    ("{n:,}개 {x:.2f}", {"n": 1200, "x": 1.234}, "1,200개 1.23", "1,200개 1.23"),
])
def test_template_particle_spec(template, values, ko, en):
    assert korean.format_text(template, "ko", values) == ko
    assert korean.format_text(template, "en", values) == en


def test_strings_apply_the_particle_spec():
    s = i18n.Strings("t", "ko", {"k": "{budget:을} 넘으면"})
    assert s("k", budget="5초") == "5초를 넘으면"
    assert i18n.Strings("t", "en", {"k": "over {budget:을}"})("k", budget="5 s") == "over 5 s"


# --------------------------------------------------------------------------- content uses the mechanism
UI_TEXTS = [(area, key, lang, text) for area in i18n.ui_areas()
            for key, texts in i18n.load_area(area).items() for lang, text in texts.items()]
SLASH_FORMS = re.compile(r"\(으\)로|\((?:을|를|은|는|이|가|과|와|으로|로)\)|을/를|은/는|이/가")


@pytest.mark.parametrize("area", i18n.ui_areas())
def test_no_either_or_particles_in_ui_content(area):
    bad = [f"{key}.{lang}: {text}" for a, key, lang, text in UI_TEXTS if a == area and SLASH_FORMS.search(text)]
    assert not bad, "write the particle as a placeholder spec, e.g. {value:을}:\n" + "\n".join(bad)


@pytest.mark.parametrize("area", i18n.ui_areas())
def test_format_specs_in_ui_content_are_particles_or_python_specs(area):
    for a, key, lang, text in UI_TEXTS:
        if a != area:
            continue
        for _, field, spec, _ in string.Formatter().parse(text):
            if field is not None and spec and re.search(r"[\uac00-\ud7a3]", spec):
                assert korean.is_particle_spec(spec), f"{area}.{key}.{lang}: unknown particle {spec!r}"


# --------------------------------------------------------------------------- formats
KO, EN = formats.get("ko"), formats.get("en")


@pytest.mark.parametrize("x, ko, en", [
    (0.2, "0.2초", "0.2 s"), (0.035, "0.035초", "0.035 s"), (0.82, "0.82초", "0.82 s"), (2.44, "2.4초", "2.4 s"),
    (1.0, "1초", "1 s"), (12.4, "12초", "12 s"), (1240, "1,240초", "1,240 s"), (float("inf"), "–초", "– s"),
])
def test_seconds(x, ko, en):
    assert (KO.seconds(x), EN.seconds(x)) == (ko, en)


@pytest.mark.parametrize("method, x, ko, en", [
    ("size_b", 8, "8B", "8B"), ("size_b", 70.6, "70.6B", "70.6B"), ("size_b", 0.5, "0.5B", "0.5B"),
    ("size_b", 8.03, "8.03B", "8.03B"), ("size_b", 2000, "2,000B", "2,000B"),
    ("ratio", 2.24, "2.2배", "2.2×"), ("ratio", 4.0, "4배", "4×"), ("ratio", 12.3, "12배", "12×"),
    ("gb", 80, "80 GB", "80 GB"), ("gb", 16.06, "16.1 GB", "16.1 GB"),
    ("km", 0, "0 km", "0 km"), ("km", 9140.4, "9,140 km", "9,140 km"), ("km", 2.5, "2.5 km", "2.5 km"),
    ("percent", 0.127, "13%", "13%"), ("percent", 0.042, "4.2%", "4.2%"), ("percent", 0.004, "0.4%", "0.4%"),
    ("usd", 0.0042, "$0.0042", "$0.0042"), ("usd", 1.234, "$1.23", "$1.23"), ("usd", 1234.5, "$1,234", "$1,234"),
    ("tps", 43.4, "초당 43.4토큰", "43.4 tokens/s"),
    ("tps_per_user", 43.4, "사용자당 초당 43.4토큰", "43.4 tokens/s per user"),
    ("tps_server", 1234, "서버 전체 초당 1,234토큰", "1,234 tokens/s for the whole server"),
])
def test_units(method, x, ko, en):
    assert (getattr(KO, method)(x), getattr(EN, method)(x)) == (ko, en)


@pytest.mark.parametrize("n, what, ko, en", [
    (1, "devices", "1개", "1 device"), (2, "devices", "2개", "2 devices"), (0, "devices", "0개", "0 devices"),
    (1, "users", "1명", "1 user"), (1200, "users", "1,200명", "1,200 users"), (1, "tokens", "1토큰", "1 token"),
    (1, "round_trips", "왕복 1회", "1 round trip"), (3, "round_trips", "왕복 3회", "3 round trips"),
])
def test_counts_and_english_plurals(n, what, ko, en):
    assert (KO.count(n, what), EN.count(n, what)) == (ko, en)


@pytest.mark.parametrize("lo, hi, ko, en", [
    (0.8, 1.2, "0.8–1.2초", "0.8–1.2 s"), (1.0, 1.0, "약 1초", "about 1 s"), (1.001, 0.999, "약 1초", "about 1 s"),
    (1.2, 0.8, "0.8–1.2초", "0.8–1.2 s"),
])
def test_range_never_prints_equal_ends(lo, hi, ko, en):
    assert (KO.range(lo, hi), EN.range(lo, hi)) == (ko, en)


def test_range_of_other_units():
    assert EN.range(8, 70.6, "size_b") == "8–70.6B"
    assert KO.range(80, 80, "gb") == "약 80 GB"


def test_text_from_tokens_uses_the_stated_ratios():
    # English: 100 tokens ~ 75 words (OpenAI); Korean: 1 character a token (assumption in units.yaml).
    assert EN.text_from_tokens(100) == "about 75 words"
    assert KO.text_from_tokens(300) == "약 300글자"
    assert "OpenAI" in EN.s("text_from_tokens_note") and "가정" in KO.s("text_from_tokens_note")


def test_formatted_values_take_the_right_particle():
    s = i18n.Strings("t", "ko", {"k": "{b:을} 넘으면 {r:으로} 느립니다"})
    assert s("k", b=KO.seconds(5), r=KO.ratio(2.2)) == "5초를 넘으면 2.2배로 느립니다"
    assert s("k", b=KO.size_b(8), r=KO.gb(80)) == "8B를 넘으면 80 GB로 느립니다"


@pytest.mark.parametrize("area", i18n.ui_areas())
def test_no_either_or_plurals_in_english_content(area):
    """'server(s)' reads as a form, not a sentence: counts go through formats.count or a wording
    without a plural ("servers: {n}")."""
    bad = [f"{key}: {text}" for a, key, lang, text in UI_TEXTS if a == area and lang == "en" and re.search(r"\w\(s\)", text)]
    assert not bad, "\n".join(bad)
