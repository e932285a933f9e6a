"""Shader -> attribute object: what ``tosa-vkshader new`` and ``op_from_shader`` do.

Inputs are the bindings the entry point uses and only reads (or merely queries), outputs
the ones it writes; each direction is numbered in (set, binding) order. Descriptor types
come from reflection, ``_type`` from the descriptor type, formats from
:mod:`.formats` or from ``--format-of``; nothing is guessed: what the shader does not
say is a diagnostic asking for it.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from .. import vulkan
from ..compile.options import describe_macros
from ..compile.scan import Directive, directives
from ..config import Options
from ..diagnostics import Diagnostic, InnerPosition, Location, Severity
from ..dispatch import covering_workgroups, invocations, texels
from ..op_context import TensorType
from ..rules.context import compare_element, example_format, packs
from ..rules.resources import KIND_OF_DESCRIPTOR
from ..rules.runtime_support import UNIFORM_BUFFER_AS_STORAGE
from ..spirv import Reflection, read_module, reflect
from ..spirv.bitcasts import reinterpreted_as
from ..spirv.grammar import enum_value
from ..spirv.module import Module
from ..spirv.records import DescriptorBinding, PushConstantBlock
from ..spirv.words import module_words
from ..typed_attributes import Attributes, PushConstants, Resource, SamplerConfig
from .codegen_rules import (
    AMBIGUOUS_ENTRY,
    DESCRIPTOR_ARRAY,
    EMBED_UNAVAILABLE,
    FORMAT_NOT_INFERRED,
    FORMAT_OF_CONFLICT,
    FORMAT_OF_UNKNOWN,
    HLSL_EMBEDDED_AS_SPIRV,
    INCLUDES_EMBEDDED_AS_SPIRV,
    INCLUDES_NOT_EMBEDDABLE,
    LOCAL_SIZE_ONE,
    MACROS_EMBEDDED,
    NO_COMPUTE_ENTRY,
    NO_EXACT_DISPATCH,
    OPERAND_WITHOUT_BINDING,
    PUSH_CONSTANT_PADDING,
    SPECIALIZABLE_LOCAL_SIZE,
    UNBINDABLE,
    UNUSED_BINDING,
    WORKGROUP_COMPUTED,
    WORKGROUP_CONTRADICTS,
    WORKGROUP_UNKNOWN,
)
from .defines import DefinedSource, with_defines
from .formats import (
    fixed_format,
    inferred_format,
    length_read,
    padded_vector,
    subgroup_ids_read,
)
from .sampler_of import sampler_overrides
from .shader import Language, Shader, compile_shader, hlsl_entry_point

if TYPE_CHECKING:
    from ..compile.declarations import Declaration, Declarations
    from ..spirv.analysis.coverage import Extent, Verdict

Embed = Literal["source", "spirv"]
_GL_COMPUTE = enum_value("ExecutionModel", "GLCompute")
# Descriptors that hold no tensor: the attribute format has no way to describe them.
_NOT_A_TENSOR = {
    "VK_DESCRIPTOR_TYPE_SAMPLER": "a standalone sampler holds no tensor data; combine it "
                                  "with its image (sampler2D, COMBINED_IMAGE_SAMPLER)",
    "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR": "an acceleration structure holds no "
                                                     "tensor data",
    "VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT": "input attachments exist only in fragment "
                                           "shaders",
}
_SET_BINDING = re.compile(r"^(\d+):(\d+)$")


@dataclass(slots=True)
class Generated:
    """The outcome of generating attributes: the object (None on any error) and every
    diagnostic, errors and notes alike."""

    attributes: Attributes | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    reflection: Reflection | None = None

    @property
    def ok(self) -> bool:
        return self.attributes is not None


@dataclass(slots=True)
class _Run:
    shader: Shader
    options: Options
    where: Location | None
    out: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.out.append(diagnostic if diagnostic.location else diagnostic.located(self.where))

    @property
    def failed(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.out)


def generate(shader: Shader, *, entry_point: str | None = None, embed: Embed | None = None,
             format_of: Sequence[tuple[str, str]] | Mapping[str, str] = (),
             workgroup_sizes: Sequence[int] | None = None,
             results: Sequence[TensorType] | None = None,
             operands: Sequence[TensorType] | None = None,
             options: Options | None = None,
             sampler_of: Sequence[tuple[str, str]] | Mapping[str, str] = ()) -> Generated:
    """Build and check the attribute object for ``shader``. With the op's ``results``
    (their tensor types), ``workgroup_sizes`` is computed from what the shader writes
    (``operands`` size what it reads: ``.length()``, ``imageSize()``)."""
    options = options or Options()
    run = _Run(shader, options, Location(shader.path, 1, 1) if shader.path else None)
    run.out.extend(shader.diagnostics)
    if run.failed:
        return Generated(None, run.out)
    # HLSL goes in as SPIR-V unless asked otherwise: the reference runtime cannot
    # compile HLSL text (VKS254).
    chosen, embed = embed, embed or ("source" if shader.language == "GLSL" else "spirv")
    if embed == "source" and shader.source is None:
        run.add(EMBED_UNAVAILABLE.at("", "a SPIR-V module has no source to embed",
                                     hint="use --embed spirv"))
        return Generated(None, run.out)
    wanted = entry_point
    if wanted is None and shader.language == "HLSL" and shader.source is not None:
        wanted = hlsl_entry_point(shader.source)
    if wanted is None and shader.language in ("GLSL", "HLSL"):
        wanted = "main"
    compile_shader(shader, wanted or "main", options)
    run.out.extend(d for d in shader.diagnostics if d not in run.out)
    if run.failed or shader.spirv is None:
        return Generated(None, run.out)
    module, read_problems = read_module(shader.spirv, "/shader_code")
    for problem in read_problems:
        run.add(problem)
    if module is None or run.failed:
        return Generated(None, run.out)
    name = _entry_point(run, module, wanted)
    if name is None:
        return Generated(None, run.out)
    reflection = reflect(module, name)
    overrides = _format_overrides(run, reflection, format_of)
    samplers = sampler_overrides(sampler_of, reflection.bindings, _bindings_for, run.add)
    resources = _resources(run, module, reflection, overrides, operands)
    if resources is not None:
        resources = _formats_of_the_tensors(resources, operands, results, overrides,
                                            module, module_words(shader.spirv))
        _operands_without_binding(run, resources, operands)
    sizes = _workgroup(run, reflection, workgroup_sizes, results, resources,
                       operands=operands)
    if sizes is not None:
        _local_size_notes(run, reflection, sizes)
    push = _push_constants(run, reflection.push_constants)
    if run.failed or sizes is None or resources is None:
        return Generated(None, run.out, reflection)
    language, code, defined = _embedded(run, embed, chosen is None)
    inputs, outputs = resources
    attributes = Attributes(
        entry_point=name, workgroup_sizes=sizes, shader_language=language, shader_code=code,
        push_constants=PushConstants.parse(push) if push else None,
        inputs=[_resource("input", i, b, f, samplers.get((b.set, b.binding)))
                for i, (b, f) in enumerate(inputs)],
        outputs=[_resource("output", i, b, f) for i, (b, f) in enumerate(outputs)])
    # What is written must pass the checker: the same pipeline as `check`, compiling
    # the embedded text as the runtime does (the macros are in it now, not in flags).
    from ..check import report_for

    report = report_for(attributes.to_attrs(), replace(options, macros=()))
    run.out.extend(report.diagnostics if defined is None else
                   [_at_user_line(d, defined) for d in report.diagnostics])
    return Generated(None if run.failed else attributes, run.out, reflection)


def _embedded(run: _Run, embed: Embed,
              by_default: bool) -> tuple[Language, str, DefinedSource | None]:
    """The shader_language and shader_code to write, and where ``#define`` lines went
    into the source. What the runtime compiles must be what was compiled here: the
    macros go into the text, and HLSL (which the runtime cannot compile) or GLSL that
    includes files (which the runtime cannot read) into SPIR-V unless the source was
    asked for."""
    shader, macros = run.shader, run.options.macros
    assert shader.spirv is not None
    listed = describe_macros(macros)
    included = _includes(shader)
    if embed == "source" and included:
        named = ", ".join(f"`{d.argument.strip()}`" for d in included)
        if by_default:
            embed = "spirv"
            run.add(INCLUDES_EMBEDDED_AS_SPIRV.at(
                "/shader_code", f"the shader includes {named}: the reference runtime "
                "compiles shader_code alone, without include directories, so the SPIR-V "
                "compiled here (with the included code) is embedded",
                hint="put the included code into the shader to embed its source")
                .located(_include_place(run, included[0])))
        else:
            run.add(INCLUDES_NOT_EMBEDDABLE.at(
                "/shader_code", f"--embed source: the shader includes {named}, which the "
                "reference runtime cannot read (it compiles shader_code alone, without "
                "include directories)",
                hint="leave out --embed source (SPIR-V is embedded), or put the included "
                     "code into the shader").located(_include_place(run, included[0])))
    if embed == "spirv" or shader.source is None:
        if shader.language == "HLSL" and by_default:
            run.add(HLSL_EMBEDDED_AS_SPIRV.at(
                "/shader_code", "the HLSL shader is embedded as SPIR-V (compiled by "
                "tosa-vkshader): the reference runtime cannot compile HLSL (VKS254)",
                hint="--embed source keeps the HLSL text, for a runtime that compiles it"))
        if macros and shader.source is not None:
            run.add(MACROS_EMBEDDED.at(
                "/shader_code", f"the embedded SPIR-V was compiled with the macros "
                f"{listed}; they are part of the module"))
        return "SPIR-V", base64.b64encode(shader.spirv).decode("ascii"), None
    if not macros:
        return shader.language, shader.source, None
    defined = with_defines(shader.source, macros)
    where = (f"after line {defined.after} (`#version`)" if defined.after
             else "before the first line")
    run.add(MACROS_EMBEDDED.at(
        "/shader_code", f"the macros {listed} are embedded as {defined.count} `#define` "
        f"line(s) {where} of shader_code: the runtime compiles the embedded text without "
        "compiler flags",
        hint="--embed spirv embeds the compiled module instead"))
    return shader.language, defined.text, defined


def _includes(shader: Shader) -> list[Directive]:
    """The ``#include`` directives of a GLSL source."""
    if shader.language != "GLSL" or shader.source is None:
        return []
    return [d for d in directives(shader.source) if d.name == "include"]


