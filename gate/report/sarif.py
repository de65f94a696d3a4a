"""`--format sarif`: a verdict as SARIF 2.1.0, the log GitHub code scanning
uploads (`github/codeql-action/upload-sarif`).

One run; `tool.driver` names the gate (name, version, informationUri) and
lists every rule the report judged (`rules[]`: id, name, descriptions, and
`defaultConfiguration.level` error, or warning for a `level: warn` rule), in
the report's order.  One result per place a failed rule points at
(`RuleResult.located`, as the Action's annotations: its findings with their
lines, else each offending path, a file-level result), each with `ruleId`,
`ruleIndex`, `level` error (warning where the rule failed at level warn),
`message.text` and one location.  A failed rule that names no path gets one
result located at the rubric's repository path (code scanning shows only
results with a location, and the rubric is where such a rule lives).
`artifactLocation.uri` is the path relative to the repository root,
percent-encoded as a URI reference (RFC 3986; a byte that is not UTF-8 is
encoded as itself).  `partialFingerprints` carries a hash of rule id, path
and message, so code scanning matches a finding across runs.  Passing and
waived rules give no result.  Deterministic: the same report gives the
same bytes (`gate.base.jsontext.dumps`).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from gate import __version__
from gate.base.jsontext import dumps
from gate.base.names import PROJECT_URL, TOOL_NAME, WARN
from gate.base.paths import to_bytes, visible

if TYPE_CHECKING:
    from gate.model.report import Report, RuleResult

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
FINGERPRINT = "blastRadiusGate/v1"


def uri(path: str) -> str:
    """A repository path as a relative URI reference: every byte but
    unreserved characters and `/` percent-encoded (so `:` in a first
    segment cannot read as a scheme, and `%`, `#`, `?`, spaces and
    newlines stay part of the path)."""
    return quote(to_bytes(path).lstrip(b"/"), safe="/")


def _rule(r: RuleResult) -> dict[str, Any]:
    short = f"{r.kind} rule {r.id}"
    full = r.description.strip() if r.description else short
    return {
        "id": r.id,
        "name": r.kind,
        "shortDescription": {"text": visible(short)},
        "fullDescription": {"text": visible(full)},
        "defaultConfiguration": {"level": "warning" if r.level == WARN else "error"},
    }


def _result(r: RuleResult, index: int, message: str, path: str, line: int | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": uri(path)}}
    if line is not None and line >= 1:
        location["region"] = {"startLine": line}
    key = "\0".join((r.id, visible(path), visible(message)))
    return {
        "ruleId": r.id,
        "ruleIndex": index,
        "level": "warning" if r.warned else "error",
        "message": {"text": visible(message)},
        "locations": [{"physicalLocation": location}],
        "partialFingerprints": {FINGERPRINT: hashlib.sha256(key.encode()).hexdigest()},
    }


def results_of(r: RuleResult, index: int, rubric_path: str) -> list[dict[str, Any]]:
    """One failed rule's results: one per place it points at
    (`RuleResult.located`: its findings, else each offending path), or one
    at the rubric when it names none."""
    out = [_result(r, index, f.message, f.path, f.line) for f in r.located()]
    return out or [_result(r, index, r.message, rubric_path, None)]


def to_sarif(report: Report, rubric_path: str) -> str:
    """The report as one SARIF 2.1.0 log (JSON text)."""
    failed = set(report.failed)
    results: list[dict[str, Any]] = []
    for index, r in enumerate(report.results):
        if r.id in failed or r.warned:
            results += results_of(r, index, rubric_path)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": TOOL_NAME,
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": PROJECT_URL,
                "rules": [_rule(r) for r in report.results],
            }
        },
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {
            "pass": report.passed,
            "nothing_judged": report.judged_nothing,
            "failed": list(report.failed),
            "rubric_sha256": report.rubric_sha256,
            "base": report.base,
            "head": report.head,
            "notes": [visible(n) for n in report.notes],
        },
    }
    return dumps({"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]})
