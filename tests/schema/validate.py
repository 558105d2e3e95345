#!/usr/bin/python3
"""Validates nvbandwidth JSON documents against a JSON Schema (draft 2020-12).

Usage: validate.py SCHEMA FILE...   (FILE may be "-" for standard input)
       validate.py --serve SCHEMA     (many documents through one process; see serve())

Prints every error with the JSON path of the offending value and exits 1 when any document is
invalid or unreadable, 0 when all are valid. Needs the jsonschema package (Debian:
python3-jsonschema, 4.10 or later); exits 2 with a hint when it is missing, so that a test
calling this script fails instead of passing vacuously.
"""

import json
import sys

try:
    import jsonschema
except ImportError:
    sys.stderr.write("validate.py: the python3 module jsonschema is missing; "
                     "install it (apt-get install python3-jsonschema)\n")
    sys.exit(2)


def leaves(error):
    """The innermost errors under `error` (oneOf/anyOf keep their branches' errors in context)."""
    if not error.context:
        yield error
        return
    for sub in error.context:
        yield from leaves(sub)


def likeliest_branch(error):
    """The errors of the oneOf/anyOf branch that the document was most likely meant to match.

    "Not valid under any of the given schemas" alone does not say what is wrong. A branch whose
    errors all lie deep in the document matched its outer structure, so its errors are the
    useful ones; among branches that fail equally high up, the one with the fewest errors wins
    (a run report with one unknown top-level key fails the listing branch many times over).
    """
    branches = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)

    def rank(item):
        errors = [leaf for sub in item[1] for leaf in leaves(sub)]
        return (min(len(leaf.absolute_path) for leaf in errors), -len(errors))

    return max(branches.items(), key=rank)


def report(name, error, indent="", out=print):
    alternatives = error.validator in ("oneOf", "anyOf") and error.context
    # jsonschema's own message for these repeats the whole instance, which can be the document.
    message = f"matches none of the {error.validator} alternatives" if alternatives else error.message
    out(f"{name}: {indent}{error.json_path}: {message}")
    if alternatives:
        branch, errors = likeliest_branch(error)
        out(f"{name}: {indent}  in {error.validator} branch {branch}, the closest match:")
        for sub in errors:
            report(name, sub, indent + "    ", out)


def load(path):
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def validator_for(schema_path):
    schema = load(schema_path)
    # A broken schema would reject (or accept) everything for the wrong reason.
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problems(validator, name, document):
    """The lines that say why `document` is invalid (none when it is valid)."""
    lines = []
    errors = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
    for error in errors:
        report(name, error, out=lines.append)
    return lines


def serve(schema_path):
    """Validates the documents sent on stdin one after another, for a harness that checks many
    (importing jsonschema costs a fifth of a second a process). Each request is a line holding
    the document's length in bytes, then the document; each answer one JSON line,
    {"valid": true|false, "lines": [...]}, the lines being what the command line would print for
    an invalid document. Ends at the end of stdin."""
    validator = validator_for(schema_path)
    requests, answers = sys.stdin.buffer, sys.stdout
    while True:
        header = requests.readline()
        if not header:
            return 0
        data = requests.read(int(header))
        try:
            lines = problems(validator, "<stdin>", json.loads(data.decode("utf-8")))
        except ValueError as e:
            lines = [f"<stdin>: cannot read JSON: {e}"]
        answers.write(json.dumps({"valid": not lines, "lines": lines}) + "\n")
        answers.flush()


def main(argv):
    if len(argv) == 3 and argv[1] == "--serve":
        return serve(argv[2])
    if len(argv) < 3:
        sys.stderr.write("usage: validate.py SCHEMA FILE...  (FILE may be - for stdin)\n")
        return 2
    validator = validator_for(argv[1])

    failed = False
    for path in argv[2:]:
        name = "<stdin>" if path == "-" else path
        try:
            document = load(path)
        except (OSError, ValueError) as e:
            print(f"{name}: cannot read JSON: {e}")
            failed = True
            continue
        lines = problems(validator, name, document)
        for line in lines:
            print(line)
        if lines:
            failed = True
        else:
            print(f"{name}: valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