def _include_place(run: _Run, directive: Directive) -> Location | None:
    path = run.shader.path
    return Location(path, directive.line, directive.column) if path else run.where


def _at_user_line(diagnostic: Diagnostic, defined: DefinedSource) -> Diagnostic:
    """A finding inside the embedded text at the line of the user's file."""
    place = diagnostic.shader_place
    if place is not None and place.position is not None:
        moved = InnerPosition(defined.user_line(place.position.line), place.position.column)
        return replace(diagnostic, shader_place=replace(place, position=moved))
    if diagnostic.inner is not None and diagnostic.pointer.endswith("/shader_code"):
        return replace(diagnostic, inner=InnerPosition(
            defined.user_line(diagnostic.inner.line), diagnostic.inner.column))
    return diagnostic


def _resource(direction: Literal["input", "output"], index: int, b: DescriptorBinding,
              fmt: str, sampler: SamplerConfig | None = None) -> Resource:
    return Resource(direction=direction, index=index, binding=b.binding, descriptorset=b.set,
                    vkdescriptortype=b.descriptor_type, vkformat=fmt,
                    type=KIND_OF_DESCRIPTOR.get(b.descriptor_type), sampler=sampler)


# -- entry point -------------------------------------------------------------------------

def _entry_point(run: _Run, module: Module, wanted: str | None) -> str | None:
    compute = [e.name for e in module.entry_points if e.execution_model == _GL_COMPUTE]
    listing = ", ".join(f"{e.name!r}" for e in module.entry_points) or "none"
    if wanted is not None:
        if wanted in compute:
            return wanted
        named = module.entry_point(wanted)
        problem = (f"entry point {wanted!r} is not a GLCompute entry point" if named else
                   f"the module has no entry point {wanted!r}")
        run.add(NO_COMPUTE_ENTRY.at("", f"{problem}; its entry points: {listing}",
                                    hint=f"use --entry-point {compute[0]}" if compute
                                    else "give a compute shader"))
        return None
    if not compute:
        run.add(NO_COMPUTE_ENTRY.at("", f"the module has no GLCompute entry point; its entry "
                                        f"points: {listing}", hint="give a compute shader"))
        return None
    if len(compute) > 1:
        run.add(AMBIGUOUS_ENTRY.at("", "the module has several compute entry points: "
                                       + ", ".join(map(repr, compute)),
                                   hint=f"choose one with --entry-point {compute[0]}"))
        return None
    return compute[0]


