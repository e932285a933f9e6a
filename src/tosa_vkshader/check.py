"""The one checking pipeline. Every front door (CLI, API, hook, web) ends up here.

sources -> ops -> keys + view -> attribute rules -> shader stage -> shader-aware rules
        -> located diagnostics (see docs/architecture.md)

Data flows one way: each step only reads what the step before produced. The shader stage
(``shader/``) is entered once per run with every op's shader fields and knows nothing of
rules; the rules that compare attributes with the shader receive its ``Shader`` record.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from .checked import Report
from .config import Options
from .diagnostics import Diagnostic, Location
from .op_context import VULKAN_DOMAIN
from .rule_registry import rule
from .rules import ATTRIBUTE_CHECKS, CONTEXT_CHECKS, run_rules_each
from .sources.base import Op, SourceFile
from .sources.jsontext import json_type
from .sources.read import source_of
from .view import AttributeView

if TYPE_CHECKING:
    from typing import Any

    from .shader import Shader

SHADER_LANGUAGES = ("SPIR-V", "GLSL", "HLSL")  # those the shader stage builds

NOT_AN_OBJECT = rule(
    "VKS102",
    summary="The attribute value is not a JSON object.",
    why="Attributes are a JSON object of key/value pairs; an array, string or number at "
        "the top cannot be read by the converter.",
    bad='[{"entry_point": "main"}]',
    good='{"entry_point": "main", "workgroup_sizes": [1, 1, 1]}',
)

NO_CUSTOM_OP = rule(
    "VKS506",
    summary="A model (MLIR or .tosa) or a JSON file of op objects holds no "
            "`com.arm.VulkanCustomShader` op, so nothing in it was checked.",
    why="A clean result should mean the shader ops were checked and found right; for a "
        "model without any (or a text that is not a model at all) it would only mean that "
        "nothing was looked at. Models without custom shaders are common: silence the "
        'info with `ignore = ["VKS506"]`.',
    bad="module { func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> { return %a : "
        "tensor<4xf32> } }",
    good='%0 = tosa.custom %a {domain_name = "com.arm.VulkanCustomShader", ...} : (...) '
         "-> ...",
)


def attribute_view(op: Op, options: Options) -> tuple[AttributeView | None,
                                                     list[Diagnostic]]:
    """The attribute view of one op, or None and why there is none (pointers only)."""
    if not isinstance(op.attributes, dict):
        return None, [NOT_AN_OBJECT.at(op.base, f"attributes must be a JSON object, got "
                                                f"{json_type(op.attributes)}")]
    return AttributeView.build(op.attributes, options, op.base, op.context), []


def finish(diagnostics: list[Diagnostic], op: Op | None, path: str | None,
           options: Options) -> list[Diagnostic]:
    """Filter by select/ignore, apply severity overrides, attach locations (to fixes'
    edits too), sort.

    A diagnostic repeated with the same code, pointer and message (a later stage that knows
    the shader restating an earlier finding with a better hint) is reported once, as the
    later stage put it. Diagnostics already placed (a model reader's, one per broken op)
    stay apart when their places differ."""
    latest = {(d.code, d.pointer, d.message, d.location): d for d in diagnostics}
    finished = []
    for diag in latest.values():
        if not options.enabled(diag.code):
            continue
        if diag.code in options.severity:
            diag = replace(diag, severity=options.severity[diag.code])
        if diag.location is None:
            if diag.inner is None and diag.pointer.endswith("/shader_code") \
                    and diag.shader_place is not None \
                    and diag.shader_place.position is not None:
                # a finding about the shader itself: at its line inside the string, not
                # on the whole `shader_code` string
                diag = replace(diag, inner=diag.shader_place.position)
            location = op.locate(diag) if op is not None else None
            diag = diag.located(location or Location(path, 1, 1))
            if diag.fix is not None:  # its edits placed in the file too (or no fix)
                diag = replace(diag, fix=op.place_fix(diag.fix) if op is not None else None)
        finished.append(diag)
    finished.sort(key=Diagnostic.sort_key)
    return finished


def check_ops(ops: list[Op], options: Options, *, shaders: bool = True
              ) -> list[list[Diagnostic]]:
    """Located diagnostics for each op. All ops go through each stage together, so the
    shader stage sees every shader of the run at once (one compile batch, each distinct
    shader analysed once), and each rule runs over every op in a row (run_rules_each).
    Without ``shaders`` the shader stage is not entered: the attribute rules alone (what
    the web's ``/v1/fix`` repairs with, in the event loop, never compiling)."""
    # Ops that repeat another (same attributes at the same pointer) share its view and
    # its pointer-only findings: a corpus that repeats an op is ruled on once; the ops of
    # a model, whose contexts differ, share what depends on their attributes alone.
    distinct_views: list[AttributeView | None] = []
    distinct_found: list[list[Diagnostic]] = []
    which: list[int] = []  # each op's entry in the two lists above
    seen: dict[tuple[str, str], int] = {}
    attribute_keys: list[tuple[str, str] | None] = []  # see _attributes_key
    built: dict[tuple[str, str], AttributeView] = {}  # attribute text -> a view of it
    for op in ops:
        key = _content_key(op) if len(ops) > 1 else None
        index = seen.get(key) if key is not None else None
        if index is None:
            index = len(distinct_views)
            view, read = _view(op, options, built)
            distinct_views.append(view)
            distinct_found.append(read)
            attribute_keys.append(_attributes_key(op))
            if key is not None:
                seen[key] = index
        which.append(index)
    _rule(distinct_views, distinct_found, attribute_keys)
    views = [distinct_views[k] for k in which]
    found = [list(distinct_found[k]) for k in which]
    if shaders:
        _shader_stage(ops, views, found, options)
    return [finish(diagnostics, op, op.path, options)
            for diagnostics, op in zip(found, ops, strict=True)]


def _view(op: Op, options: Options, built: dict[tuple[str, str], AttributeView],
          ) -> tuple[AttributeView | None, list[Diagnostic]]:
    """:func:`attribute_view` of the op; the ops of a model with the same attribute text
    share the view of that text, each in its own context (``built``: the views made so
    far, by attribute text)."""
    attributes = _attributes_key(op)
    shared = built.get(attributes) if attributes is not None else None
    if shared is not None:
        return replace(shared, context=op.context), []
    view, read = attribute_view(op, options)
    if attributes is not None and view is not None:
        built[attributes] = view
    return view, read


def _rule(views: list[AttributeView | None], found: list[list[Diagnostic]],
          attribute_keys: list[tuple[str, str] | None]) -> None:
    """Add the rules' findings to each view's. Ops of a model whose attributes are the
    same text (each op of a model has a view of its own: its context differs) share the
    findings of the checks that read the attributes alone; the checks of the context run
    for each."""
    ruled = {k: view for k, view in enumerate(views) if view is not None}
    first: dict[tuple[str, str], int] = {}  # attribute text -> the first view with it
    sharing = []  # for each ruled view, the view whose attribute findings it takes
    for k in ruled:
        key = attribute_keys[k]
        sharing.append(k if key is None else first.setdefault(key, k))
    heads = sorted(set(sharing))
    attribute_only = dict(zip(heads, run_rules_each([ruled[k] for k in heads],
                                                    ATTRIBUTE_CHECKS), strict=True))
    in_context = run_rules_each(list(ruled.values()), CONTEXT_CHECKS)
    for k, head, own in zip(ruled, sharing, in_context, strict=True):
        found[k].extend(attribute_only[head])
        found[k].extend(own)


def _attributes_key(op: Op) -> tuple[str, str] | None:
    """The attribute object's JSON text and pointer, when the attributes were parsed from
    that text (the same text, the same attributes), else None."""
    if op.document is None or op.document.value is not op.attributes \
            or not isinstance(op.attributes, dict):
        return None
    return op.document.text, op.base


def _content_key(op: Op) -> tuple[str, str] | None:
    """Ops with the same attributes (same keys in the same order, same values) at the same
    pointer get the same pointer-only diagnostics: a corpus or model that repeats an op
    is ruled on once. Not for ops in a model context: their diagnostics can carry the
    op's own place in the file."""
    if op.context is not None or op.document is None or not isinstance(op.attributes, dict):
        return None  # (only ops parsed from JSON text: their values are JSON values)
    if op.base == "" and op.document.value is op.attributes:
        # A bare attribute object: the same text is the same object (hashing the text
        # costs nothing next to encoding the object again).
        return op.document.text, op.base
    return json.dumps(op.attributes, ensure_ascii=False), op.base


def _shader_stage(ops: list[Op], views: list[AttributeView | None],
                  found: list[list[Diagnostic]], options: Options) -> None:
    """Build the shader of every op that has one, then run the shader-aware rules on the
    ops whose shader could be reflected."""
    if not any(view is not None and view.attrs.get("shader_language") in SHADER_LANGUAGES
               and view.attrs.get("shader_code") for view in views):
        return  # no shader in the run: do not even import the shader stage
    from .rules import run_shader_rules_each
    from .shader import build_shaders, request_for

    requests = [request_for(op.attributes, op.base) if view is not None else None
                for op, view in zip(ops, views, strict=True)]
    keys: dict[int, tuple] = {}  # op -> see _shader_rules_key
    distinct: dict[tuple, tuple[AttributeView, Shader]] = {}
    for k, outcome in enumerate(build_shaders(requests, options)):
        if outcome is None:
            continue
        found[k].extend(outcome.diagnostics)
        view, shader = views[k], outcome.shader
        if shader is not None and view is not None:
            keys[k] = _shader_rules_key(ops[k], view, shader)
            distinct.setdefault(keys[k], (view, shader))
    compared = dict(zip(distinct, run_shader_rules_each(list(distinct.values())),
                        strict=True))
    for key, (view, shader) in distinct.items():
        compared[key] += _on_targets(view, shader)
    for k, key in keys.items():
        found[k].extend(compared[key])


def _shader_rules_key(op: Op, view: AttributeView, shader: Shader) -> tuple:
    """What the shader-aware rules' findings depend on: the attributes, the shader and,
    of the op's model context, its tensor types (ops of a model that repeat an op's
    attributes and types share its findings); else the view itself (shared by the ops
    that repeat it)."""
    attributes = _attributes_key(op)
    if attributes is None or view.context is None:
        return id(view), id(shader)
    return attributes, id(shader), view.context.operands, view.context.results


def _on_targets(view: AttributeView, shader: Shader) -> list[Diagnostic]:
    """The shader against each target device (VKS7xx), when targets are configured (the
    device profiles load only then)."""
    if not view.options.target_device:
        return []
    from .devices import check_targets

    return check_targets(view, shader)


def check_op(op: Op, options: Options | None = None) -> list[Diagnostic]:
    return check_ops([op], options or Options())[0]


class Findings(NamedTuple):
    """A source's located diagnostics, a pair: about the file itself (its syntax,
    duplicate keys, ...), and about each of its ops."""

    file: list[Diagnostic]
    ops: list[list[Diagnostic]]

    def all(self) -> list[Diagnostic]:
        found = self.file + [d for op in self.ops for d in op]
        found.sort(key=Diagnostic.sort_key)
        return found


def source_findings(sources: list[SourceFile], options: Options, *, shaders: bool = True
                    ) -> list[Findings]:
    """Located diagnostics for each source file, op by op and for the file itself."""
    ops = [op for source in sources for op in source.ops]
    per_op = iter(check_ops(ops, options, shaders=shaders))
    results = []
    for source in sources:
        problems = source.diagnostics
        if not source.ops and not problems:
            problems = [_nothing_checked(source)]
        # File-level problems (duplicate keys, ...) are located in the whole document.
        document_op = Op(None, source.path, "", source.document) if source.document else None
        results.append(Findings(finish(problems, document_op, source.path, options),
                                [next(per_op) for _ in source.ops]))
    return results


def check_sources(sources: list[SourceFile], options: Options) -> list[list[Diagnostic]]:
    """Located diagnostics for each source file, file-level problems included."""
    return [findings.all() for findings in source_findings(sources, options)]


def _nothing_checked(source: SourceFile) -> Diagnostic:
    """VKS506 for a file read without a problem and without an op of ours: a model with
    no shader op, a text that is not a model, op objects of other domains only (a bare
    attribute object is always an op)."""
    # (a .tosa flatbuffer has neither text nor lines: its places are line 0)
    line = 1 if source.text is not None or source.document is not None else 0
    return NO_CUSTOM_OP.at("", f"no {VULKAN_DOMAIN} op in this file: nothing in it was "
                               "checked").located(Location(source.path, line, line))


def check_source(source: SourceFile, options: Options) -> list[Diagnostic]:
    return check_sources([source], options)[0]


def report_for(obj_or_text: Any, options: Options, path: str | None = None) -> Report:
    """The report of one attribute object given as a dict, or of a text read as a file
    (JSON, or a model by ``path``'s suffix): what ``api.validate`` gives."""
    source = source_of(obj_or_text, options, path)
    report = Report(path, check_source(source, options), source)
    if source.document is None and source.ops and source.ops[0].document is not None:
        source.document = source.ops[0].document  # so reporters can show the lines
    return report
