"""What every client module shares: the error a client raises when it cannot read an output."""
import re


class ClientError(Exception):
    """The client rejects the output (a failed parse, a missing document, a crash)."""


# A field that parses as a decimal float (the clients' strconv/float() style; no hex, no
# underscores), or inf/nan spelled out, as the float parsers of Go and Python accept them.
_FLOAT = re.compile(
    r'[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)\Z', re.IGNORECASE)


def parse_float(text):
    """The float a client's parser makes of `text`, or None when it does not parse."""
    if not _FLOAT.match(text):
        return None
    return float(text)