# -- workgroup size ----------------------------------------------------------------------

def _local_size_notes(run: _Run, r: Reflection, written: Sequence[int]) -> None:
    """What to know about the local size, with the workgroup_sizes written: VKS610 for a
    specializable one, VKS614 for one invocation per workgroup."""
    local = r.local_size
    if local is None or None in local.values:
        return
    where = _local_size_place(run, r)
    if local.specializable:
        run.add(SPECIALIZABLE_LOCAL_SIZE.at(
            "/workgroup_sizes", f"the local size is {local.describe()}, the defaults the "
            "pipeline gets without specialization (the attributes cannot specialize it); "
            f"workgroup_sizes is written as {list(written)} for that local size")
            .located(where))
    if tuple(local.values) == (1, 1, 1):
        run.add(LOCAL_SIZE_ONE.at(
            "/workgroup_sizes", f"the local size is {local.describe()}: every workgroup runs "
            "one invocation, so a GPU runs one lane of each of its SIMD groups (8 to 64 "
            f"lanes) and leaves the others idle; workgroup_sizes is {list(written)}",
            hint="declare a local size of 64 or more invocations, e.g. "
                 "`layout(local_size_x = 64) in;` (HLSL: `[numthreads(64, 1, 1)]`), and "
                 "index with gl_GlobalInvocationID").located(where))


def _local_size_place(run: _Run, r: Reflection) -> Location | None:
    """Where the shader file declares its local size (its first line when it declares
    none, or for SPIR-V)."""
    return _declared(run, lambda found: found.local_size(r.entry_point))


def _declared(run: _Run, find: Callable[[Declarations], Declaration | None]
              ) -> Location | None:
    """The place in the shader file of the declaration ``find`` picks from its
    declarations; its first line when there is none, or for SPIR-V."""
    source, path = run.shader.source, run.shader.path
    if source is None or path is None or run.shader.language == "SPIR-V":
        return run.where
    from ..compile.declarations import declarations

    declared = find(declarations(source, run.shader.language))
    return Location(path, declared.line, declared.column) if declared else run.where


