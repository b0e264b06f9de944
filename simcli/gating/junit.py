"""JUnit XML for CI systems: one test case per gate or assertion."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Case:
    name: str
    status: str  # "pass", "fail" or "inconclusive"
    message: str
    seconds: float = 0.0


def write_junit(path: Path, suite: str, cases: list[Case]) -> None:
    """A ``fail`` is a ``<failure>``. An ``inconclusive`` gate (which must not pass CI) is a
    ``<failure type="inconclusive">``; an ``inconclusive`` assertion (the interval straddles
    its threshold) is ``<skipped>`` — use status ``skipped`` for that."""
    failures = sum(1 for c in cases if c.status in ("fail", "inconclusive"))
    skipped = sum(1 for c in cases if c.status == "skipped")
    total_time = sum(c.seconds for c in cases)
    root = ET.Element(
        "testsuites",
        name="simcli",
        tests=str(len(cases)),
        failures=str(failures),
        errors="0",
        time=f"{total_time:.3f}",
    )
    node = ET.SubElement(
        root,
        "testsuite",
        name=suite,
        tests=str(len(cases)),
        failures=str(failures),
        errors="0",
        skipped=str(skipped),
        time=f"{total_time:.3f}",
    )
    for case in cases:
        element = ET.SubElement(
            node,
            "testcase",
            classname=f"simcli.{suite}",
            name=case.name,
            time=f"{case.seconds:.3f}",
        )
        if case.status == "skipped":
            ET.SubElement(element, "skipped", message=case.message)
        elif case.status != "pass":
            failure = ET.SubElement(
                element,
                "failure",
                type=case.status,
                message=case.message.splitlines()[0] if case.message else "",
            )
            failure.text = case.message
        else:
            ET.SubElement(element, "system-out").text = case.message
    ET.indent(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
