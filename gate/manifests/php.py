"""composer.json, as Composer reads it: `require` and `require-dev`
(platform packages, `php`, `ext-*`, `lib-*`, `composer-*-api`, are not
packages), and each of `repositories` an index (a VCS, path or package
repository, or `packagist.org` turned off).  Names compare in lower
case."""

from __future__ import annotations

import re

from gate.base.structured import json_object, json_text
from gate.manifests.dependency import INDEX, Dependency, entry

_PLATFORM = re.compile(r"php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.*|lib-.*|composer(-.*)?-api")


def composer_json(path: str, text: str) -> list[Dependency]:
    data = json_object(text)
    out: list[Dependency] = []
    for section in ("require", "require-dev"):
        deps = data.get(section)
        for name, spec in deps.items() if isinstance(deps, dict) else ():
            if not _PLATFORM.fullmatch(name.lower()):
                shown = spec if isinstance(spec, str) else json_text(spec)
                out.append(entry("php", path, section, name, spec=shown))
    repositories = data.get("repositories")
    items = list(repositories.values()) if isinstance(repositories, dict) else repositories or []
    for item in items if isinstance(items, list) else [items]:
        place = item.get("url") if isinstance(item, dict) else None
        named = place if isinstance(place, str) else json_text(item)
        out.append(entry("php", path, "repositories", named, source=named, role=INDEX))
    return out
