"""Hardware, model and precision catalogs (content/*.yaml) -> validated, typed entries.

    from latency.estimation.catalog import load_catalog
    cat = load_catalog()
    h100 = cat.hardware["h100-sxm"]           # HardwareEntry; h100.hardware -> latency.Hardware
    llama = cat.models["llama-3.1-8b"]        # ModelEntry;    llama.model  -> latency.Model
    llama.model_at("q4_k_m")                  # the same model stored at another precision
    h100.label("ko")                          # display name in a language

Files are read with yaml.safe_load only. Any problem raises `ContentError` (a ValueError) naming
the file, the path inside it (e.g. ``devices[3].memory_gb``) and what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from latency.language.errors import ContentError, read_yaml
from latency.estimation.estimator import ARCHITECTURES, KINDS, Hardware, Model

CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"
LANGS = ("ko", "en")
_ID = re.compile(r"^[a-z0-9][a-z0-9._\-]*$")


# --------------------------------------------------------------------------------------------
# Entries
# --------------------------------------------------------------------------------------------

def _label(text: dict[str, str], lang: str) -> str:
    return text.get(lang) or text["en"]


@dataclass(frozen=True)
class PrecisionEntry:
    id: str
    label_text: dict[str, str]
    bytes_per_param: float
    family: str
    source: str
    note: dict[str, str]
    quality: dict[str, str]
    quality_source: str

    def label(self, lang: str = "ko") -> str:
        return _label(self.label_text, lang)


@dataclass(frozen=True)
class HardwareEntry:
    id: str
    name: dict[str, str]
    hardware: Hardware
    price_usd_per_hour: float | None
    price_basis: str | None
    price_source: str | None
    price_date: str | None
    source: tuple[str, ...]
    note: str
    device_class: str = ""   # where it runs, as pages name it (DEVICE_CLASSES); "" only for entries built in code
    class_source: str = ""   # the link (and words) that say so
    about: dict[str, str] = field(default_factory=dict)  # what the device is, in plain words ({ko, en}); {} only in code

    @property
    def kind(self) -> str:
        return self.hardware.kind

    def label(self, lang: str = "ko") -> str:
        return _label(self.name, lang)


@dataclass(frozen=True)
class ModelEntry:
    id: str
    name: dict[str, str]
    model: Model
    default_precision: str
    source: tuple[str, ...]
    assumption: bool
    note: dict[str, str]

    def label(self, lang: str = "ko") -> str:
        return _label(self.name, lang)

    def model_at(self, precision: "PrecisionEntry | str") -> Model:
        """This model stored at another precision (a PrecisionEntry or its id)."""
        if isinstance(precision, str):
            precision = load_catalog().precisions[precision]
        return replace(self.model, bytes_per_param=precision.bytes_per_param, file_gb=None)


@dataclass(frozen=True)
class Catalog:
    hardware: dict[str, HardwareEntry]
    models: dict[str, ModelEntry]
    precisions: dict[str, PrecisionEntry]


# --------------------------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------------------------

class _Entry:
    """One mapping in a list, with typed getters that raise ContentError with the full path."""

    def __init__(self, file: Path, path: str, data: Any, allowed: set[str]) -> None:
        if not isinstance(data, dict):
            raise ContentError(file, path, f"must be a mapping, got {type(data).__name__}")
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise ContentError(file, f"{path}.{unknown[0]}", f"unknown field (allowed: {', '.join(sorted(allowed))})")
        self.file, self.path, self.data = file, path, data

    def fail(self, key: str, problem: str):
        raise ContentError(self.file, f"{self.path}.{key}", problem)

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def id(self) -> str:
        v = self.data.get("id")
        if not isinstance(v, str) or not _ID.match(v):
            self.fail("id", f"must be a lower-case slug (letters, digits, '.', '_', '-'), got {v!r}")
        return v

    def text(self, key: str, required: bool = True) -> str | None:
        v = self.data.get(key)
        if v is None and not required:
            return None
        if not isinstance(v, str) or not v.strip():
            self.fail(key, f"must be non-empty text, got {v!r}")
        return v

    def i18n(self, key: str, required: bool = True) -> dict[str, str]:
        """Text that is either one string (the same in every language) or {ko: ..., en: ...}."""
        v = self.data.get(key)
        if v is None and not required:
            return {}
        if isinstance(v, str) and v.strip():
            return {lang: v for lang in LANGS}
        if isinstance(v, dict):
            missing = [lang for lang in LANGS if not isinstance(v.get(lang), str) or not v[lang].strip()]
            extra = sorted(set(v) - set(LANGS))
            if extra:
                self.fail(f"{key}.{extra[0]}", f"unknown language (allowed: {', '.join(LANGS)})")
            if not missing:
                return {lang: v[lang] for lang in LANGS}
            self.fail(f"{key}.{missing[0]}", "missing or empty translation")
        self.fail(key, f"must be text or a mapping {{ko: ..., en: ...}}, got {v!r}")

    def number(self, key: str, lo: float, hi: float, required: bool = True) -> float | None:
        v = self.data.get(key)
        if v is None and not required:
            return None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo < v <= hi):
            self.fail(key, f"must be a number in ({lo:g}, {hi:g}], got {v!r}")
        return float(v)

    def integer(self, key: str, lo: int, hi: int, required: bool = False) -> int | None:
        v = self.data.get(key)
        if v is None and not required:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or not (lo <= v <= hi):
            self.fail(key, f"must be a whole number in [{lo}, {hi}], got {v!r}")
        return v

    def choice(self, key: str, accepted: tuple, required: bool = True):
        v = self.data.get(key)
        if v is None and not required:
            return None
        if v not in accepted:
            self.fail(key, f"must be one of {', '.join(map(str, accepted))}, got {v!r}")
        return v

    def sources(self, key: str = "source") -> tuple[str, ...]:
        v = self.data.get(key)
        items = [v] if isinstance(v, str) else v
        if not isinstance(items, list) or not items or not all(isinstance(s, str) and s.strip() for s in items):
            self.fail(key, "every entry needs a source: a URL (or a list of them)")
        return tuple(items)

    def build(self, key: str, fn, **kwargs):
        """Construct a Hardware/Model; its ValueError becomes a ContentError at this entry."""
        try:
            return fn(**kwargs)
        except ValueError as exc:
            field = str(exc).split(" ", 1)[0]
            raise ContentError(self.file, f"{self.path}.{field}", str(exc)) from None


def _flag(e: "_Entry", key: str) -> bool | None:
    v = e.data.get(key)
    if v is not None and not isinstance(v, bool):
        e.fail(key, f"must be true or false, got {v!r}")
    return v


def _read_list(file: Path, top: str) -> list:
    data = read_yaml(file)
    if not isinstance(data, dict) or not isinstance(data.get(top), list) or not data[top]:
        raise ContentError(file, top, "must be a non-empty list at the top level")
    return data[top]


def _unique(file: Path, top: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for i, x in enumerate(ids):
        if x in seen:
            raise ContentError(file, f"{top}[{i}].id", f"duplicate id {x!r}")
        seen.add(x)


# --------------------------------------------------------------------------------------------
# Loaders
# --------------------------------------------------------------------------------------------

_PRECISION_FIELDS = {"id", "label", "bytes_per_param", "family", "source", "note", "quality", "quality_source"}
_HARDWARE_FIELDS = {"id", "name", "kind", "mem_bandwidth_gbs", "peak_tflops", "memory_gb", "lowp_speedup",
                    "interconnect_gbs", "link_latency_s", "max_devices", "fp8", "fp4_speedup", "fp16_acc_tflops",
                    "compute_capability",
                    "price_usd_per_hour", "price_basis",
                    "price_source", "price_date", "source", "note", "device_class", "class_source", "about"}
DEVICE_CLASSES = ("datacenter", "workstation", "desktop", "laptop", "phone")
"""Where a device runs, as the pages name it (content/hardware.yaml `device_class`, each with its source)."""
_MODEL_FIELDS = {"id", "name", "params_b", "active_params_b", "architecture", "loops", "loop_kv_window", "layers",
                 "hidden_size", "heads", "kv_heads", "head_dim", "kv_dim", "default_precision", "source",
                 "assumption", "note", "file_gb", "fp8_block_scaled"}


def load_precisions(file: Path) -> dict[str, PrecisionEntry]:
    out = {}
    items = _read_list(file, "precisions")
    for i, raw in enumerate(items):
        e = _Entry(file, f"precisions[{i}]", raw, _PRECISION_FIELDS)
        p = PrecisionEntry(
            id=e.id(), label_text=e.i18n("label"), bytes_per_param=e.number("bytes_per_param", 0, 8),
            family=e.choice("family", ("fp16", "fp8", "int8", "int4", "fp4")), source=e.sources()[0],
            note=e.i18n("note", required=False), quality=e.i18n("quality", required=False),
            quality_source=str(raw.get("quality_source") or ""))
        out[p.id] = p
    _unique(file, "precisions", [r.get("id") for r in items])
    return out


def load_hardware(file: Path) -> dict[str, HardwareEntry]:
    out = {}
    items = _read_list(file, "devices")
    for i, raw in enumerate(items):
        e = _Entry(file, f"devices[{i}]", raw, _HARDWARE_FIELDS)
        name = e.i18n("name")
        hw = e.build("hardware", Hardware, name=name["en"], kind=e.choice("kind", KINDS),
                     mem_bandwidth_gbs=e.number("mem_bandwidth_gbs", 0, 1e6),
                     peak_tflops=e.number("peak_tflops", 0, 1e6), memory_gb=e.number("memory_gb", 0, 1e6),
                     lowp_speedup=e.number("lowp_speedup", 0, 16, required=False),
                     interconnect_gbs=e.number("interconnect_gbs", 0, 1e5, required=False),
                     link_latency_s=e.number("link_latency_s", 0, 1, required=False),
                     max_devices=e.integer("max_devices", 1, 4096), fp8=_flag(e, "fp8"),
                     fp4_speedup=e.number("fp4_speedup", 0, 32, required=False),
                     fp16_acc_tflops=e.number("fp16_acc_tflops", 0, 1e6, required=False),
                     compute_capability=e.number("compute_capability", 1, 20, required=False))
        price = e.number("price_usd_per_hour", 0, 1e4, required=False)
        if price is not None:
            for key in ("price_basis", "price_source", "price_date"):
                e.text(key)
            e.choice("price_basis", ("cloud_on_demand", "amortised_purchase"))
        out[e.id()] = HardwareEntry(
            id=e.id(), name=name, hardware=hw, price_usd_per_hour=price,
            price_basis=raw.get("price_basis"), price_source=raw.get("price_source"),
            price_date=None if raw.get("price_date") is None else str(raw["price_date"]),
            source=e.sources(), note=str(raw.get("note") or ""),
            device_class=e.choice("device_class", DEVICE_CLASSES), class_source=e.text("class_source"),
            about=e.i18n("about"))
    _unique(file, "devices", [r.get("id") for r in items])
    return out


def load_models(file: Path, precisions: dict[str, PrecisionEntry]) -> dict[str, ModelEntry]:
    out = {}
    items = _read_list(file, "models")
    for i, raw in enumerate(items):
        e = _Entry(file, f"models[{i}]", raw, _MODEL_FIELDS)
        name = e.i18n("name")
        prec = e.choice("default_precision", tuple(precisions))
        assumption = raw.get("assumption", False)
        if not isinstance(assumption, bool):
            e.fail("assumption", f"must be true or false, got {assumption!r}")
        note = e.i18n("note", required=assumption)
        params = e.number("params_b", 0, 1e5)
        file_gb = e.number("file_gb", 0, 8 * params, required=False)
        model = e.build("model", Model, name=name["en"], params_b=params,
                        bytes_per_param=precisions[prec].bytes_per_param, file_gb=file_gb,
                        active_params_b=e.number("active_params_b", 0, params, required=False),
                        architecture=e.choice("architecture", ARCHITECTURES),
                        loops=e.integer("loops", 1, 64) or 1,
                        loop_kv_window=e.integer("loop_kv_window", 1, 10**7),
                        fp8_block_scaled=bool(_flag(e, "fp8_block_scaled")),
                        **{k: e.integer(k, 1, 10**7) for k in
                           ("layers", "hidden_size", "heads", "kv_heads", "head_dim", "kv_dim")})
        implied = "looped" if model.loops > 1 else ("moe" if model.active_b < model.params_b else "dense")
        if implied != model.architecture:
            e.fail("architecture", f"says {model.architecture!r} but the sizes/loops imply {implied!r}")
        out[e.id()] = ModelEntry(id=e.id(), name=name, model=model, default_precision=prec,
                                 source=e.sources(), assumption=assumption, note=note)
    _unique(file, "models", [r.get("id") for r in items])
    return out


CATALOG_FILES = ("precisions.yaml", "hardware.yaml", "models.yaml")


def load_catalog(content_dir: Path | str | None = None) -> Catalog:
    """All three catalogs from `content_dir` (default: the repository's content/).

    Cached per content folder *and* the files' modification times, so an edited (or broken)
    catalog is read again while the app runs instead of a stale copy being served."""
    d = Path(content_dir) if content_dir else CONTENT_DIR
    mtimes = tuple(f.stat().st_mtime_ns if f.exists() else 0 for f in (d / name for name in CATALOG_FILES))
    return _load_catalog(str(d), mtimes)


@lru_cache(maxsize=4)
def _load_catalog(content_dir: str, mtimes: tuple[int, ...]) -> Catalog:
    d = Path(content_dir)
    precisions = load_precisions(d / "precisions.yaml")
    return Catalog(hardware=load_hardware(d / "hardware.yaml"),
                   models=load_models(d / "models.yaml", precisions), precisions=precisions)


def main() -> None:  # python -m latency.estimation.catalog: validate and list
    cat = load_catalog()
    print(f"{len(cat.hardware)} devices, {len(cat.models)} models, {len(cat.precisions)} precisions: OK")


if __name__ == "__main__":
    main()
