"""Tests of latency/language/ (see docs/architecture.md)."""
