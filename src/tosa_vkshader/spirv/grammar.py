"""Names and numbers from the generated grammar tables, in the shapes the reader wants."""

from __future__ import annotations

from .grammar_tables import ENUMS, GRAMMAR_VERSION, HEADERS_VERSION, MAGIC, OPS

__all__ = ["ENUMS", "GRAMMAR_VERSION", "HEADERS_VERSION", "MAGIC", "OP", "OPS", "enum_name",
           "enum_value", "op_name"]

# opcode name -> opcode, e.g. OP["OpTypeTensorARM"] == 4163
OP: dict[str, int] = {name: code for code, (name, _cls, _t, _r) in OPS.items()}

_ENUM_NAMES: dict[str, dict[int, str]] = {}
for _kind, _table in ENUMS.items():
    names: dict[int, str] = {}
    for _name, _value in _table.items():
        names.setdefault(_value, _name)
    _ENUM_NAMES[_kind] = names


def enum_value(kind: str, name: str) -> int:
    return ENUMS[kind][name]


def enum_name(kind: str, value: int) -> str:
    """The grammar's name for an enumerant, or the number itself when unknown."""
    return _ENUM_NAMES[kind].get(value, str(value))


def op_name(opcode: int) -> str:
    entry = OPS.get(opcode)
    return entry[0] if entry else f"Op#{opcode}"


def ops_of_class(cls: str) -> frozenset[int]:
    return frozenset(code for code, (_n, c, _t, _r) in OPS.items() if c == cls)


# Word index (inside an instruction) of the result id, 0 when it has none; indexed by opcode.
_result_word = bytearray(65536)
for _code, (_n, _c, _has_type, _has_result) in OPS.items():
    if _has_result:
        _result_word[_code] = 2 if _has_type else 1
RESULT_WORD: bytes = bytes(_result_word)
