"""Writers the project ships for `gate loop run`: only `replay` (recorded
outputs from a folder), so tests, CI and a demo run without keys or network.
Real writers are the user's commands."""
