"""The values and their pure functions: a change set, a rubric, a report,
the waivers.  Nothing here loads, validates or runs git."""
