"""Tests of latency/measured/ (see docs/architecture.md)."""
