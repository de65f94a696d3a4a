"""The `github` fixture (the API double) for the act scenarios."""

from github_api.fixtures import github  # noqa: F401  (the fixture)
