"""The GitHub API client (PyGithub over HTTP, its values and Protocols) and
the Action's settings from the runner's environment.  Only this package talks
to GitHub; the Action that uses it is `gate/action/`."""
