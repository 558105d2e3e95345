#!/usr/bin/env python3
"""Which sentences, table rows and code lines of an earlier README are in no page of today's tree.

    tools/docs_moved.py REVISION [--repo DIR] [--file README.md]

When a reference moves from one page to several (the README into docs/), nothing may be lost on
the way. This splits the earlier file (`git show REVISION:FILE`) into units, each sentence of its
prose, each row of its tables and each line of its code blocks, and looks for each one in every
Markdown file of the working tree (README.md, docs/, tests/), compared with whitespace collapsed,
link targets and emphasis left out (a link's target changes when the text it points at moves).
Headings are not compared: pages are titled anew.

It prints every unit found nowhere, with its line in the earlier file, and the count; exit 0 when
every unit was found, 1 otherwise, 2 for a usage error. A unit reworded on purpose is listed too:
the point is that each one is read and accounted for, not that none is ever reworded.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

LINK = re.compile(r"\]\([^)\s]*\)")       # [text](target) -> [text]
ANCHOR = re.compile(r'<a id="[^"]*"></a>')
SENTENCE_END = re.compile(r"(?<=[.;:!?])\s+(?=[A-Z`(\[*\"])")


def normalize(text):
    text = LINK.sub("]", text)
    text = ANCHOR.sub("", text)
    text = text.replace("**", "").replace("\\|", "|")
    text = re.sub(r"\[([^\]]*)\]", r"\1", text)   # the link's text alone
    return re.sub(r"\s+", " ", text).strip()


def units(markdown):
    """(line number, kind, normalized text) of each sentence, table row and code line."""
    found = []
    paragraph, start, in_code = [], 0, False

    def flush():
        if paragraph:
            text = normalize(" ".join(paragraph))
            for sentence in SENTENCE_END.split(text):
                if len(sentence) > 3:
                    found.append((start, "prose", sentence))
            paragraph.clear()

    for number, line in enumerate(markdown.split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code:
            if stripped:
                found.append((number, "code", normalize(stripped)))
            continue
        if not stripped or stripped.startswith("#"):
            flush()
            continue
        if stripped.startswith("|"):
            flush()
            if not re.fullmatch(r"[|\-: ]+", stripped):
                found.append((number, "row", normalize(stripped)))
            continue
        if re.match(r"(- |\d+\. )", stripped):   # a list item starts a unit of its own
            flush()
            stripped = re.sub(r"^(- |\d+\. )", "", stripped)
        if not paragraph:
            start = number
        paragraph.append(stripped)
    flush()
    return found


def corpus(repo):
    pages = [os.path.join(repo, "README.md")]
    for pattern in ("docs/**/*.md", "tests/**/*.md", "CHANGELOG.md"):
        pages += glob.glob(os.path.join(repo, pattern), recursive=True)
    texts = []
    for page in sorted(set(pages)):
        with open(page, encoding="utf-8") as stream:
            text = stream.read()
        # Code and table cells compared as they are written; prose with its lines joined.
        texts.append(normalize(text))
        texts.append("\n".join(normalize(line) for line in text.split("\n")))
    return "\n".join(texts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision")
    parser.add_argument("--repo", default=".")
    parser.add_argument("--file", default="README.md")
    args = parser.parse_args()
    try:
        old = subprocess.run(["git", "-C", args.repo, "show", "%s:%s" % (args.revision, args.file)],
                             check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout
    except subprocess.CalledProcessError as error:
        print("docs_moved.py: %s" % error.stderr.decode("utf-8", "replace").strip(),
              file=sys.stderr)
        return 2
    today = corpus(args.repo)
    everything = units(old.decode("utf-8"))
    missing = [u for u in everything if u[2] not in today]
    for number, kind, text in missing:
        print("%s:%d (%s): %s" % (args.file, number, kind, text))
    print("%d of %d units of %s:%s are in no page" % (len(missing), len(everything),
                                                     args.revision, args.file))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
