"""Blast Radius Gate: judge the shape of a change against a frozen rubric."""

__version__ = "0.1.0"