Resources = tuple[list[tuple[DescriptorBinding, str]], list[tuple[DescriptorBinding, str]]]


def _workgroup(run: _Run, r: Reflection, given: Sequence[int] | None,
               results: Sequence[TensorType] | None, resources: Resources | None, *,
               operands: Sequence[TensorType] | None = None) -> tuple[int, int, int] | None:
    flag = tuple(given) if given is not None else None
    if flag is not None and (len(flag) != 3 or any(type(v) is not int or v < 1 for v in flag)):
        run.add(WORKGROUP_UNKNOWN.at("", f"--workgroup-sizes {list(flag)} is not three "
                                         "integers >= 1"))
        return None
    local = r.local_size
    known = local is not None and None not in local.values
    dispatch = run.options.workgroup_semantics == "dispatch"
    if flag is not None and (dispatch or not known):
        return flag
    if not known or local is None:
        run.add(WORKGROUP_UNKNOWN.at("", "the shader's local size is not a constant",
                                     hint="give it with --workgroup-sizes X,Y,Z"))
        return None
    values: tuple[int, int, int] = tuple(local.values)  # type: ignore[assignment]
    if flag is not None and flag != values:
        run.add(WORKGROUP_CONTRADICTS.at(
            "", f"--workgroup-sizes {list(flag)} differs from the shader's local size "
                f"{local.describe()}; workgroup-semantics = \"local-size\" reads "
                "workgroup_sizes as the local size",
            hint=f"drop --workgroup-sizes (it is {list(values)}), or use "
                 "--workgroup-semantics dispatch if you mean the number of workgroups"))
        return None
    sized = [t for t in results or () if t.static_shape is not None]
    if not sized:
        return values
    if resources is None:
        return values  # (the bindings' errors say why no op is made: no dispatch to guess)
    if not dispatch:
        elements = max(math.prod(t.static_shape or ()) for t in sized)
        run.add(WORKGROUP_COMPUTED.at(
            "", f"workgroup_sizes is the shader's local size {list(values)} "
                "(workgroup-semantics = \"local-size\", the spec's wording); the reference "
                f"runtime would read it as {math.prod(values)} workgroups = "
                f"{invocations(values, values)} invocations for results of up to {elements} "
                "elements"))
        return values
    return _dispatch_for(run, r, values, results or (), operands or (), resources)


