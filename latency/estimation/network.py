"""Network stage: backbone round trips, access networks and connection set-up.

Every function works on plain floats and on numpy arrays alike (only arithmetic operators
and `np.maximum`-style helpers from `_num`), so the scalar `estimate` and the vectorised
`estimate_sweep` share one set of formulas.

Sources for every constant are in the docstrings and in docs/estimator.md; the figures come
from shared/calibration/README.md.
"""

from __future__ import annotations

from latency.estimation.constants import FIBRE_KM_PER_MS  # noqa: F401  (re-exported; the source is cited there)

# Access-network round trip (user device to the first hop of the provider), in ms.
ACCESS_RTT_MS: dict[str, float] = {
    # FCC Measuring Broadband America 2023, median idle RTT to the nearest test server.
    "fibre": 9.4,
    "cable": 16.7,
    "dsl": 26.7,
    # "wired" = fibre: the common case for the app's (Korean) audience.
    "wired": 9.4,
    # Wi-Fi hop on top of a fibre line: more than half of TCP packets saw > 20 ms on the
    # Wi-Fi hop ("WiFi can be the weakest link of round trip network latency in the wild").
    "wifi": 9.4 + 20.0,
    # US 4G/LTE, Opensignal Q1 2019: 44.1 to 66.4 ms; midpoint.
    "lte": 55.0,
    # 5G: an ASSUMPTION (no 5G-only idle round trip to the nearest server was found). Half way
    # between fibre+Wi-Fi and LTE (~30 ms). Checked against published figures, neither the same
    # quantity: Ookla Speedtest Global Index Q1 2023, global median latency of ALL mobile tests
    # 28 ms (fixed: 9 ms, in line with the FCC 9.4 above), reported at
    # https://www.neowin.net/news/ookla-speed-test-report-these-countries-have-the-fastest-internet-in-2023-so-far/ ;
    # Ookla "State of Worldwide Connectivity 2023", global median 5G MULTI-server latency 44 ms in
    # Q3 2023 (to several servers, so longer than one access hop), reported at
    # https://tele.net.in/median-global-5g-download-speed-rises-20-per-cent-to-203-04-mbps-during-q3-2023-says-ookla-study/
    "5g": 30.0,
    # On-device or same-LAN use: no access network.
    "none": 0.0,
}

# Extra round trips before the request can be sent (calibration README, "connection set-up"):
# TCP handshake 1 RTT + TLS 1.3 1 RTT for a cold HTTPS connection; 0 for a reused one.
SETUP_ROUND_TRIPS: dict[str, int] = {"warm": 0, "cold": 2}


def backbone_rtt_s(distance_km, fixed_ms: float, route_inflation: float):
    """One backbone round trip over a real fibre route, in seconds.

    rtt = fixed_ms + 2 × distance_km × route_inflation / (200 km/ms)

    `route_inflation` (real route length / great-circle distance) and `fixed_ms` (host
    stacks and switching inside the data centres) are fitted on shared/calibration/rtt.csv by
    `python -m latency.calibrate` (fixed term from the 0-km inter-zone rows only).
    Bozkurt et al. (arXiv 1811.10737) give 2.1 as a rule of thumb for the public Internet;
    a provider backbone is straighter.
    """
    return (fixed_ms + 2.0 * distance_km * route_inflation / FIBRE_KM_PER_MS) / 1000.0


def access_rtt_s(access: str) -> float:
    """Access-network round trip for `access` in seconds (ACCESS_RTT_MS, sources there)."""
    return ACCESS_RTT_MS[access] / 1000.0


def network_s(distance_km, access_s, setup_round_trips, fixed_ms, route_inflation, backbone_on):
    """End-to-end network stage of one request, in seconds.

    network = (setup_round_trips + 1) × (access_rtt + backbone_rtt)

    One round trip carries the request and the first streamed bytes of the response (the
    later tokens stream behind it and add no round trip); a cold HTTPS connection adds TCP + TLS
    1.3 = 2 round trips first (calibration README). `backbone_on` is 0 where distance_km == 0:
    the server then sits at the user's access point and no backbone is crossed, so the stage
    holds only the access network and the set-up.
    """
    backbone = backbone_rtt_s(distance_km, fixed_ms, route_inflation) * backbone_on
    return (setup_round_trips + 1) * (access_s + backbone)
