"""A local GitHub REST API double checked against GitHub's OpenAPI description."""