def _dispatch_for(run: _Run, r: Reflection, local: tuple[int, int, int],
                  results: Sequence[TensorType], operands: Sequence[TensorType],
                  resources: Resources | None) -> tuple[int, int, int] | None:
    """The workgroup count from the index analysis of the shader's writes; when they
    cannot be followed, one invocation per element of the largest result."""
    from ..spirv.analysis import analyse_many
    from ..spirv.analysis.coverage import MAX_GROUPS
    from ..spirv.analysis.derive import (
        covering_assuming_sizes,
        covering_dispatch,
        units_per_invocation,
    )

    outputs = _extents(resources[1] if resources else [], results, "result")
    inputs = _extents(resources[0] if resources else [], operands, "operand")
    assert run.shader.spirv is not None
    [access] = analyse_many([(run.shader.spirv, r.entry_point, local)],
                            use_disk_cache=run.options.cache)
    cover = covering_dispatch(access, outputs, inputs) if outputs else None
    if cover is not None and not cover.exact:  # push constants in the addresses?
        cover = covering_assuming_sizes(access, outputs, inputs, cover) or cover
    shape = f" workgroups of local size {' x '.join(map(str, local))}"
    if cover is None:
        why = access.unknown or next(
            (a.unknown for a in access.accesses if a.writes and a.unknown), None) \
            or "no store into a result is an expression of the invocation IDs"
        counts = _counted(local, results, resources)
        subgroups = subgroup_ids_read(module_words(run.shader.spirv or b""))
        device = "" if not subgroups else (
            f"; it reads {', '.join(subgroups)}, whose values depend on the device's "
            "subgroup size: where they pick the elements a workgroup writes, give "
            "--workgroup-sizes for your device")
        run.add(WORKGROUP_COMPUTED.at(
            "", f"workgroup_sizes is {counts}, one invocation per element: what the shader "
                f"writes could not be analysed ({why}); {' x '.join(map(str, counts))}"
                f"{shape} = {invocations(counts, local)} invocations (`tosa-vkshader run` "
                f"shows whether they write every element){device}"))
        return counts  # type: ignore[return-value]
    counts = list(cover.groups)
    # (from the stores themselves: a guard may leave some invocations idle, so the
    # units over the invocations says nothing)
    each = [f"{per} {v.extent.unit_name} of {v.extent.label}" for v in cover.verdicts
            if (per := units_per_invocation(access, v.extent)) > 1]
    walks = "; ".join(cover.walks) + (f"; each invocation writes {', '.join(each)}"
                                      if each else "")
    described = f"{' x '.join(map(str, counts))}{shape} = {invocations(counts, local)} " \
                f"invocations ({walks})"
    wrong = [v for v in cover.verdicts if v.missing or v.buffer_overruns]
    if wrong:
        capped = [axis for axis, n in zip("xyz", counts, strict=True) if n >= MAX_GROUPS]
        limit = "" if not capped or not any(v.missing for v in wrong) else (
            f" ({MAX_GROUPS} workgroups along {', '.join(capped)} is the most every Vulkan "
            "device dispatches)")
        refusal = NO_EXACT_DISPATCH.at(
            "", f"no workgroup_sizes makes the shader write its results exactly: with "
                f"{counts}, {described}, {'; '.join(_problem(v) for v in wrong)}{limit}",
            hint="guard the store with the result's size (`if (i >= N) return;`), or use a "
                 "local size that divides the result" if not limit else
                 "loop over the elements with a grid stride (`for (uint i = gid.x; i < N; "
                 "i += gl_NumWorkGroups.x * gl_WorkGroupSize.x)`), or index with y too")
        store = (wrong[0].buffer_overruns[0].access if wrong[0].buffer_overruns
                 else wrong[0].writes[0]).place if wrong[0].writes else None
        if store is not None and store.line is not None and store.main_file \
                and run.shader.path:  # at the store's line in the shader file
            refusal = refusal.located(Location(run.shader.path, store.line, store.column or 1))
        run.add(refusal)
        return None
    unproven = next((v for v in cover.verdicts if not v.complete), None)
    proof = "" if unproven is None else \
        f"; whether they write all of {unproven.extent.label} is not proven " \
        f"({unproven.unknown}): `tosa-vkshader run` shows it"
    if cover.assumed:
        proof += ("; provided the push constants hold "
                  f"{', '.join(f'`{name}` = {value}' for name, value in cover.assumed)} "
                  "(sizes of the op's tensors: `tosa-vkshader run` shows what the values "
                  "you give write)")
    outside = next((v for v in cover.verdicts if v.overruns and not v.buffer_overruns), None)
    if outside is not None:
        proof += (f"; {outside.past} {outside.extent.unit_name} fall outside "
                  f"{outside.extent.label}, whose writes there are discarded")
    run.add(WORKGROUP_COMPUTED.at(
        "", f"workgroup_sizes is {counts}, the number of workgroups (workgroup-semantics = "
            f"\"dispatch\", the reference runtime's reading): {described}{proof}"))
    return tuple(counts)  # type: ignore[return-value]


def _problem(verdict: Verdict) -> str:
    extent = verdict.extent
    if verdict.missing:
        return (f"{verdict.missing} of the {extent.units} {extent.unit_name} of "
                f"{extent.label} are never written (the first at "
                f"{list(verdict.first_missing or ())})")
    stores = ", ".join(dict.fromkeys(o.access.place.describe() for o in verdict.overruns))
    return f"{stores} writes {verdict.past} {extent.unit_name} past {extent.label}"


def _extents(bindings: list[tuple[DescriptorBinding, str]], tensors: Sequence[TensorType],
             noun: str) -> list[Extent]:
    from ..rules.coverage import extent_of

    found = []
    for index, ((binding, fmt), tensor) in enumerate(zip(bindings, tensors, strict=False)):
        extent = extent_of(binding, tensor, fmt, f"{noun} {index} ({tensor.text})")
        if extent is not None:
            found.append(extent)
    return found


def _counted(local: tuple[int, int, int], results: Sequence[TensorType],
             resources: Resources | None) -> list[int]:
    """Today's count: one invocation per element (per texel of a multi-component format)
    of the largest result."""
    formats = [fmt for _b, fmt in resources[1]] if resources else []
    elements = max((_units(t, formats[k] if k < len(formats) else None)
                    for k, t in enumerate(results) if t.static_shape is not None), default=1)
    return covering_workgroups(local, elements)


def _units(tensor: TensorType, vkformat: str | None) -> int:
    """What one invocation writes: an element, or a texel of a multi-component format."""
    info = vulkan.format_info(vkformat) if vkformat else None
    elements = math.prod(tensor.static_shape or ())
    return texels(elements, len(info.components)) if info is not None else elements


# -- resources ---------------------------------------------------------------------------

