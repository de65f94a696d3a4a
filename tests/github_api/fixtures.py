"""The ``github`` pytest fixture: a started GitHubDouble that fails the test on violations.

Use it from a test module (``tests/`` is on ``sys.path`` through pytest's rootdir conftest)::

    pytest_plugins = ["github_api.fixtures"]

or ``from github_api.fixtures import github  # noqa: F401``.  Inside a test that takes the
``github`` fixture, the name ``github`` is the double: import PyGithub as
``from github import Auth, Github`` (or ``import github as pygithub``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from github_api.double import GitHubDouble


@pytest.fixture
def github() -> Iterator[GitHubDouble]:
    """A running GitHub API double on 127.0.0.1; the test fails if any request broke the API.

    A test that provokes violations on purpose must consume them with ``take_violations()``
    (or ``violations.clear()``) before it ends."""
    double = GitHubDouble().start()
    try:
        yield double
    finally:
        double.stop()
    if double.violations:
        listed = "\n".join(f"  - {v}" for v in double.violations)
        pytest.fail(f"GitHub API double recorded {len(double.violations)} violation(s):\n{listed}")
