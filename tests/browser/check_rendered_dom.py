#!/usr/bin/python3
"""Checks the DOM Chromium built from an HTML report against the JSON report it was rendered from.

Usage: check_rendered_dom.py DOM.html REPORT.json

DOM.html is what `chromium --headless --dump-dom` printed: the page after the browser parsed it,
serialised as HTML (so it is read with html.parser, not as XML). Every passed matrix entry must
have become an <svg class="heatmap"> with its name, rows * columns cells, and on each cell the
value the report has (2 decimals, "N/A" for null); every sweep series a chart; and the browser
must have found no script. Prints what it checked; exits 1 with the differences otherwise.
"""

import json
import sys
from html.parser import HTMLParser


class ReportDom(HTMLParser):
    """Collects heatmaps (name, rows, cols, cell texts and data-values) and sweep charts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.heatmaps, self.sweeps, self.scripts = [], [], 0
        self.heatmap = self.cell = None
        self.in_value = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "script":
            self.scripts += 1
        if tag == "svg" and "heatmap" in classes:
            self.heatmap = {"name": a.get("data-name"), "rows": int(a["data-rows"]),
                            "cols": int(a["data-cols"]), "cells": []}
        if tag == "svg" and "sweep" in classes:
            self.sweeps.append(a.get("data-name"))
        if tag == "g" and "cell" in classes and self.heatmap is not None:
            self.cell = {"value": a.get("data-value"), "text": ""}
            self.heatmap["cells"].append(self.cell)
        self.in_value = tag == "text" and "cell-value" in classes and self.cell is not None

    def handle_endtag(self, tag):
        if tag == "text":
            self.in_value = False
        if tag == "g":
            self.cell = None
        if tag == "svg" and self.heatmap is not None:
            self.heatmaps.append(self.heatmap)
            self.heatmap = None

    def handle_data(self, data):
        if self.in_value:
            self.cell["text"] += data


def expected_heatmaps(report):
    for entry in report["nvbandwidth"].get("testcases", []):
        if entry["status"] == "Passed" and "values" in entry:
            yield entry


def heatmap_problems(entry, heatmap):
    name, values = entry["name"], entry["values"]
    rows, cols = len(values), len(values[0])
    if (heatmap["name"], heatmap["rows"], heatmap["cols"]) != (name, rows, cols):
        return ["%s: heatmap %r %dx%d, expected %dx%d" %
                (name, heatmap["name"], heatmap["rows"], heatmap["cols"], rows, cols)]
    if len(heatmap["cells"]) != rows * cols:
        return ["%s: %d cells, expected %d" % (name, len(heatmap["cells"]), rows * cols)]
    problems = []
    for k, cell in enumerate(heatmap["cells"]):
        value = values[k // cols][k % cols]
        text = "N/A" if value is None else "%.2f" % value
        exact = cell["value"] == "" if value is None else float(cell["value"]) == value
        if cell["text"] != text or not exact:
            problems.append("%s[%d][%d]: shows %r (data-value %r), expected %r" %
                            (name, k // cols, k % cols, cell["text"], cell["value"], text))
    return problems


def main():
    dom = ReportDom()
    with open(sys.argv[1], encoding="utf-8") as f:
        dom.feed(f.read())
    with open(sys.argv[2], encoding="utf-8") as f:
        report = json.load(f)
    entries = list(expected_heatmaps(report))
    problems = [] if dom.scripts == 0 else ["the DOM has %d script elements" % dom.scripts]
    if len(dom.heatmaps) != len(entries):
        problems.append("%d heatmaps in the DOM, %d matrix entries in the report" %
                        (len(dom.heatmaps), len(entries)))
    for entry, heatmap in zip(entries, dom.heatmaps):
        problems += heatmap_problems(entry, heatmap)
    series = [s["name"] for s in report["nvbandwidth"].get("sweep", {}).get("series", [])]
    if dom.sweeps != series:
        problems.append("sweep charts %r, series %r" % (dom.sweeps, series))
    if problems:
        print("\n".join(problems))
        return 1
    cells = sum(len(h["cells"]) for h in dom.heatmaps)
    print("DOM: %d heatmaps, %d cells with their values, %d sweep charts" %
          (len(dom.heatmaps), cells, len(dom.sweeps)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
