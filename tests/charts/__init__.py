"""Tests of latency/charts/ (see docs/architecture.md)."""
