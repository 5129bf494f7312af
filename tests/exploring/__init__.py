"""Tests of latency/exploring/ (see docs/architecture.md)."""
