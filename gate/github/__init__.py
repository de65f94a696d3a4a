"""The Action shell: settings from the environment, the API client (PyGithub),
workflow commands, publishing.  Only this package talks to GitHub."""
