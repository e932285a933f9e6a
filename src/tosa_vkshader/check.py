"""The one checking pipeline. Every front door (CLI, API, hook, web) ends up here.

source -> ops -> key grammar + view -> rules -> shader checks -> located diagnostics
"""

from __future__ import annotations

from dataclasses import replace

from .config import Options
from .diagnostics import Diagnostic, Location, Severity, rule
from .rules import run_rules
from .rules.value_types import json_type
from .sources.base import Op, SourceFile
from .view import AttributeView

NOT_AN_OBJECT = rule(
    "VKS102", "not-an-object", Severity.ERROR,
    summary="The attribute value is not a JSON object.",
    why="Attributes are a JSON object of key/value pairs; an array, string or number at "
        "the top cannot be read by the converter.",
    bad='[{"entry_point": "main"}]',
    good='{"entry_point": "main", "workgroup_sizes": [1, 1, 1]}',
)


def rule_diagnostics(op: Op, options: Options) -> tuple[AttributeView | None,
                                                        list[Diagnostic]]:
    """The attribute view of one op and what the rules say about it (pointers only)."""
    if not isinstance(op.attributes, dict):
        return None, [NOT_AN_OBJECT.at(op.base, f"attributes must be a JSON object, got "
                                                f"{json_type(op.attributes)}")]
    view = AttributeView.build(op.attributes, options, op.base, op.context)
    return view, run_rules(view)


def finish(diagnostics: list[Diagnostic], op: Op | None, path: str | None,
           options: Options) -> list[Diagnostic]:
    """Filter by select/ignore, apply severity overrides, attach locations, sort.

    A diagnostic repeated with the same code, pointer and message (a later stage that knows
    the shader restating an earlier finding with a better hint) is reported once, as the
    later stage put it."""
    latest = {(d.code, d.pointer, d.message): d for d in diagnostics}
    finished = []
    for diag in latest.values():
        if not options.enabled(diag.code):
            continue
        if diag.code in options.severity:
            diag = replace(diag, severity=options.severity[diag.code])
        if diag.location is None:
            location = op.locate(diag) if op is not None else None
            diag = diag.located(location or Location(path, 1, 1))
        finished.append(diag)
    finished.sort(key=Diagnostic.sort_key)
    return finished


def check_ops(ops: list[Op], options: Options) -> list[list[Diagnostic]]:
    """Located diagnostics for each op. All ops go through each stage together, so the
    shader stage can compile every source of the run in one batch."""
    views: list[AttributeView | None] = []
    found: list[list[Diagnostic]] = []
    for op in ops:
        view, diagnostics = rule_diagnostics(op, options)
        views.append(view)
        found.append(diagnostics)
    _compiled_shaders(ops, views, found, options)
    return [finish(diagnostics, op, op.path, options)
            for diagnostics, op in zip(found, ops, strict=True)]


def _compiled_shaders(ops: list[Op], views: list[AttributeView | None],
                      found: list[list[Diagnostic]], options: Options) -> None:
    """GLSL/HLSL ops: compile all of them in one batch, then check each SPIR-V module
    like an embedded one (spirv-val, reflection, cross-check)."""
    if not any(view is not None and view.attrs.get("shader_language") in ("GLSL", "HLSL")
               for view in views):
        return  # nothing to compile: do not even import the compiler backend
    from .compile import compile_ops
    from .diagnostics import pointer_join
    from .spirv.analyse import analyse_spirv
    from .spirv.validate import prevalidate

    shader_ops = [k for k, view in enumerate(views) if view is not None]
    results = compile_ops([ops[k] for k in shader_ops], options)
    prevalidate([r.spirv for r in results if r is not None and r.spirv is not None],
                options.target_env, use_disk_cache=options.cache)
    for k, result in zip(shader_ops, results, strict=True):
        if result is None:
            continue
        found[k].extend(result.diagnostics)
        view = views[k]
        if result.spirv is not None and view is not None:
            found[k].extend(analyse_spirv(result.spirv, view,
                                          pointer_join(ops[k].base, "shader_code")))


def check_op(op: Op, options: Options | None = None) -> list[Diagnostic]:
    return check_ops([op], options or Options())[0]


def check_sources(sources: list[SourceFile], options: Options) -> list[list[Diagnostic]]:
    """Located diagnostics for each source file, file-level problems included."""
    ops = [op for source in sources for op in source.ops]
    per_op = iter(check_ops(ops, options))
    results = []
    for source in sources:
        # File-level problems (duplicate keys, ...) are located in the whole document.
        document_op = Op(None, source.path, "", source.document) if source.document else None
        found = finish(source.diagnostics, document_op, source.path, options)
        for _ in source.ops:
            found.extend(next(per_op))
        found.sort(key=Diagnostic.sort_key)
        results.append(found)
    return results


def check_source(source: SourceFile, options: Options) -> list[Diagnostic]:
    return check_sources([source], options)[0]
