"""Tests of latency/estimation/ (see docs/architecture.md)."""
