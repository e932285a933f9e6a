"""Any string made safe to print: one line, encodable, unable to fake a diagnostic.

Keys and values come from the input, so they may hold line breaks (a key containing
``\\n::error file=...`` would otherwise print a fake annotation), terminal escape
sequences, bidirectional overrides or lone surrogates (which no encoder accepts).
Each such character is shown as a Python-style escape; everything else is kept.
"""

from __future__ import annotations

import re
from functools import cache


# C0 and C1 controls, DEL, lone surrogates, and the Unicode format characters that
# reorder or hide text (bidi embeddings, overrides and isolates; zero-width joiners are
# kept: emoji need them). Compiled on first use: most text is printable as it is, and
# the class of ranges takes half a millisecond to compile.
@cache
def _unsafe() -> re.Pattern[str]:
    return re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every unsafe character escaped (``\\n`` as ``\\x0a``)."""
    if text.isprintable():  # (every unsafe character is one str.isprintable refuses)
        return text
    return _unsafe().sub(_escape, text)
