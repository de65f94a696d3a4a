"""A private view of the git directory for a git run that reads no
gitattributes file (a tree diff, a merge): an empty work tree and index,
and the git directory without `info/attributes`."""

from __future__ import annotations

import os
import shutil
import tempfile

from gate.base.errors import GateError


def private_view(
    common: str, env: dict[str, str], folder: str, what: str
) -> tuple[dict[str, str], str]:
    """The environment and folder for a git run that reads no gitattributes
    file: an empty work tree with an empty index, and a view of the git
    directory without `info/attributes` (`_view_without_attributes`), both
    under `folder`; objects are the repository's own.  No `.gitattributes`
    of the change can then mark files `-diff`, nor pick a merge driver.
    `common` is the repository's common git directory (`Runner.common_dir`),
    `env` the scrubbed environment (`Runner.env()`), which gets the view's
    variables and is returned; `what` names the git run in an error."""
    empty = os.path.join(folder, "work")
    view = os.path.join(folder, "git")
    try:
        os.mkdir(empty)
        _view_without_attributes(common, view)
    except OSError as exc:
        raise GateError(
            f"cannot prepare a private view of {common} for {what} "
            f"({exc.strerror or exc}): check that {tempfile.gettempdir()} is writable"
        ) from None
    env.update(
        {
            "GIT_DIR": view,
            "GIT_OBJECT_DIRECTORY": os.path.join(common, "objects"),
            "GIT_WORK_TREE": empty,
            "GIT_INDEX_FILE": os.path.join(empty, "index"),
        }
    )
    return env, empty


def _view_without_attributes(common: str, view: str) -> None:
    """Make folder `view` a git directory that is `common` minus `info/attributes`.

    git reads `$GIT_COMMON_DIR/info/attributes` in every diff, and no option
    or variable turns that off (`core.attributesFile` and `GIT_ATTR_NOSYSTEM`
    cover the other two files).  The view links every entry of the real
    directory (objects, config, refs, shallow, ...) except `info`, rebuilt
    from links without `attributes`, and `HEAD`, copied (git refuses a
    symlinked HEAD that does not point into refs/)."""
    os.mkdir(view)
    for entry in os.listdir(common):
        source = os.path.join(common, entry)
        target = os.path.join(view, entry)
        if entry == "HEAD":
            shutil.copyfile(source, target)
        elif entry == "info":
            os.mkdir(target)
            for item in os.listdir(source):
                if item != "attributes":
                    os.symlink(os.path.join(source, item), os.path.join(target, item))
        elif entry not in ("index", "commondir"):
            os.symlink(source, target)
