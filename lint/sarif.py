"""SARIF 2.1.0 output, for GitHub code scanning and other SARIF viewers."""

from __future__ import annotations

import os
from urllib.parse import quote

from . import __version__
from .baseline import fingerprints
from .model import Finding, LineIndex, Location, Severity
from .report import json_text
from .rulekit import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# Where a rule's documentation lives; `launchlint --explain CODE` prints the same text.
HELP_URI = "https://github.com/launchlint/launchlint/blob/main/README.md#rules"
# The base of every relative `artifactLocation.uri` (SARIF 2.1.0 §3.4.4, §3.14.14): the directory
# the other formats show paths relative to, named in `run.originalUriBaseIds`.
SRCROOT = "%SRCROOT%"


def _uri(path: str) -> str:
    """`path` as a URI path (RFC 3986): each byte but `/` and the unreserved characters
    percent-encoded, so a space, `#`, `%`, `:` or a newline in a file name stays part of the
    path. A name that is not UTF-8 keeps its bytes (`%E9`), as a `file:` URI of it must."""
    return quote(path, safe="/", errors="surrogateescape")


def _artifact(path: str, show) -> dict:
    """The `artifactLocation` of a project path, for every location in the log: relative to
    `SRCROOT` when `show` gives it relative to the current directory, else an absolute `file:`
    URI with no base."""
    shown = show(path)
    if shown.startswith("/"):
        return {"uri": "file://" + _uri(shown)}
    return {"uri": _uri(shown), "uriBaseId": SRCROOT}


def _base_ids() -> dict:
    """`run.originalUriBaseIds`: SRCROOT is the current directory (report.Paths shows paths
    relative to its real path), as a `file:` URI ending in `/`."""
    directory = os.path.realpath(os.getcwd())
    return {SRCROOT: {"uri": "file://" + _uri(directory.rstrip("/") + "/")}}


def _level(severity: Severity) -> str:
    return "error" if severity is Severity.ERROR else "warning"


def _region(location: Location) -> dict:
    region = {"startLine": location.line, "startColumn": location.column}
    if (location.end_line, location.end_column) > (location.line, location.column):
        region.update(endLine=location.end_line, endColumn=location.end_column)
    return region


def _physical(location: Location, show) -> dict:
    return {"artifactLocation": _artifact(location.path, show), "region": _region(location)}


def _rules() -> list[dict]:
    return [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.doc.split("## Why is this bad?")[0].replace("## What it does", "").strip()},
            "help": {"text": rule.doc, "markdown": rule.doc},
            "helpUri": HELP_URI,
            "defaultConfiguration": {"level": _level(rule.severity)},
        }
        for rule in all_rules()
    ]


def _fix(finding: Finding, show, indexes: dict[str, LineIndex]) -> list[dict]:
    if finding.fix is None:
        return []
    changes = {}
    for edit in finding.fix.edits:
        index = indexes.get(edit.path)
        if index is None:
            return []
        (line, column), (end_line, end_column) = index.position(edit.start), index.position(edit.end)
        region = {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}
        changes.setdefault(edit.path, []).append({"deletedRegion": region, "insertedContent": {"text": edit.text}})
    return [
        {
            "description": {"text": finding.fix.description},
            "artifactChanges": [
                {"artifactLocation": _artifact(path, show), "replacements": replacements}
                for path, replacements in changes.items()
            ],
        }
    ]


def to_sarif(findings: list[Finding], show, indexes: dict[str, LineIndex]) -> str:
    codes = [rule.code for rule in all_rules()]
    results = []
    for finding, print_ in zip(findings, fingerprints(findings, indexes)):
        result = {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code),
            "level": _level(finding.severity),
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": _physical(finding.location, show)}],
            "partialFingerprints": {"primaryLocationLineHash": print_},
        }
        if finding.related:
            result["relatedLocations"] = [
                {"id": n, "physicalLocation": _physical(r.location, show), "message": {"text": r.message}}
                for n, r in enumerate(finding.related)
            ]
        fixes = _fix(finding, show, indexes)
        if fixes:
            result["fixes"] = fixes
        results.append(result)
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "launchlint",
                        "version": __version__,
                        "informationUri": HELP_URI,
                        "rules": _rules(),
                    }
                },
                "originalUriBaseIds": _base_ids(),
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json_text(log)
