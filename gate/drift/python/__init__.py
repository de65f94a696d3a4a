"""Python, for the engine and for the content rules that judge Python: the
one Python syntax-tree toolkit (`tree.py`: the tree walked once, a node's
dotted name, a file's top-level statements), a test file as units and
what a new module's collection-time code reaches (`units.py`, the
engine's `READER`), the jobs those read (`scopes.py`, `calls.py`,
`decorators.py`, `shared.py`, `namespaces.py`: where an `exec` writes,
`splitter.py`), whether a modified helper module only grew (`helpers.py`,
the reader's `grew`), and what Python imports instead of a named module
(`finder.py`), from a test folder above all (`shadow.py`).  Nothing is
imported here: each module is imported by name."""
