"""Where the run asks the device for proof: the Khronos validation layer, turned on by
itself for the ops the static analysis cannot vouch for.

The write check (``writecheck.py``) sees every element of every result, but three wrong
ops get past it: a store past a buffer sized exactly to its result (the runner allows no
guard zone after it), a read past an operand (lavapipe returns zeros), and a uniform block
the runtime binds as a storage buffer (it reads zeros, and every element is still
written). For each custom op of the model the shader stage's record decides:

- **GPU-assisted validation** when some buffer access of the op is not proven to stay in
  its buffer under the op's dispatch: the index analysis shows it reaching past the end
  (VKS522's situation), or cannot decide (an index read from memory, a bound held in a
  push constant: VKS523's). GPU-AV checks every buffer access on the device
  (``VUID-vkCmdDispatch-None-02706``). Images and tensors are left out: this layer's
  GPU-AV does not check image coordinates (measured: an unguarded ``imageStore`` past the
  image gives no message), and it sits below the emulation layers that implement tensors;
- **the core checks** when the shader declares a uniform block: the runtime binds every
  buffer as a storage buffer, which the layer's pipeline check reports
  (``VUID-VkComputePipelineCreateInfo-layout-00703``).

This is read from the ``Shader`` record and its analysis, never from the check's
diagnostics: lowering or ignoring VKS522, VKS523 or VKS251 in a configuration changes
nothing here. An op whose every buffer access is proven in bounds runs without the layer
(it costs about 0.2 s a run).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..dispatch import dispatched

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..diagnostics import Diagnostic
    from ..spirv.analysis.coverage import Unbounded
    from .model import ModelOp
    from .shaders import ShaderOp
    from .validation import Validation

UNIFORM_BUFFER = "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER"
GPU_ASSISTED = "gpu-assisted"
CORE = "core"


@dataclass(frozen=True, slots=True)
class Proof:
    """What the run asks of the layer (None: nothing, or nothing it can: the layer is not
    installed), and a note for each op it is about."""

    validation: Validation | None
    notes: tuple[tuple[ModelOp, Diagnostic], ...]


def plan(ops: Sequence[ShaderOp]) -> Proof:
    """What the run must ask the device to prove about ``ops``."""
    found = doubts(ops)
    if not found:
        return Proof(None, ())
    from .errors import RunError
    from .validation import Validation, find_layer_folder

    gpu = any(d.check == GPU_ASSISTED for d in found)
    validation: Validation | None = Validation((GPU_ASSISTED,) if gpu else ())
    try:
        find_layer_folder()
    except RunError:
        validation = None
    return Proof(validation, tuple(_notes(found, validation)))


@dataclass(frozen=True, slots=True)
class Doubt:
    """What the analysis leaves open about one op, and the layer's check that shows it."""

    op: ModelOp
    check: str  # GPU_ASSISTED or CORE
    reason: str
    line: int | None = None  # the line of the op's shader_code it is about


def doubts(ops: Sequence[ShaderOp]) -> list[Doubt]:
    """What each op leaves for the device to show, in op order."""
    return [doubt for op in ops for doubt in _doubts(op)]


def _doubts(item: ShaderOp) -> list[Doubt]:
    shader, view, op = item.shader, item.view, item.op
    if shader is None or shader.reflection is None or view is None:
        return []  # the shader did not build: the check says why, and nothing runs
    found = [Doubt(op, CORE, f"its shader declares the uniform block `{b.name}` (set "
                             f"{b.set}, binding {b.binding}), which the runtime binds as a "
                             "storage buffer")
             for b in shader.reflection.bindings
             if b.descriptor_type == UNIFORM_BUFFER and b.used]
    if not any(b.resource == "buffer" for b in shader.reflection.bindings):
        return found
    sizes = view.attrs.get("workgroup_sizes")
    if not (isinstance(sizes, list) and len(sizes) == 3
            and all(type(s) is int and s >= 1 for s in sizes)):
        return found  # the check refuses it
    access = shader.access
    if access is None or access.unknown is not None:
        why = access.unknown if access is not None else "the module was not analysed"
        return [*found, Doubt(op, GPU_ASSISTED, f"its buffer accesses were not analysed "
                                                f"({why})")]
    context = view.context
    if context is None:
        return found
    from ..rules.coverage import extents
    from ..spirv.analysis.coverage import unbounded

    sized = [*extents(view, shader, context.results or ()),
             *extents(view, shader, context.operands or (), "input")]
    found_unbounded = unbounded(access, dispatched(sizes), sized) or []
    # (a store before a load, one proven past the end before one undecided)
    buffers = sorted((u for u in found_unbounded if u.access.resource == "buffer"),
                     key=lambda u: (not u.access.writes, not u.proven))
    if buffers:
        first = buffers[0]
        place = first.access.place
        # (a line of the op's own source: GLSL or HLSL, compiled by the shader stage)
        line = place.line if place.main_file and \
            view.attrs.get("shader_language") in ("GLSL", "HLSL") else None
        more = f" (and {len(buffers) - 1} more access(es))" if len(buffers) > 1 else ""
        found.append(Doubt(op, GPU_ASSISTED, _reason(first, sizes) + more, line))
    return found


