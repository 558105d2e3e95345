#!/usr/bin/env python3
"""The documentation holds together: links resolve, and the option table is the program's.

    check_docs.py links SOURCE_DIR
    check_docs.py options SOURCE_DIR NVBANDWIDTH
    check_docs.py selftest

links: every relative link and image of README.md and of the Markdown pages under docs/ names a
file or folder of the tree, and every #anchor a heading (as GitHub makes an anchor of it) or an
<a id="..."> of the page it points into. Links inside code are not links; http(s) and mailto
links are not checked (the tests reach no network).

options: the option table of docs/options.md lists exactly the options `nvbandwidth -h` prints,
long names and short ones alike, so that an option added, renamed or dropped in the code is
documented in the same change.

selftest: the link check on a small tree of known faults finds each of them and nothing else.

Prints one line per problem; exit 0 when there is none, 1 otherwise, 2 for a usage error.
"""
import glob
import os
import re
import subprocess
import sys
import unicodedata

INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)"
                         r"(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def pages(root):
    found = [os.path.join(root, "README.md")]
    found += glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)
    return sorted(found)


def outside_fences(text):
    """The lines of a text, those of fenced code blocks blanked (line numbers kept)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else line)
    return out


def without_code(text):
    """The text's lines with fenced blocks and code spans blanked."""
    return [re.sub(r"`[^`]*`", "``", line) for line in outside_fences(text)]


def slug(heading):
    """GitHub's anchor of a heading: its text (no markup, no HTML) in lower case, punctuation
    dropped, spaces made hyphens."""
    text = re.sub(r"<[^>]*>", "", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)   # a link: its text
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    kept = []
    for ch in text:
        if ch in " -_" or unicodedata.category(ch)[0] in "LN":
            kept.append("-" if ch == " " else ch)
    return "".join(kept)


def anchors_of(path, cache):
    """The anchors a page offers; cache maps the pages read so far to theirs."""
    if path not in cache:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
        found, seen = set(), {}
        for line in outside_fences(text):
            found.update(EXPLICIT_ID.findall(line))
            match = HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else "%s-%d" % (base, count))
        cache[path] = found
    return cache[path]


def check_links(root):
    problems, anchors = [], {}
    for page in pages(root):
        with open(page, encoding="utf-8") as stream:
            lines = without_code(stream.read())
        for number, line in enumerate(lines, 1):
            for target in INLINE_LINK.findall(line):
                where = "%s:%d: (%s)" % (os.path.relpath(page, root), number, target)
                if re.match(r"[a-z][a-z0-9+.-]*:", target):   # http:, https:, mailto:
                    continue
                path, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) \
                    if path else page
                if not os.path.exists(resolved):
                    problems.append("%s names no file of the tree" % where)
                    continue
                if not os.path.realpath(resolved).startswith(os.path.realpath(root) + os.sep):
                    problems.append("%s points outside the repository" % where)
                    continue
                if anchor:
                    if not resolved.endswith(".md") or os.path.isdir(resolved):
                        problems.append("%s: an anchor into a file that is not a page" % where)
                    elif anchor not in anchors_of(resolved, anchors):
                        problems.append("%s: no heading or id '%s' in %s"
                                        % (where, anchor, os.path.relpath(resolved, root)))
    return problems


def help_options(binary):
    text = subprocess.run([binary, "-h"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          check=True, timeout=60).stdout.decode("utf-8")
    found = set()
    for line in text.split("\n"):
        match = re.match(r"\s+(-\w) \[ (--[\w-]+) \]", line) or re.match(r"\s+(--[\w-]+)", line)
        if match:
            found.update(match.groups())
    return found


def table_options(root):
    with open(os.path.join(root, "docs", "options.md"), encoding="utf-8") as stream:
        text = stream.read()
    section = text[text.index("## Options"):]
    section = section[:section.index("\n## ", 1)]
    found = set()
    for line in section.split("\n"):
        if line.startswith("| `"):
            first = line.split("|")[1]
            found.update(re.findall(r"`(--?[\w-]+)", first))
    return found


def check_options(root, binary):
    documented, printed = table_options(root), help_options(binary)
    problems = []
    if len(printed) < 30:
        problems.append("only %d options read from %s -h" % (len(printed), binary))
    for name in sorted(printed - documented):
        problems.append("docs/options.md: %s (in -h) is not in the option table" % name)
    for name in sorted(documented - printed):
        problems.append("docs/options.md: %s is in the option table but not in -h" % name)
    return problems


def selftest():
    """The link check run on a tree with one fault of each kind, and as many links that are fine."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        root = os.path.join(folder, "repo")
        os.makedirs(os.path.join(root, "docs", "sub"))
        pages = {
            "README.md": "# Title\n\n## Step one: `build` it\n\n[a](docs/a.md#the-a-page) "
                         "[b](docs/a.md#no-such) [c](docs/missing.md) [d](#step-one-build-it) "
                         "[e](https://example.org/x) `[f](docs/nowhere.md)`\n\n"
                         "```\n[g](docs/nowhere.md)\n```\n[h](docs/sub/) [i](docs/a.md#two-1)\n",
            "docs/a.md": "# The A page\n\n## Two\n\n## Two\n\n<a id=\"x1\"></a>text "
                         "[j](../README.md#title) [k](#x1) [l](#x2) [m](../../outside.md)\n",
            "docs/sub/b.md": "[n](../a.md#two) [o](../../docs/a.md)\n",
        }
        for name, text in pages.items():
            with open(os.path.join(root, name), "w", encoding="utf-8") as stream:
                stream.write(text)
        with open(os.path.join(folder, "outside.md"), "w", encoding="utf-8"):
            pass
        found = []
        for problem in check_links(root):
            page = problem.split(":", 1)[0]
            target = problem[problem.index("(") + 1:problem.index(")")]
            found.append("%s: %s" % (page, target))
        found.sort()
    expected = sorted(["README.md: docs/a.md#no-such", "README.md: docs/missing.md",
                       "docs/a.md: #x2", "docs/a.md: ../../outside.md"])
    if found != expected:
        return ["selftest: found %s, expected %s" % (found, expected)]
    return []


def main(argv):
    if len(argv) == 3 and argv[1] == "links":
        problems = check_links(argv[2])
    elif len(argv) == 4 and argv[1] == "options":
        problems = check_options(argv[2], argv[3])
    elif len(argv) == 2 and argv[1] == "selftest":
        problems = selftest()
    else:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    print("%s: %d problem(s)" % (argv[1], len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
