"""The only package that runs git, one module per job:

- `runner.py`: `Runner`, running git: every process's command line and
  scrubbed environment, the git directory, the private view of a diff;
- `repo.py`: `Repo`, a `Runner`; revisions, merge bases (`Span`), objects,
  history, starting a change's diff (`start_change`);
- `conventions.py`: what every call holds fixed, and reading its answers;
- `view.py`: the private view of the git directory a diff or merge runs in;
- `diff.py`: one running tree diff (`DiffJob`), `parse.py`: parsing its output;
- `counts.py`: the line counts git's numstat lacks (binary files, a lone `\\r`);
- `copies.py`: which new or rewritten file is a copy of a file of the base;
- `catfile.py`: the `git cat-file --batch` session objects are read through,
  and its `git diff-tree --stdin` processes (`gate lab`, `gate backtest`).

The change set of two commits is built in `gate/changes/git.py`.

Every call is built by a `Runner` (`Runner.run`, or `Runner.argv` and
`Runner.env` for a process that streams), with a scrubbed environment:
`GIT_DIR`, `GIT_INDEX_FILE`, `GIT_WORK_TREE` and friends from the caller's
environment are dropped unless passed explicitly, so the gate always reads
the repository it was pointed at.  History is the
commits' own: replace refs and `info/grafts` are ignored, so neither can
move the merge base past a commit of the change.

Diffs are computed tree to tree by one streaming `git diff --raw --numstat -z`
process whose output is parsed chunk by chunk.  No gitattributes file is
consulted, wherever it lives: not the change's own `.gitattributes` (the diff
runs with an empty work tree and an empty index), not the system's
(`GIT_ATTR_NOSYSTEM`), the user's or runner's (`core.attributesFile` is
pinned to the null device), nor `$GIT_DIR/info/attributes` (the diff runs in
a private view of the git directory without it).  An attribute could
otherwise mark files binary, or force a file with NUL bytes to be diffed as
text, and change the line counts between one machine and another.

Files git calls binary (a NUL byte in the first 8000 bytes, or bigger than
`core.bigFileThreshold`) carry no numstat counts; the gate counts them
conservatively, every line of the old blob deleted and every line of the
new blob added (`count_binary`), as it does for the file side of a file
<-> submodule change.  A line ends at `\\n`, `\\r\\n` or `\\r`, as in every
rule; git's numstat ends lines at `\\n` only, so a text file with a `\\r`
alone on either side is counted the same way (`count_lone_cr`).  Every
changed blob is read once for both counts: `gate check` reads them as the
diff's raw records name them, while git still counts lines (`LineCounter`).
Text for content rules is read with one `git cat-file --batch`.

Renames come from that diff (`-M`); copies from a second look at the added
and modified files (`find_copies`): a copy of any file of the base touches
its source, whether or not the change modifies it, and keeps the counts of
the file itself (a copy never shrinks a line budget).
"""
