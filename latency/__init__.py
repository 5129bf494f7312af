"""Latency estimator and the app's pure-Python helpers (never imports streamlit).

Public API: Hardware, Model, Estimate, estimate, estimate_sweep, round_trip_s (latency.estimation.estimator);
read_latency_log, summarize_latency, LogError (latency.measured.logs: people's own request logs).
"""

from latency.estimation.estimator import (
    ACCESS_NETWORKS,
    ARCHITECTURES,
    ARRIVALS,
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
from latency.measured.logs import LogError, read_latency_log, summarize_latency

__all__ = [
    "ACCESS_NETWORKS", "ARCHITECTURES", "ARRIVALS", "CONNECTIONS", "DEFAULT_ENGINE", "ENGINES", "KINDS", "STAGES",
    "Estimate", "Hardware", "Model", "estimate", "estimate_sweep", "round_trip_s",
    "LogError", "read_latency_log", "summarize_latency",
]
