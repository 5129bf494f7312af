"""Named places and distance stops for the distance slider (content/places.yaml).

Distances are great-circle distances between city coordinates (haversine, mean Earth radius as in
shared/calibration/rtt.csv), merged with a grid from 0 to 20,000 km. Never imports streamlit.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from latency.language.errors import ContentError, read_yaml
from latency.estimation.constants import EARTH_RADIUS_KM  # haversine radius, as rtt.csv uses (source there)
from latency.language.i18n import CONTENT_DIR, LANGS
from latency.estimation.sizing import merge_steps

PLACES_FILE = CONTENT_DIR / "places.yaml"
DISTANCE_MAX_KM = 20000.0
"""The slider's end: just under half the Earth's circumference (constants.EARTH_CIRCUMFERENCE_KM / 2 =
20,037 km), the farthest two places on Earth can be apart."""
DISTANCE_GRID_KM = (0, 5, 10, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 2500, 3000, 4000, 5000,
                    6000, 7000, 8000, 10000, 12000, 14000, 16000, 18000, 20000)
DEFAULT_STOP = "seoul_tokyo"


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float, radius_km: float = EARTH_RADIUS_KM) -> float:
    """Haversine great-circle distance between two points given in decimal degrees, km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * radius_km * math.asin(min(1.0, math.sqrt(h)))


@dataclass(frozen=True)
class DistanceStop:
    id: str
    label: Mapping[str, str]   # full label per language, e.g. "서울→도쿄"
    short: Mapping[str, str]   # for chart labels
    km: float                  # great-circle distance, rounded to whole km
    ends: tuple[str, ...] = ()  # (from, to) place ids; () for the same building


def _texts(file: Path, path: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or any(not isinstance(value.get(l), str) or not value[l].strip() for l in LANGS):
        raise ContentError(file, path, f"expected text in every language {list(LANGS)}, found {value!r}")
    return {l: value[l] for l in LANGS}


def load_stops(file: Path = PLACES_FILE) -> tuple[DistanceStop, ...]:
    """Named distance stops, their distances computed from the places' coordinates."""
    raw = read_yaml(file)
    if not isinstance(raw, dict) or not isinstance(raw.get("places"), dict) or not isinstance(raw.get("stops"), list):
        raise ContentError(file, "", "expected 'places' (a mapping) and 'stops' (a list)")
    places = {}
    for name, p in raw["places"].items():
        if not isinstance(p, dict):
            raise ContentError(file, f"places.{name}", "expected {lat, lon, source}")
        for key, lim in (("lat", 90), ("lon", 180)):
            v = p.get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not -lim <= v <= lim:
                raise ContentError(file, f"places.{name}.{key}", f"expected a number from -{lim} to {lim}, found {v!r}")
        if not isinstance(p.get("source"), str) or not p["source"].strip():
            raise ContentError(file, f"places.{name}.source", "every coordinate needs its source")
        places[name] = (float(p["lat"]), float(p["lon"]))
    stops = []
    for i, s in enumerate(raw["stops"]):
        path = f"stops[{i}]"
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            raise ContentError(file, path, "expected a mapping with an id")
        ends = (s.get("from"), s.get("to"))
        if ends == (None, None):
            km = 0.0
        else:
            for key, name in zip(("from", "to"), ends):
                if name not in places:
                    raise ContentError(file, f"{path}.{key}", f"unknown place {name!r}; known: {sorted(places)}")
            km = float(round(great_circle_km(*places[ends[0]], *places[ends[1]])))
        if km > DISTANCE_MAX_KM:
            raise ContentError(file, path, f"{km:.0f} km is beyond the slider's {DISTANCE_MAX_KM:,.0f} km")
        stops.append(DistanceStop(s["id"], _texts(file, f"{path}.label", s.get("label")),
                                  _texts(file, f"{path}.short", s.get("short")), km,
                                  () if ends == (None, None) else (str(ends[0]), str(ends[1]))))
    if len({s.id for s in stops}) != len(stops):
        raise ContentError(file, "stops", "stop ids must be unique")
    return tuple(stops)


@dataclass(frozen=True)
class Place:
    """A named place (content/places.yaml `places`): where users are or a server region (the launch check)."""

    id: str
    label: Mapping[str, str]
    lat: float
    lon: float


def load_places(file: Path = PLACES_FILE) -> tuple[Place, ...]:
    """Every named place with its label in each language, in file order (the stops are `load_stops`).
    Read once per version of the file: the distance sliders' labels ask for it on every rerun."""
    return _load_places(Path(file), Path(file).stat().st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _load_places(file: Path, _mtime_ns: int) -> tuple[Place, ...]:
    load_stops(file)  # the same checks of coordinates and sources
    raw = read_yaml(file)
    return tuple(Place(name, _texts(file, f"places.{name}.label", p.get("label")), float(p["lat"]), float(p["lon"]))
                 for name, p in raw["places"].items())


def place_distance_km(a: Place, b: Place) -> float:
    """Great-circle distance between two places, rounded to whole km as the stops are."""
    return float(round(great_circle_km(a.lat, a.lon, b.lat, b.lon)))


def distance_steps(stops: Sequence[DistanceStop]) -> tuple[float, ...]:
    return merge_steps(DISTANCE_GRID_KM, [s.km for s in stops], 0.0, DISTANCE_MAX_KM)


def place_pair_distances(places: Sequence[Place]) -> tuple[float, ...]:
    """Every distance the launch check's two place boxes can give (users' place x server region)."""
    return tuple(sorted({place_distance_km(a, b) for a in places for b in places}))


def place_pair_named(places: Sequence[Place], users: str | None, server: str | None, km: float) -> tuple[Place, Place] | None:
    """(users' place, server region) by id when they are `km` apart, else None."""
    by_id = {p.id: p for p in places}
    pair = (by_id.get(users or ""), by_id.get(server or ""))
    return pair if None not in pair and place_distance_km(*pair) == km else None


def pair_over_stop(stops: Sequence[DistanceStop], places: Sequence[Place], users: str | None, server: str | None,
                   km: float) -> tuple[Place, Place] | None:
    """The launch check's (users' place, server region) where they are the ones in force at `km` and the
    distance slider's stop there names other places or none: Seoul to a Seoul region is 0 km, the "Same
    building" stop, and read so (PM re-check 2026-12-05); Tokyo users on a Seoul server are the "Seoul→Tokyo"
    stop's 1,159 km. None where no pair is in force or the stop at `km` is that very pair."""
    pair = place_pair_named(places, users, server, km)
    if pair is None:
        return None
    stop = next((s for s in stops if s.km == km), None)
    return None if stop is not None and stop.ends == (pair[0].id, pair[1].id) else pair


def steps_with(steps: Sequence[float], value: float | None) -> tuple[float, ...]:
    """A slider's steps with `value` among them: a launch check's place pair (Seoul to US East, 11,137 km)
    is no step of the estimator's slider, which drew the first step (0 km) instead (PM trial 2026-12-05)."""
    if value is None or value in steps:
        return tuple(steps)
    return tuple(sorted({*steps, float(value)}))
