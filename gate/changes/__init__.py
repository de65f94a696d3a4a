"""Change sources: one module per source of a change set (git, a patch
file, a writer's result, the GitHub API, a rubric's example)."""