def _reason(found: Unbounded, sizes: list[int]) -> str:
    access = found.access.place.describe()
    if found.extent is None:
        return f"{access} uses a buffer whose size the op's types do not give"
    label = found.extent.label
    if found.proven:
        who = f" ({found.detail})" if found.detail else ""
        return (f"with workgroup_sizes {sizes} {access} reaches {found.units} element(s) "
                f"past {label}{who}")
    return (f"whether {access} stays inside {label} with workgroup_sizes {sizes} is not "
            f"decided: {found.detail}")


def _notes(found: Sequence[Doubt], validation: Validation | None
          ) -> list[tuple[ModelOp, Diagnostic]]:
    """One note per op: what was not proven and what the run did about it
    (``validation`` None: the layer is not installed, and a warning says so)."""
    from ..diagnostics import InnerPosition, Severity
    from .rules import VALIDATED_WHERE_UNPROVEN
    from .validation import INSTALL

    by_op: dict[int, list[Doubt]] = {}
    for doubt in found:
        by_op.setdefault(doubt.op.index, []).append(doubt)
    made = []
    for doubts_of_op in by_op.values():
        op = doubts_of_op[0].op
        reasons = "; ".join(d.reason for d in doubts_of_op)
        line = next((d.line for d in doubts_of_op if d.line is not None), None)
        inner = InnerPosition(line, 1) if line is not None else None
        pointer = "/shader_code" if inner is not None else ""
        if validation is None:
            made.append((op, VALIDATED_WHERE_UNPROVEN.at(
                pointer, f"{op.name}: {reasons}; the Khronos validation layer, which would "
                         "show on the device what it does, is not installed, so the run "
                         "could not prove it", inner=inner, severity=Severity.WARNING,
                hint=INSTALL)))
            continue
        checks = ", ".join(validation.checks) or "its core checks"
        made.append((op, VALIDATED_WHERE_UNPROVEN.at(
            pointer, f"{op.name}: {reasons}; the run used the Khronos validation layer "
                     f"({checks}) to show what it does on the device (--no-validate runs "
                     "without it)", inner=inner)))
    return made


def races(ops: Sequence[ShaderOp]) -> list[tuple[ModelOp, Diagnostic]]:
    """VKS969 for each op whose shader's SPIR-V proves a race on workgroup-shared memory
    (the static finding VKS431): the device cannot show it, the analysis proves it."""
    from ..diagnostics import InnerPosition
    from .rules import RESULTS_FROM_A_RACE

    found = []
    for item in ops:
        shader, view = item.shader, item.view
        access = shader.access if shader is not None else None
        if access is None or view is None or not access.races:
            continue
        race = access.races[0]
        place = race.store
        line = place.line if place.main_file and \
            view.attrs.get("shader_language") in ("GLSL", "HLSL") else None
        more = f" (and {len(access.races) - 1} more)" if len(access.races) > 1 else ""
        found.append((item.op, RESULTS_FROM_A_RACE.at(
            "/shader_code" if line is not None else "",
            f"{item.op.name}: its results come from a race on workgroup-shared "
            f"`{race.variable}`: written by {race.store.describe()} and read by "
            f"{race.load.describe()} with no barrier() between them{more} ({race.example}); "
            "the values this run returned depend on how the device schedules invocations",
            inner=InnerPosition(line, 1) if line is not None else None,
            hint="call barrier() after the writes and before the reads of other "
                 "invocations' elements")))
    return found

