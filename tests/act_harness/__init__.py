"""Helpers to run workflows under nektos/act (tests/act, bench/bench_action.py)."""
