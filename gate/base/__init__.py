"""What every layer needs and that knows no rubric or change: names,
errors, escaping, paths, text, globs, files, JSON, every byte printed."""
