"""Extract the part of GitHub's GraphQL schema the Action's queries use.

Usage (from the repository root)::

    cd /tmp && npm pack @octokit/graphql-schema && tar xzf octokit-graphql-schema-*.tgz
    python tests/github_api/extract_graphql.py /tmp/package

The argument is the unpacked npm package folder (``package.json`` names the
version, ``schema.graphql`` is GitHub's public schema).  The output,
``tests/github_api/graphql_subset.graphql``, keeps every type the queries in
``QUERIES`` reach, with the fields they select (and, on a kept object type,
the fields of the kept interfaces it implements), each field with all of its
arguments and their input types whole, every enum value, and no prose
(descriptions and directives dropped).  A query the schema does not accept
fails here; the double validates every query it is sent against the output,
so a field the Action asks for that GitHub does not have fails a test.  The
output is deterministic: same package, same bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "graphql_subset.graphql"
BUILTIN_SCALARS = {"String", "Int", "Float", "Boolean", "ID"}


def queries() -> list[str]:
    """The GraphQL documents the Action sends."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from gate.github.client import CLOSING_ISSUES_QUERY

    return [CLOSING_ISSUES_QUERY]


def _type_text(t: Any) -> str:
    return str(t)  # graphql-core prints wrapped types as SDL does: [Issue!]!


def _default(arg: Any) -> str:
    from graphql import Undefined, ast_from_value, print_ast

    if arg.default_value is Undefined:
        return ""
    node = ast_from_value(arg.default_value, arg.type)
    return "" if node is None else f" = {print_ast(node)}"


def _args(field: Any) -> str:
    if not field.args:
        return ""
    inner = ", ".join(
        f"{name}: {_type_text(arg.type)}{_default(arg)}" for name, arg in sorted(field.args.items())
    )
    return f"({inner})"


def subset(schema_text: str, documents: list[str]) -> str:
    from graphql import (
        TypeInfo,
        TypeInfoVisitor,
        Visitor,
        build_schema,
        get_named_type,
        is_enum_type,
        is_input_object_type,
        is_interface_type,
        is_object_type,
        is_scalar_type,
        is_union_type,
        parse,
        visit,
    )

    schema = build_schema(schema_text, assume_valid_sdl=True)
    fields: dict[str, set[str]] = defaultdict(set)
    named: set[str] = {"Query"}

    def keep_input(t: Any) -> None:
        named_type = get_named_type(t)
        if named_type.name in named:
            return
        named.add(named_type.name)
        if is_input_object_type(named_type):
            for field in named_type.fields.values():
                keep_input(field.type)

    info = TypeInfo(schema)

    class Collect(Visitor):
        def enter_field(self, node: Any, *_: Any) -> None:
            parent = info.get_parent_type()
            definition = info.get_field_def()
            if parent is None or node.name.value.startswith("__"):
                return
            if definition is None:
                raise SystemExit(f"{parent.name}.{node.name.value} is not in GitHub's schema")
            fields[parent.name].add(node.name.value)
            named.add(get_named_type(definition.type).name)
            for arg in definition.args.values():
                keep_input(arg.type)

        def enter_inline_fragment(self, node: Any, *_: Any) -> None:
            if node.type_condition is not None:
                named.add(node.type_condition.name.value)

        def enter_fragment_definition(self, node: Any, *_: Any) -> None:
            named.add(node.type_condition.name.value)

        def enter_variable_definition(self, node: Any, *_: Any) -> None:
            inner = node.type
            while hasattr(inner, "type"):
                inner = inner.type
            keep_input(schema.get_type(inner.name.value))

    for document in documents:
        visit(parse(document), TypeInfoVisitor(info, Collect()))

    out: list[str] = []
    for name in sorted(named - BUILTIN_SCALARS):
        t = schema.get_type(name)
        if t is None:
            raise SystemExit(f"type {name} is not in GitHub's schema")
        if is_scalar_type(t):
            out.append(f"scalar {name}")
        elif is_enum_type(t):
            values = "\n".join(f"  {v}" for v in sorted(t.values))
            out.append(f"enum {name} {{\n{values}\n}}")
        elif is_input_object_type(t):
            body = "\n".join(
                f"  {n}: {_type_text(f.type)}{_default(f)}" for n, f in sorted(t.fields.items())
            )
            out.append(f"input {name} {{\n{body}\n}}")
        elif is_union_type(t):
            members = [m.name for m in t.types if m.name in named]
            out.append(f"union {name} = {' | '.join(sorted(members))}")
        elif is_object_type(t) or is_interface_type(t):
            interfaces = sorted(i.name for i in t.interfaces if i.name in named)
            wanted = set(fields[name])
            for interface in interfaces:
                wanted |= fields[interface]
            keyword = "type" if is_object_type(t) else "interface"
            implements = f" implements {' & '.join(interfaces)}" if interfaces else ""
            body = "\n".join(
                f"  {n}{_args(t.fields[n])}: {_type_text(t.fields[n].type)}" for n in sorted(wanted)
            )
            if not body:  # a type only named in a fragment: keep one field GitHub has
                first = sorted(t.fields)[0]
                body = f"  {first}{_args(t.fields[first])}: {_type_text(t.fields[first].type)}"
            out.append(f"{keyword} {name}{implements} {{\n{body}\n}}")
    return "\n\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", type=Path, help="the unpacked @octokit/graphql-schema folder")
    args = parser.parse_args()
    version = json.loads((args.package / "package.json").read_text())["version"]
    text = subset((args.package / "schema.graphql").read_text(), queries())
    header = (
        f"# Generated by tests/github_api/extract_graphql.py from @octokit/graphql-schema "
        f"{version}\n# (MIT, LICENSE-octokit-graphql-schema): the types the Action's queries "
        "use.\n\n"
    )
    OUT.write_text(header + text)
    from graphql import build_schema, parse, validate

    for document in queries():
        errors = validate(build_schema(OUT.read_text()), parse(document))
        if errors:
            raise SystemExit(f"the subset refuses a query: {errors[0].message}")
    print(f"wrote {OUT} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