def _format_overrides(run: _Run, r: Reflection,
                      format_of: Sequence[tuple[str, str]] | Mapping[str, str]
                      ) -> dict[tuple[int, int], str]:
    pairs = list(format_of.items()) if isinstance(format_of, Mapping) else list(format_of)
    chosen: dict[tuple[int, int], tuple[str, str]] = {}
    for key, value in pairs:
        fmt = _format_name(value)
        if fmt is None:
            close = vulkan.closest(value, vulkan.format_names(), cutoff=0.8)
            run.add(FORMAT_OF_UNKNOWN.at("", f"--format-of {key}={value}: {value!r} is not a "
                                             "VkFormat",
                                         hint=f"did you mean {close}?" if close else None))
            continue
        matches = _bindings_for(key, r.bindings)
        if len(matches) != 1:
            listing = ", ".join(f"{b.name} (set {b.set}, binding {b.binding})"
                                for b in (matches or r.bindings)) or "none"
            problem = "names several bindings" if matches else "names no binding"
            run.add(FORMAT_OF_UNKNOWN.at(
                "", f"--format-of {key}={value} {problem}; "
                    f"{'candidates' if matches else 'the bindings are'}: {listing}",
                hint="use SET:BINDING" if matches else None))
            continue
        b = matches[0]
        slot = (b.set, b.binding)
        earlier = chosen.get(slot)
        if earlier is not None and earlier[1] != fmt:
            run.add(FORMAT_OF_CONFLICT.at(
                "", f"--format-of gives {b.name} (set {b.set}, binding {b.binding}) two "
                    f"formats: {earlier[0]}={earlier[1]} and {key}={fmt}",
                hint="give each binding one format"))
            continue
        fixed = fixed_format(b)
        if fixed is not None and fixed != fmt:
            what = (f"declares image format {b.image_format}" if b.image_format
                    not in (None, "Unknown") else f"is a tensor of {b.element_type}")
            run.add(FORMAT_OF_CONFLICT.at(
                "", f"--format-of {key}={fmt}: the shader's {b.name} {what}, which is "
                    f"{fixed}", hint=f"drop --format-of {key}, or use {fixed}"))
            continue
        chosen[slot] = (key, fmt)
    return {slot: fmt for slot, (_key, fmt) in chosen.items()}


def _format_name(value: str) -> str | None:
    text = value.strip()
    return vulkan.canonical_format(text) or vulkan.canonical_format(
        "VK_FORMAT_" + text.upper())


def _bindings_for(key: str, bindings: Sequence[DescriptorBinding]) -> list[DescriptorBinding]:
    key = key.strip()
    match = _SET_BINDING.match(key)
    if match:
        wanted = (int(match[1]), int(match[2]))
        return [b for b in bindings if (b.set, b.binding) == wanted]
    if key.isdigit():
        return [b for b in bindings if b.binding == int(key)]
    return [b for b in bindings if key in (b.name, b.type_name)]


def _resources(run: _Run, module: Module, r: Reflection,
               overrides: dict[tuple[int, int], str],
               operands: Sequence[TensorType] | None = None):
    inputs: list[tuple[DescriptorBinding, str]] = []
    outputs: list[tuple[DescriptorBinding, str]] = []
    seen: dict[tuple[int, int], DescriptorBinding] = {}
    spare: list[DescriptorBinding] = []
    complete = True
    for b in r.bindings:  # sorted by (set, binding)
        where = f"{b.name} (set {b.set}, binding {b.binding}, {b.descriptor_type})"
        if not b.used:
            spare.append(b)
            continue
        if b.descriptor_type in _NOT_A_TENSOR:
            run.add(UNBINDABLE.at("", f"{where}: {_NOT_A_TENSOR[b.descriptor_type]}; the "
                                      "attributes cannot describe it as an input or output",
                                  hint=_HLSL_SAMPLER if run.shader.language == "HLSL" and
                                  b.descriptor_type == "VK_DESCRIPTOR_TYPE_SAMPLER" else None)
                    .located(_binding_place(run, b)))
            complete = False
            continue
        if (b.set, b.binding) in seen:
            run.add(UNBINDABLE.at("", f"{where} shares its binding with "
                                      f"{seen[(b.set, b.binding)].name}; one input/output "
                                      "cannot be two variables",
                                  hint=_own_binding(run.shader.language, b, 1 + max(
                                      x.binding for x in r.bindings if x.set == b.set)))
                    .located(_binding_place(run, b)))
            complete = False
            continue
        seen[(b.set, b.binding)] = b
        if b.count != 1:
            size = "a runtime-sized array" if b.count == 0 else f"an array of {b.count}"
            run.add(DESCRIPTOR_ARRAY.at("", f"{where} is {size} descriptors; it is described "
                                            "as one input/output, so one tensor backs it")
                    .located(_binding_place(run, b)))
        code = UNIFORM_BUFFER_AS_STORAGE.code
        if b.descriptor_type == "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER" and \
                run.options.enabled(code) and \
                run.options.severity.get(code, Severity.ERROR) is Severity.ERROR:
            # Said before any format is asked for: no format makes a uniform block work
            # (unless the configuration lowers VKS251: then the op is made, and checked).
            run.add(UNIFORM_BUFFER_AS_STORAGE.at(
                "", f"{where} is a uniform block: the reference runtime binds every input "
                    "as a storage buffer, so the block would read zeros",
                hint=_instead_of_uniform(run.shader.language, b.type_name or b.name))
                .located(_binding_place(run, b)))
            complete = False
            continue
        fmt = overrides.get((b.set, b.binding)) or inferred_format(module, b)
        if fmt is None:
            padded = padded_vector(module, b)
            run.add(FORMAT_NOT_INFERRED.at(
                "", f"cannot tell the VkFormat of {where}"
                    f"{_why_unknown(b) if padded is None else ': ' + padded.why}",
                hint=f"give it with --format-of {b.name}=VK_FORMAT_..." if padded is None
                else padded.fix)
                .located(_binding_place(run, b)))
            complete = False
            continue
        (outputs if b.access in ("write", "read-write") else inputs).append((b, fmt))
    inputs = _with_spare_inputs(run, module, r, inputs, spare, overrides, operands)
    return (inputs, outputs) if complete else None


