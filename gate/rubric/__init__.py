"""Loading the rubric: its bytes read, parsed, validated, pinned and
checked against its own examples."""
