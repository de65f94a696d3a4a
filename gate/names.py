"""Public names with no dependencies, cheap to import before any work starts."""

DEFAULT_RUBRIC_PATH = ".github/blast-radius.yml"
DEFAULT_CHECK_NAME = "blast-radius"