def _with_spare_inputs(run: _Run, module: Module, r: Reflection,
                       inputs: list[tuple[DescriptorBinding, str]],
                       spare: list[DescriptorBinding], overrides: dict[tuple[int, int], str],
                       operands: Sequence[TensorType] | None
                       ) -> list[tuple[DescriptorBinding, str]]:
    """The inputs, with the storage buffers the entry point declares but never uses
    (a bias read only `#ifdef USE_BIAS`) when exactly they make up the op's operands:
    the runtime binds them all the same, and the shader ignores them (`check` notes it,
    VKS424). Otherwise those bindings are left out (VKS607)."""
    formats = {id(b): overrides.get((b.set, b.binding)) or inferred_format(module, b)
               for b in spare}
    backing = [b for b in spare if b.descriptor_type == "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"
               and formats[id(b)]]
    if operands is None or not spare or len(inputs) + len(backing) != len(operands):
        backing = []
    together = sorted([*inputs, *((b, formats[id(b)] or "") for b in backing)],
                      key=lambda pair: (pair[0].set, pair[0].binding))
    for b in spare:
        where = f"{b.name} (set {b.set}, binding {b.binding}, {b.descriptor_type})"
        index = next((k for k, (d, _f) in enumerate(together) if d is b), None)
        if index is None or operands is None:
            run.add(UNUSED_BINDING.at("", f"{where} is not used by entry point "
                                          f"{r.entry_point!r}; it is left out")
                    .located(_binding_place(run, b)))
        else:
            run.add(UNUSED_BINDING.at(
                "", f"{where} is not used by entry point {r.entry_point!r}; it backs "
                    f"operand {index} ({operands[index].text}): the op has "
                    f"{len(operands)} operands and the entry point reads "
                    f"{len(inputs)} input binding(s)").located(_binding_place(run, b)))
    return together


def _formats_of_the_tensors(resources: Resources, operands: Sequence[TensorType] | None,
                            results: Sequence[TensorType] | None,
                            overrides: dict[tuple[int, int], str],
                            module: Module, words: Sequence[int]) -> Resources:
    """A buffer the shader reads as one element type and the op's tensor holds as another
    of the same width (`uint data[]` or an HLSL ByteAddressBuffer over a float tensor,
    read with `uintBitsToFloat`/`asfloat`), or as integer words that pack several of the
    tensor's elements (four int8 per `uint`, unpacked with `bitfieldExtract`; two float16
    with `unpackHalf2x16`), gets the tensor's format: the bytes are the tensor's, the
    shader reinterprets them (`check` warns, VKS416); a format the shader's element would
    give contradicts the tensor (VKS514).

    A buffer of vectors (`vec2 c[]`) over a tensor of their components whose
    `.length()` the shader reads gets the tensor's single-component format: the runtime
    allocates the tensor's elements times the format's texel, so with the vector's
    format `.length()` would count twice (four times) the vectors the tensor holds, and
    a guard `if (i >= c.length()) return;` would not stop the invocations past it."""
    def fitted(pairs: list[tuple[DescriptorBinding, str]],
               types: Sequence[TensorType] | None) -> list[tuple[DescriptorBinding, str]]:
        return [(b, fmt if (b.set, b.binding) in overrides or types is None
                 or k >= len(types) else _fitted_format(b, fmt, types[k].element, words,
                                                        module))
                for k, (b, fmt) in enumerate(pairs)]

    inputs, outputs = resources
    return fitted(inputs, operands), fitted(outputs, results)


# An HLSL SamplerState: the runtime binds combined image samplers, which HLSL spells
# with DXC's [[vk::combinedImageSampler]] (glslang ignores it: VKS311).
_HLSL_SAMPLER = ("the reference runtime binds an image and its sampler as one combined "
                 "image sampler: with DXC, mark the Texture2D and its SamplerState "
                 "`[[vk::combinedImageSampler]]` with the same `[[vk::binding(N)]]`; an image "
                 "read texel by texel needs no sampler (a RWTexture2D read with `[]`)")


