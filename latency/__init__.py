"""Latency estimator and the app's pure-Python helpers (never imports streamlit).

Public API: Hardware, Model, Estimate, estimate, estimate_sweep, round_trip_s (latency.estimator).
"""

from .estimator import (
    ACCESS_NETWORKS,
    ARCHITECTURES,
    CONNECTIONS,
    DEFAULT_ENGINE,
    ENGINES,
    KINDS,
    STAGES,
    Estimate,
    Hardware,
    Model,
    estimate,
    estimate_sweep,
    round_trip_s,
)

__all__ = [
    "ACCESS_NETWORKS", "ARCHITECTURES", "CONNECTIONS", "DEFAULT_ENGINE", "ENGINES", "KINDS", "STAGES",
    "Estimate", "Hardware", "Model", "estimate", "estimate_sweep", "round_trip_s",
]
