"""What ``tosa-vkshader fix`` does to a file's text (and the web's ``POST /v1/fix``).

The file is checked, and the fixes its diagnostics carry are applied (the safe ones; the
unsafe ones too when asked for), then it is checked again, until no fix is left to apply
(a fix that overlapped another is found again in the next round). Then, as fixes of the
same kind, the rewrites no diagnostic asks for (``rewrites.py``): missing ``_type``
members, and when asked for the SPIR-V embedded and the keys in canonical order. Every
change is a minimal edit of the text: the rest of the file stays byte for byte.

An op with a repair only a person can decide (a near-miss key without one right name, a
key given twice: which value is meant is not a mechanical decision) is not repaired at
all, never half: a JSON file is then left as it is, and in a model the other ops are
still repaired. When the shader to embed does not compile, a JSON file is left as it is;
in a model, that op keeps its source (and its other repairs).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from ..check import Findings, source_findings
from ..config import Options
from ..diagnostics import Diagnostic, Fix, Location, Severity
from ..fixes import apply_edits
from ..keys import classify
from ..rules.key_names import NEAR_MISS_CODES
from ..sources.base import Op, SourceFile
from ..sources.jsontext import DUPLICATE_KEY
from ..sources.mlir_source import read_mlir
from ..sources.read import source_of
from .codegen_rules import FIX_AMBIGUOUS, FIX_UNREADABLE
from .rewrites import canonical_keys, embedded_spirv, type_members

# A fix that overlaps another waits for the next round; a file needs few.
MAX_ROUNDS = 10


@dataclass(slots=True)
class Repair:
    """One file's repair. ``fixed`` is the new text (the same text when nothing changed),
    or None when the file must stay as it is; ``problems`` say why, or what could not
    be done; ``found`` and ``left`` are the file's diagnostics before and after."""

    path: str | None
    original: str
    fixed: str | None = None
    changes: list[str] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    found: list[Diagnostic] = field(default_factory=list)
    left: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.fixed is not None and self.fixed != self.original

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.problems)

    def diff(self) -> str:
        """A unified diff from the original to the fixed text ("" when unchanged), valid
        for `patch` and `git apply` also when a file does not end with a newline."""
        if not self.changed or self.fixed is None:
            return ""
        return unified_diff(self.original, self.fixed, self.path or "<input>")


def unified_diff(before: str, after: str, name: str) -> str:
    """A unified diff; a last line without a newline is marked as diff(1) does."""
    out = []
    for line in difflib.unified_diff(before.splitlines(keepends=True),
                                     after.splitlines(keepends=True),
                                     fromfile=f"a/{name.lstrip('/')}",
                                     tofile=f"b/{name.lstrip('/')}"):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def repair(data: bytes | str, path: str | None, options: Options, *, unsafe: bool = False,
           embed_spirv: bool = False, sort_keys: bool = False, shaders: bool = True,
           model: bool | None = None) -> Repair:
    """Repair one file's text (read by its suffix as ``check`` reads it: JSON, or TOSA
    MLIR for ``.mlir``; ``model`` says which whatever the path is); see the module's
    documentation. Without ``shaders`` the checks that compile or read the shader do not
    run (nor does ``embed_spirv``): the fixes the attribute rules carry, and
    ``found``/``left`` without the shader's findings."""
    if isinstance(data, str):
        text: str | None = data
        result = Repair(path, data)
    else:
        text = _utf8(data)
        result = Repair(path, data.decode("utf-8", "replace"))
    if model is None:
        model = bool(path and path.lower().endswith(".mlir"))
    repairing = _Repairing(result, options, model, shaders)
    checked = repairing.check(text.removeprefix("\ufeff") if text is not None else data)
    result.found = result.left = checked.findings.all()
    if not (model or repairing.readable(checked)) or text is None:
        return result  # (not JSON; or a model that is not UTF-8, its check says where)
    refused = repairing.refused(checked)
    if refused is None:
        return result  # (a JSON file with a repair only a person can decide)
    for _ in range(MAX_ROUNDS):  # the diagnostics' own fixes
        fixes = [d.fix for k, found in enumerate(checked.findings.ops) if k not in refused
                 for d in found if d.fix is not None]
        after = repairing.apply(checked, fixes, unsafe)
        if after is None:
            break
        checked = after
    steps = [repairing.type_members] + [repairing.embedded] * (embed_spirv and shaders) + \
        [repairing.sorted_keys] * sort_keys
    for step in steps:
        made = step(checked, refused)
        if made is None:  # (an embedding failed in a JSON file: nothing is written)
            return result
        checked = repairing.apply(checked, made, False) or checked
    result.fixed = ("\ufeff" if text.startswith("\ufeff") else "") + str(checked.text)
    result.left = checked.findings.all()
    return result


def _utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None  # (the check says where; nothing is rewritten)


@dataclass(slots=True)
class _Checked:
    """A text, read and checked."""

    text: str | bytes
    source: SourceFile
    findings: Findings