def _own_binding(language: str, b: DescriptorBinding, free: int) -> str:
    """How to give ``b`` a binding of its own (``free`` in its set), in the shader's
    language."""
    if language == "HLSL":
        # register(t0) and register(u0) are both binding 0 unless the compiler is told
        # to shift a register class (glslc -fresource-set-binding, DXC -fvk-u-shift).
        return (f"registers of different classes (t0, u0, b0, s0) are the same Vulkan "
                f"binding: give `{b.name}` one of its own, e.g. "
                f"`[[vk::binding({free}, {b.set})]]` or a register number no other "
                "resource uses")
    return "give each variable its own binding"


def _fitted_format(b: DescriptorBinding, fmt: str, element: str | None,
                   words: Sequence[int], module: Module) -> str:
    """The format of storage buffer ``b`` (the shader's ``fmt``) over a tensor of
    ``element`` (see :func:`_formats_of_the_tensors`)."""
    if b.descriptor_type != "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER" or not element:
        return fmt
    verdict = compare_element(element, fmt)
    have = vulkan.format_info(fmt)
    if verdict is None:
        single = example_format(element)
        vectors = have is not None and len(have.components) > 1
        return single if single and vectors and length_read(words, b.variable_id) else fmt
    if verdict is Severity.ERROR:
        wanted = example_format(element, fmt)
        want = vulkan.format_info(wanted or "")
        if wanted and have is not None and want is not None and (
                have.block_size == want.block_size or packs(have, want)
                and _words_stay_integers(words, module, b)):
            return wanted
    return fmt


def _operands_without_binding(run: _Run, resources: Resources,
                              operands: Sequence[TensorType] | None) -> None:
    """VKS628 where the op has more operands than the shader has inputs because of a
    buffer written in place or an array of descriptors (the generic VKS510 would ask for
    attributes no binding could have)."""
    inputs, outputs = resources
    if operands is None or len(operands) <= len(inputs):
        return
    lacking = [f"operand {k} ({operands[k].text})" for k in range(len(inputs), len(operands))]
    have = f"{', '.join(lacking)} {'has' if len(lacking) == 1 else 'have'}"
    arrays = [b for b, _fmt in inputs if b.count != 1]
    in_place = [b for b, _fmt in outputs if b.access == "read-write"]
    if arrays:
        b = arrays[0]
        size = "a runtime-sized array" if b.count == 0 else f"an array of {b.count}"
        run.add(OPERAND_WITHOUT_BINDING.at(
            "", f"{b.name} (set {b.set}, binding {b.binding}) is {size} descriptors, but the "
                f"reference runtime binds one tensor per binding: {have} no binding of "
                "its own",
            hint="declare one block per operand, each at its own binding")
            .located(_binding_place(run, b)))
    elif in_place:
        b = in_place[0]
        run.add(OPERAND_WITHOUT_BINDING.at(
            "", f"{b.name} (set {b.set}, binding {b.binding}) is read and written in place, "
                f"so it is a result; {have} no binding to be read from: the reference "
                "runtime gives each operand and result a tensor of its own",
            hint=f"read the operand from a `readonly buffer` at a binding of its own and "
                 f"write the result into {b.name}")
            .located(_binding_place(run, b)))


def _words_stay_integers(words: Sequence[int], module: Module, b: DescriptorBinding
                         ) -> bool:
    """Whether the shader uses the integer words of buffer ``b`` as integers (`int(w)`
    included), not as the bits of one float each (`uintBitsToFloat(w)`): words that
    can pack narrower elements."""
    kinds = reinterpreted_as(words, module, b.variable_id)
    return kinds is None or all(kind.startswith(("int", "uint")) for kind in kinds)


def _instead_of_uniform(language: str, block: str) -> str:
    """What to declare instead of uniform block ``block``, in the shader's language."""
    if language == "HLSL":
        return (f"make `{block}` a push-constant block (`[[vk::push_constant]] "
                f"ConstantBuffer<...>`), or pass the values in a `StructuredBuffer`")
    return (f"declare `{block}` as `readonly buffer` (std430) in the shader, or pass the "
            "values as push constants")


def _binding_place(run: _Run, b: DescriptorBinding) -> Location | None:
    """Where the shader file declares binding ``b``."""
    return _declared(run, lambda found: next(
        (d for d in (found.resource(name, b.set, b.binding)
                     for name in (b.name, b.type_name) if name) if d), None))


def _why_unknown(b: DescriptorBinding) -> str:
    if b.image_format == "Unknown":
        return ": its image format is Unknown (sampled images declare none)"
    if b.resource == "buffer":
        return ": its elements are not one scalar or vector type"
    return ""


# -- push constants ----------------------------------------------------------------------

def _push_constants(run: _Run, block: PushConstantBlock | None) -> str | None:
    if block is None or not block.used:
        return None
    gaps = [f"{size} bytes before {member.name}" for _offset, size, member in block.gaps()]
    if gaps:
        run.add(PUSH_CONSTANT_PADDING.at("", f"the push-constant block {block.name!r} has "
                                             f"gaps ({', '.join(gaps)}); padding entries "
                                             "keep the offsets"))
    return block.attribute_text()
