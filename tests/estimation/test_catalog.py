"""Hardware / model / precision catalogs: they load, carry sources, and broken files are named."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
import yaml

from latency import Hardware, Model, estimate
from latency.estimation.catalog import CONTENT_DIR, load_catalog
from latency.language.errors import ContentError

CAT = load_catalog()


def test_catalog_sizes_and_required_entries():
    assert len(CAT.hardware) >= 15
    kinds = {h.kind for h in CAT.hardware.values()}
    assert kinds == {"datacenter_gpu", "desktop_gpu", "apple_silicon", "integrated_gpu", "cpu", "mobile"}
    for hid in ("a100-sxm-80gb", "h100-sxm", "h200-sxm", "b200", "l4", "l40s", "mi300x", "rtx-4090", "rtx-3090",
                "laptop-rtx-4060", "apple-m2-ultra", "apple-m4-max", "epyc-9654-2s", "apple-a17-pro"):
        assert hid in CAT.hardware, hid
    for mid in ("gpt-4-class", "phi-4-reasoning-vision-15b", "iquest-coder-v1-40b-loop", "llama-3.1-8b",
                "llama-3.1-70b", "llama-3.1-405b", "qwen3-235b-a22b", "deepseek-v3", "qwen2.5-0.5b"):
        assert mid in CAT.models, mid


@pytest.mark.parametrize("hid", sorted(CAT.hardware))
def test_every_device_has_sources_and_typed_hardware(hid):
    h = CAT.hardware[hid]
    assert isinstance(h.hardware, Hardware)
    assert h.source and all(s.startswith("https://") for s in h.source)
    assert h.label("ko") and h.label("en")
    if h.price_usd_per_hour is not None:
        assert h.price_source and h.price_date and h.price_basis in ("cloud_on_demand", "amortised_purchase")


def test_prices_are_linked_or_labelled_assumptions_and_dated():
    """A price source starts with its link; one without a link must say it is an assumption (the
    trade-off page names those devices). Purchase prices carry the month of their list/launch price;
    cloud pricing pages are undated, so a year is allowed there."""
    import re

    for hid, h in CAT.hardware.items():
        if h.price_usd_per_hour is None:
            continue
        src = h.price_source or ""
        assert src.startswith("https://") or src.startswith("assumption"), hid
        pattern = r"\d{4}-(0[1-9]|1[0-2])" if h.price_basis == "amortised_purchase" and src.startswith("https://") \
            else r"\d{4}(-(0[1-9]|1[0-2]))?"
        assert re.fullmatch(pattern, h.price_date or ""), (hid, h.price_date)


@pytest.mark.parametrize("mid", sorted(CAT.models))
def test_every_model_has_sources_and_runs_on_every_device(mid):
    m = CAT.models[mid]
    assert isinstance(m.model, Model) and m.source
    assert m.model.layers, "presets carry their published layer count"
    assert m.model.bytes_per_param == CAT.precisions[m.default_precision].bytes_per_param
    for h in CAT.hardware.values():
        e = estimate(m.model, h.hardware, distance_km=500)
        assert math.isfinite(e.total_s) and e.total_s > 0


def test_assumed_sizes_are_labelled():
    gpt4 = CAT.models["gpt-4-class"]
    assert gpt4.assumption is True
    assert "rumour" in gpt4.note["en"].lower() or "assum" in gpt4.note["en"].lower()
    assert "가정" in gpt4.note["ko"]
    assert not CAT.models["llama-3.1-8b"].assumption


def test_architectures_in_the_catalog():
    loop = CAT.models["iquest-coder-v1-40b-loop"].model
    assert loop.arch == "looped" and loop.loops == 2 and loop.loop_kv_window == 64
    moe = CAT.models["qwen3-235b-a22b"].model
    assert moe.arch == "moe" and moe.active_b == 22.0


def test_precisions_have_real_bytes_per_param():
    p = CAT.precisions
    assert p["fp16"].bytes_per_param == 2.0 and p["fp8"].bytes_per_param == 1.0
    assert p["q8_0"].bytes_per_param == pytest.approx(8.5 / 8)
    assert 0.53 <= p["int4_awq"].bytes_per_param <= 0.56
    assert p["q4_k_m"].bytes_per_param == pytest.approx(0.61, abs=0.01)
    for x in p.values():
        assert x.source and x.label("ko") and x.label("en")


def test_llama_cpp_quality_notes_agree_with_the_tradeoffs_text():
    """The Q8_0 / Q4_K_M quality column and the tradeoffs page's quantization text quote the same
    llama.cpp table (tools/quantize/quantize.cpp, Llama-3-8B): same figures, same link, both languages."""
    import re

    from latency.language.i18n import LANGS, load_area

    quant_text = load_area("tradeoffs")["quant_text"]
    for pid, figure in (("q8_0", "+0.0026"), ("q4_k_m", "+0.1754")):
        p = CAT.precisions[pid]
        assert p.quality_source.endswith("tools/quantize/quantize.cpp"), pid
        for lang in LANGS:
            assert figure in p.quality[lang] and "Llama-3-8B" in p.quality[lang], (pid, lang)
            # "Q8_0 +0.0026" (ko) or "+0.0026 for Q8_0" (en): the figure next to the format's name
            near = rf"{re.escape(pid.upper())}\W{{1,3}}{re.escape(figure)}|{re.escape(figure)} for {re.escape(pid.upper())}"
            assert re.search(near, quant_text[lang]), (pid, lang)
            assert f"]({p.quality_source})" in quant_text[lang], (pid, lang)


def test_model_at_another_precision():
    m = CAT.models["llama-3.1-8b"].model_at("q4_k_m")
    assert m.bytes_per_param == pytest.approx(0.611) and m.layers == 32


# --- broken files are named ----------------------------------------------------------------

@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    for f in ("hardware.yaml", "models.yaml", "precisions.yaml"):
        shutil.copy(CONTENT_DIR / f, tmp_path / f)
    return tmp_path


def _edit(path: Path, fn) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    fn(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


BREAKAGES = [
    ("hardware.yaml", lambda d: d["devices"][2].update(mem_bandwidth_gbs=-5), "devices[2].mem_bandwidth_gbs"),
    ("hardware.yaml", lambda d: d["devices"][0].update(kind="tpu"), "devices[0].kind"),
    ("hardware.yaml", lambda d: d["devices"][1].pop("source"), "devices[1].source"),
    ("hardware.yaml", lambda d: d["devices"][3].update(name={"ko": "x"}), "devices[3].name.en"),
    ("hardware.yaml", lambda d: d["devices"][4].update(memroy_gb=3), "devices[4].memroy_gb"),
    ("hardware.yaml", lambda d: d["devices"][5].update(id=d["devices"][0]["id"]), "devices[5].id"),
    ("models.yaml", lambda d: d["models"][0].update(params_b="big"), "models[0].params_b"),
    ("models.yaml", lambda d: d["models"][1].update(default_precision="fp3"), "models[1].default_precision"),
    ("models.yaml", lambda d: d["models"][2].update(architecture="moe"), "models[2].architecture"),
    ("models.yaml", lambda d: d["models"][3].update(layers=0), "models[3].layers"),
    ("precisions.yaml", lambda d: d["precisions"][0].update(bytes_per_param=0), "precisions[0].bytes_per_param"),
]


@pytest.mark.parametrize("file,breakage,path", BREAKAGES)
def test_malformed_catalog_names_file_path_and_problem(content_copy, file, breakage, path):
    _edit(content_copy / file, breakage)
    with pytest.raises(ContentError) as info:
        load_catalog(content_copy)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.file.endswith(file) and err.path == path and err.problem


def test_not_yaml_and_missing_top_level(content_copy):
    (content_copy / "hardware.yaml").write_text("devices: [unclosed", encoding="utf-8")
    with pytest.raises(ContentError, match="hardware.yaml"):
        load_catalog(content_copy)
    (content_copy / "hardware.yaml").write_text("gpus: []\n", encoding="utf-8")
    with pytest.raises(ContentError, match="devices"):
        load_catalog(content_copy)


def test_yaml_tags_are_not_executed(content_copy):
    (content_copy / "precisions.yaml").write_text("precisions: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(ContentError, match="invalid YAML"):
        load_catalog(content_copy)


def _broken_loaders(tmp_path):
    """Every loader that reads its file through latency.language.errors.read_yaml, pointed at `bad.yaml`."""
    from latency.teaching import feel
    from latency.language import i18n
    from latency.estimation import places

    return {
        "catalog": lambda: load_catalog(tmp_path),
        "ui strings": lambda: i18n.load_area("bad", tmp_path),
        "places": lambda: places.load_stops(tmp_path / "bad.yaml"),
        "feel": lambda: feel.load_samples(tmp_path / "bad.yaml"),
    }


@pytest.mark.parametrize("loader", ["catalog", "ui strings", "places", "feel"])
def test_every_loader_names_the_line_of_broken_yaml_and_never_runs_tags(tmp_path, loader):
    for name in ("hardware.yaml", "models.yaml", "precisions.yaml", "bad.yaml"):
        (tmp_path / name).write_text("ok: 1\nbroken: [unclosed\nnext: 2\n", encoding="utf-8")
    with pytest.raises(ContentError, match="invalid YAML") as err:
        _broken_loaders(tmp_path)[loader]()
    assert err.value.path.startswith("line ") and ", column " in err.value.path
    for name in ("hardware.yaml", "models.yaml", "precisions.yaml", "bad.yaml"):
        (tmp_path / name).write_text("x: !!python/object/apply:os.system ['exit 3']\n", encoding="utf-8")
    with pytest.raises(ContentError, match="invalid YAML"):
        _broken_loaders(tmp_path)[loader]()
    for name in ("hardware.yaml", "models.yaml", "precisions.yaml", "bad.yaml"):
        (tmp_path / name).unlink()
    with pytest.raises(ContentError, match="file is missing"):
        _broken_loaders(tmp_path)[loader]()


def test_edited_catalog_is_read_again(tmp_path):
    """The catalog cache follows the files: an edit while the app runs is not hidden by a stale copy."""
    import os
    import shutil

    from latency.estimation.catalog import CATALOG_FILES, CONTENT_DIR, load_catalog

    for name in CATALOG_FILES:
        shutil.copy(CONTENT_DIR / name, tmp_path / name)
    first = load_catalog(tmp_path)
    hw = tmp_path / "hardware.yaml"
    hw.write_text(hw.read_text(encoding="utf-8").replace("mem_bandwidth_gbs: 3350", "mem_bandwidth_gbs: 3351", 1),
                  encoding="utf-8")
    later = hw.stat().st_mtime + 5
    os.utime(hw, (later, later))
    second = load_catalog(tmp_path)
    assert second is not first
    assert any(e.hardware.mem_bandwidth_gbs == 3351 for e in second.hardware.values())