@dataclass(slots=True)
class _Repairing:
    """One file's repair under way: the result so far, and how to check a text."""

    result: Repair
    options: Options
    model: bool  # a TOSA MLIR file (its ops are repaired or refused one by one)
    shaders: bool  # whether the shader stage runs (see repair)

    def check(self, text: str | bytes) -> _Checked:
        source = read_mlir(text, self.result.path, self.options) if self.model \
            else source_of(text, self.options, self.result.path)
        return _Checked(text, source,
                        source_findings([source], self.options, shaders=self.shaders)[0])

    def apply(self, checked: _Checked, fixes: list[Fix], unsafe: bool) -> _Checked | None:
        """The text with ``fixes`` applied and checked again (what was changed noted), or
        None when none of them applies."""
        assert isinstance(checked.text, str)
        text, applied = apply_edits(checked.text, fixes, unsafe=unsafe)
        if not applied:
            return None
        several = self.model or len(checked.source.ops) > 1
        for fix in applied:
            where = fix.edits[0].range
            self.result.changes.append(f"op at line {where.line}: {fix.title}"
                                       if several and where is not None else fix.title)
        return self.check(text)

    def readable(self, checked: _Checked) -> bool:
        """Whether a JSON file can be repaired at all (VKS621 when it cannot)."""
        document = checked.source.document
        if document is not None and isinstance(document.value, (dict, list)):
            return True
        what = "it is not valid JSON" if document is None else "it is not a JSON object"
        self.result.problems += [d for d in self.result.found if d.severity is Severity.ERROR]
        self.result.problems.append(FIX_UNREADABLE.at(
            "", f"{self.result.path or '<input>'}: nothing fixed: {what}").located(
            document.locate("") if document is not None else None))
        return False

    def refused(self, checked: _Checked) -> set[int] | None:
        """The ops not to repair (VKS620 for each); None when the file is not to be
        repaired at all (a JSON file with duplicate keys, or with an op that is refused)."""
        name = self.result.path or "<input>"
        duplicates = [d for d in checked.findings.file if d.code == DUPLICATE_KEY.code]
        if duplicates and not self.model:
            self.result.problems += duplicates
            self.result.problems.append(FIX_AMBIGUOUS.at(
                "", f"{name}: nothing fixed: the file has duplicate keys, and which value "
                    "is meant is not a mechanical decision",
                hint="remove the duplicates by hand, then run fix again").located(
                Location(self.result.path, 1, 1)))
            return None
        refused = set()
        for k, (op, found) in enumerate(zip(checked.source.ops, checked.findings.ops,
                                            strict=True)):
            undecided = [d for d in found if d.code in NEAR_MISS_CODES and d.fix is None]
            for diag in undecided:
                self.result.problems.append(_undecided(diag, op.attributes))
            repeated = [d for d in duplicates if _inside(d.location, op)]
            if repeated:  # (a model's op whose attributes repeat a key)
                self.result.problems += repeated
                self.result.problems.append(FIX_AMBIGUOUS.at(
                    "", "this op has duplicate keys, and which value is meant is not a "
                        "mechanical decision: it is left as it is",
                    hint="remove the duplicates by hand, then run fix again").located(
                    repeated[0].location))
            if undecided or repeated:
                refused.add(k)
        return None if refused and not self.model else refused

    # -- the rewrites, each made on the text the step before left --------------------
    def _ops(self, checked: _Checked, refused: set[int]) -> list[Op]:
        return [op for k, op in enumerate(checked.source.ops)
                if k not in refused and isinstance(op.attributes, dict)]

    def type_members(self, checked: _Checked, refused: set[int]) -> list[Fix]:
        return [placed for op in self._ops(checked, refused)
                for fix in type_members(op.attributes)
                if (placed := op.place_fix(fix)) is not None]

    def embedded(self, checked: _Checked, refused: set[int]) -> list[Fix] | None:
        """None when a JSON file's shader does not compile (it is written whole or not at
        all); in a model, an op whose shader does not compile keeps it."""
        ops = self._ops(checked, refused)
        fixes = []
        for op, (fix, problems) in zip(ops, embedded_spirv([op.attributes for op in ops],
                                                           self.options), strict=True):
            self.result.problems += [problem.located(op.locate(problem))
                                     for problem in problems]
            if problems and not self.model:
                return None
            placed = op.place_fix(fix) if fix is not None else None
            fixes += [placed] if placed is not None else []
        return fixes

    def sorted_keys(self, checked: _Checked, refused: set[int]) -> list[Fix]:
        return [placed for op in self._ops(checked, refused)
                if (fix := canonical_keys(op.attributes)) is not None
                and (placed := op.place_fix(fix)) is not None]


def _undecided(diag: Diagnostic, attrs: dict[str, Any]) -> Diagnostic:
    """VKS620 for a near-miss key that has no one right name (the rule gave it no fix):
    none is known, or the key it would become is there already or wanted by another."""
    key = diag.pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    target = classify(key).suggestion
    if target is None:
        problem = FIX_AMBIGUOUS.at(
            diag.pointer, f"`{key}`: {classify(key).explanation}; there is no single key to "
                          "rename it to", hint="rename or remove it by hand", on_key=True)
    else:
        other = target if target in attrs else next(
            (k for k in attrs if k != key and classify(k).suggestion == target), target)
        problem = FIX_AMBIGUOUS.at(
            diag.pointer, f"`{key}` would become `{target}`, but `{other}` is already there",
            hint=f"decide by hand which value of `{target}` is right", on_key=True)
    return problem.located(diag.location)


def _inside(where: Location | None, op: Op) -> bool:
    """Whether ``where`` lies within the op's attribute object in its file."""
    whole = op.locate(Diagnostic("", Severity.INFO, "", ""))
    if where is None or whole is None or whole.end_line is None or whole.end_column is None:
        return False
    return (whole.line, whole.column) <= (where.line, where.column) \
        <= (whole.end_line, whole.end_column)
