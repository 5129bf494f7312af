"""Tests of latency/teaching/ (see docs/architecture.md)."""
