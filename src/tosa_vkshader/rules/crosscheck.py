"""Declared resources (the attributes) against the reflected shader (the SPIR-V).

Attributes can be well-formed and still describe a shader that is not there. Each rule
here compares one declared fact with what the module says, and points at the attribute
key that is wrong, and at the shader's declaration it disagrees with (``shader_place``:
the source line of GLSL/HLSL, the instruction of embedded SPIR-V).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .. import vulkan
from ..diagnostics import Diagnostic, Severity
from ..dispatch import invocations
from ..rule_registry import rule
from ..spirv.analysis.collect import SAMPLED
from ..spirv.bitcasts import reinterpreted_as
from ..spirv.records import DescriptorBinding, PushConstantBlock, Reflection
from ..view import AttributeView, ResourceView

if TYPE_CHECKING:
    from ..shader import Shader
    from ..shader.places import ShaderPlaces

ENTRY_POINT_MISSING = rule(
    "VKS410",
    summary="`entry_point` names a function the SPIR-V module does not export.",
    why="vkCreateComputePipelines fails when VkPipelineShaderStageCreateInfo::pName is not "
        "an entry point of the module.",
    bad='"entry_point": "CSMain"   // module exports "main"',
    good='"entry_point": "main"',
)
ENTRY_POINT_NOT_COMPUTE = rule(
    "VKS411",
    summary="The entry point's execution model is not GLCompute.",
    why="A custom operator's shader runs as a compute pipeline; a vertex or fragment entry "
        "point cannot be dispatched.",
    bad="OpEntryPoint Fragment %main \"main\"",
    good="OpEntryPoint GLCompute %main \"main\"",
)
RESOURCE_NOT_IN_SHADER = rule(
    "VKS412",
    summary="A declared input/output has no shader resource at its (descriptorset, binding).",
    why="The runtime binds the tensor to a descriptor the shader never reads or writes: the "
        "operator silently computes on the wrong data, or not at all.",
    bad='"input_0_binding": 3   // the shader declares bindings 0 and 1',
    good='"input_0_binding": 0',
)
BINDING_NOT_DECLARED = rule(
    "VKS413",
    summary="The entry point uses a descriptor that no input/output declares.",
    why="Nothing is bound to that descriptor at dispatch time: accessing an unbound "
        "descriptor is undefined behaviour and fails validation layers.",
    bad="layout(binding = 2) buffer Extra {...};  // used, but no input_N/output_N at 2",
    good='"output_1_binding": 2, "output_1_descriptorset": 0, ...',
)
DESCRIPTOR_TYPE_MISMATCH = rule(
    "VKS414",
    summary="The declared vkdescriptortype is not the type the shader's resource requires.",
    why="Vulkan derives the required descriptor type from the SPIR-V variable (storage "
        "class, Block/BufferBlock, image Sampled/Dim, OpTypeTensorARM); a layout with "
        "another type makes pipeline creation fail.",
    bad='"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"  // tensor in shader',
    good='"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_TENSOR_ARM"',
)
FORMAT_MISMATCH = rule(
    "VKS415",
    summary="The declared vkformat contradicts the shader: storage image format, tensor "
            "element type, or the sampled type's numeric class.",
    why="A storage image's format qualifier must equal the view's format; a tensor's "
        "element type must match its VkFormat (an int8 tensor is VK_FORMAT_R8_SINT); an "
        "integer sampled type needs an integer format. Otherwise the data is "
        "reinterpreted or the dispatch is invalid.",
    bad='"input_0_vkformat": "VK_FORMAT_R32_SFLOAT"   // OpTypeTensorARM of int8',
    good='"input_0_vkformat": "VK_FORMAT_R8_SINT"',
)
BUFFER_ELEMENT_MISMATCH = rule(
    "VKS416",
    summary="A buffer's element type does not match the numeric class or width of vkformat.",
    why="Buffers are untyped memory, so this is legal (packing int8 data into uint words "
        "is a common trick), but more often it means the shader reads float where the "
        "model stores int8, or the other way round. Not reported where every access of "
        "the buffer reinterprets its elements, bit for bit, as the format's type "
        "(`uintBitsToFloat(data[i])` and `data[i] = floatBitsToUint(v)` over "
        "R32_SFLOAT, HLSL `asfloat`/`asuint`, also on the four words of "
        "`ByteAddressBuffer.Load4`/`Store4`): the shader then reads the data as the "
        "model stores it.",
    bad='"input_0_vkformat": "VK_FORMAT_R8_SINT"   // buffer { float data[]; }',
    good='"input_0_vkformat": "VK_FORMAT_R32_SFLOAT"',
)
INPUT_WRITTEN = rule(
    "VKS417",
    summary="The shader writes a resource that is declared as an input.",
    why="Inputs are tensors other operators still read; writing them corrupts the graph's "
        "data. Usually the input/output declarations or their bindings are swapped.",
    bad='"input_0_binding": 1   // binding 1 is `writeonly buffer Out`',
    good='"output_0_binding": 1',
)
OUTPUT_NOT_WRITABLE = rule(
    "VKS418",
    summary="A declared output maps to a shader resource that cannot be written.",
    why="A NonWritable (readonly) buffer, a uniform buffer, a sampled image or a sampler "
        "can never carry the operator's result.",
    bad='"output_0_binding": 0   // binding 0 is `readonly buffer In`',
    good='"output_0_binding": 1   // `writeonly buffer Out`',
)
OUTPUT_NOT_WRITTEN = rule(
    "VKS419",
    summary="A declared output is never written by the entry point.",
    why="The operator's result would be whatever the tensor held before the dispatch.",
    bad="void main() { float v = outp.data[0]; }   // output only read",
    good="void main() { outp.data[i] = v; }",
)
WORKGROUP_MISMATCH = rule(
    "VKS420",
    summary="`workgroup_sizes` differs from the shader's local size (workgroup-semantics = "
            "\"local-size\").",
    why="The attribute spec defines workgroup_sizes as the local workgroup size "
        "(local_size_x/y/z), which must then equal the shader's LocalSize. The reference "
        "converter, however, writes it into the VGF as the dispatch shape (number of "
        "workgroups); producers that follow the converter should set "
        "workgroup-semantics = \"dispatch\".",
    bad='"workgroup_sizes": [16, 16, 1]   // layout(local_size_x = 8, local_size_y = 8)',
    good='"workgroup_sizes": [8, 8, 1]',
)
WORKGROUP_DISPATCH = rule(
    "VKS421",
    summary="Under workgroup-semantics = \"dispatch\", `workgroup_sizes` is the number of "
            "workgroups; the shader's local size is reported for reference.",
    why="With the converter's reading, the invocations launched are workgroup_sizes times "
        "the local size in each dimension: worth seeing next to the tensor shape.",
    bad='"workgroup_sizes": [64, 1, 1]   // with local size 128: 8192 invocations',
    good='"workgroup_sizes": [64, 1, 1]   // intended: 64 workgroups of 128',
)
WORKGROUP_READINGS_DIFFER = rule(
    "VKS430",
    summary="`workgroup_sizes` equals the shader's local size: the spec's wording and the "
            "reference runtime read it differently (workgroup-semantics = \"dispatch\").",
    why="The attribute spec calls workgroup_sizes the local workgroup size, so producers "
        "following it copy local_size_x/y/z. The reference converter writes it into the VGF "
        "as the dispatch shape and the runtime launches that many workgroups, each of the "
        "local size: an 8 x 8 shader with workgroup_sizes [8, 8, 1] runs 4,096 invocations. "
        "That is right only when the results have at most that many elements (checked, "
        "VKS518, when the op's tensor types are known).",
    bad='"workgroup_sizes": [8, 8, 1]   // layout(local_size_x = 8, local_size_y = 8), '
        'result tensor<1x128x128x1xi8>',
    good='"workgroup_sizes": [16, 16, 1]   // 16 x 16 workgroups of 8 x 8 = 16,384 '
         'invocations',
)
PUSH_CONSTANT_MISMATCH = rule(
    "VKS422",
    summary="`push_constants` disagrees with the shader's push-constant block (member sizes, "
            "names, total size).",
    why="The runtime creates the push-constant range from the declared sizes; a range "
        "smaller than the block fails pipeline creation, and mismatched member sizes feed "
        "the shader garbage.",
    bad='"push_constants": "scale: 4"   // block { float scale; float bias; }',
    good='"push_constants": "scale: 4, bias: 4"',
)
PUSH_CONSTANT_MISSING = rule(
    "VKS423",
    summary="The shader uses a push-constant block but `push_constants` is not declared, or "
            "the attributes declare push constants the shader does not have.",
    why="Without a declared range, the pipeline layout has no push constants and pipeline "
        "creation fails; push constants the shader never reads are dead weight and usually "
        "a sign the wrong shader is attached.",
    bad='(no push_constants)   // layout(push_constant) uniform P { float scale; }',
    good='"push_constants": "scale: 4"',
)
RESOURCE_UNUSED = rule(
    "VKS424",
    summary="A declared input maps to a shader resource the entry point never uses.",
    why="Harmless for the runtime, but often the sign of a binding pointing at a leftover "
        "declaration instead of the resource the shader actually reads.",
    bad='"input_1_binding": 2   // binding 2 is declared but never read',
    good="declare only the resources the entry point uses",
)
SAMPLER_UNDECLARED = rule(
    "VKS425",
    summary="The shader samples an image (filtering, normalized coordinates) but the op "
            "declares no `_sampler` for it.",
    why="How `texture()`, `textureLod()` or HLSL `SampleLevel` read depends on the sampler: "
        "the filter (nearest or linear) and what a coordinate outside [0, 1] reads (clamp, "
        "repeat, border). The shader does not carry it; the op's `input_N_sampler` does. "
        "Without one the reference runtime samples with NEAREST filtering and CLAMP_TO_EDGE "
        "addressing (measured), so a shader written for linear filtering or repeat computes "
        "something else, with a clean check. `texelFetch` needs no sampler and is not "
        "reported.",
    bad='"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER"   '
        '// textureLod(src, uv, 0.0), no input_0_sampler',
    good='"input_0_sampler": {"min_filter": "VK_FILTER_LINEAR", "mag_filter": '
         '"VK_FILTER_LINEAR", "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE", '
         '"address_mode_v": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE", "border_color": '
         '"VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK"}',
)
# Declared types the runtime may use for the type the shader requires.
_COMPATIBLE: dict[str, frozenset[str]] = {
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER": frozenset({
        "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC"}),
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER": frozenset({
        "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC",
        "VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK"}),
    "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR": frozenset({
        "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR",
        "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_NV"}),
}
_MUTABLE = "VK_DESCRIPTOR_TYPE_MUTABLE_EXT"
_MUTABLE_OK = frozenset({
    "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE", "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
    "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER", "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"})
# SPIR-V scalar (element_type prefix) -> the VkFormat numeric classes that may carry it
_FLOAT_CLASSES = frozenset({"SFLOAT", "UNORM", "SNORM", "USCALED", "SSCALED", "SRGB",
                            "UFLOAT", "SFIXED5"})
_SCALAR_RE = re.compile(r"^(u?int|float|bool)(\d*)$")


def _describe(b: DescriptorBinding) -> str:
    return f"`{b.name}` (set {b.set}, binding {b.binding}, {b.descriptor_type})"


def _retarget(d: _Declared, b: DescriptorBinding) -> str:
    """`set input_0_binding to 1` (and the set, when that differs too)."""
    changes = []
    if d.set != b.set:
        changes.append(f"{d.resource.key('descriptorset')} to {b.set}")
    if d.binding != b.binding:
        changes.append(f"{d.resource.key('binding')} to {b.binding}")
    return "set " + " and ".join(changes)


def _misplaced_because(d: _Declared, reflection: Reflection) -> str:
    where = f"{d.resource.name} points at set {d.set}, binding {d.binding}"
    b = reflection.binding(d.set, d.binding)
    if b is None:
        return f"{where}, where the shader has nothing"
    if d.resource.direction == "input" and b.access in ("write", "read-write"):
        return f"{where}, which the shader writes"
    if d.resource.direction == "output" and not (b.writable and b.access in ("write",
                                                                          "read-write")):
        return f"{where}, which the shader does not write"
    return f"{where}, where another resource is declared"


@cache  # (a shader's element type names: a handful)
def _scalar(element: str) -> tuple[str, int] | None:
    match = _SCALAR_RE.match(element)
    if not match:
        return None
    kind, bits = match.groups()
    numeric = {"int": "SINT", "uint": "UINT", "float": "SFLOAT", "bool": "BOOL"}[kind]
    return numeric, int(bits) if bits else 8


@cache
def _format_scalar(info: vulkan.FormatInfo) -> tuple[str, int] | None:
    """``info.scalar``, worked out once per format (``format_info`` gives one record per
    name): the cross-check asks for every declared resource of every op."""
    return info.scalar


def _example_format(numeric: str, bits: int) -> str:
    if numeric == "BOOL":
        return "VK_FORMAT_R8_BOOL_ARM"
    return f"VK_FORMAT_R{bits}_{numeric}"


def scalar_format(element_type: str) -> str | None:
    """The single-component VkFormat for a shader scalar type name (``uint8``)."""
    element = _scalar(element_type)
    return _example_format(*element) if element else None


@dataclass(slots=True)
class _Declared:
    resource: ResourceView
    set: int
    binding: int


class _Check:
    def __init__(self, view: AttributeView, shader: Shader, reflection: Reflection,
                 places: ShaderPlaces) -> None:
        self.view = view
        self.shader = shader
        self.r = reflection
        self.places = places
        # binding key of a misplaced resource -> how to move it where the shader wants it
        self.moves: dict[str, str] = {}
        self.out: list[Diagnostic] = []
        self.found_entry = reflection.entry_point is not None

    def ptr(self, resource: ResourceView, name: str) -> str:
        return resource.pointer(name, self.view.base)

    # ---- entry point ----
    def entry_point(self) -> None:
        wanted = self.view.attrs.get("entry_point")
        computes = [e.name for e in self.r.entry_points if e.execution_model == "GLCompute"]
        use = (f"use {computes[0]!r}" if len(computes) == 1 else
               f"use one of: {', '.join(map(repr, computes))}" if computes else None)
        if not self.found_entry:
            if not isinstance(wanted, str) or not wanted:
                return  # a missing or mistyped entry_point is reported by the value rules
            listing = ", ".join(f"'{e.name}' ({e.execution_model})" for e in self.r.entry_points)
            close = vulkan.closest(wanted, computes, cutoff=0.5)
            self.out.append(ENTRY_POINT_MISSING.at(
                self.view.pointer("entry_point"),
                f"entry_point is {wanted!r} but the SPIR-V module's entry points are: "
                f"{listing or 'none'}",
                hint=f"did you mean {close!r}?" if close else use))
            return
        if self.r.execution_model != "GLCompute":
            self.out.append(ENTRY_POINT_NOT_COMPUTE.at(
                self.view.pointer("entry_point"),
                f"entry_point {self.r.entry_point!r} is a {self.r.execution_model} entry point, "
                "not GLCompute",
                hint=f"{use}, the module's compute entry point" if len(computes) == 1 else use
                or "attach a compute shader (#pragma shader_stage(compute), or glslc "
                   "-fshader-stage=compute)", shader_place=self.places.entry_point()))

    # ---- resources ----
    def declared(self) -> list[_Declared]:
        result = []
        for resource in self.view.in_order():
            set_ = resource.int_value("descriptorset")
            binding = resource.int_value("binding")
            if set_ is not None and binding is not None:
                result.append(_Declared(resource, set_, binding))
        return result

    def resources(self) -> None:
        declared = self.declared()
        misplaced = self.misplaced(declared)
        meant = self.meant_bindings(misplaced, declared)
        for d in declared:
            shader = self.r.binding(d.set, d.binding)
            if shader is None:
                self.not_in_shader(d, meant.get(id(d)))
                continue
            self.descriptor_type(d.resource, shader)
            self.format(d.resource, shader)
            self.access(d, shader, meant.get(id(d)))
            self.sampler(d.resource, shader)
        if self.found_entry:
            self.undeclared({(d.set, d.binding) for d in declared}, misplaced, meant)
        for d in misplaced:
            if id(d) in meant:
                self.moves[self.ptr(d.resource, "binding")] = \
                    f"{_retarget(d, meant[id(d)])} ({_misplaced_because(d, self.r)})"

    def misplaced(self, declared: list[_Declared]) -> list[_Declared]:
        """The declared resources that cannot be right where they point: at no shader
        resource; (the entry point known) at one their direction cannot use, an input at
        a resource the shader writes, an output at one it does not write; or sharing a
        place with a resource that can be there (else with the first one declared)."""
        wrong = []
        holder: dict[tuple[int, int], _Declared] = {}
        for d in declared:
            b = self.r.binding(d.set, d.binding)
            if b is None or (self.found_entry and not self._fits(d.resource, b)):
                wrong.append(d)
            elif (d.set, d.binding) in holder:
                wrong.append(d)  # a second resource where one already fits
            else:
                holder[(d.set, d.binding)] = d
        return wrong

    def meant_bindings(self, misplaced: list[_Declared],
                       declared: list[_Declared]) -> dict[int, DescriptorBinding]:
        """For each misplaced resource, the one shader resource it most likely meant: not
        held by a declared resource that fits it, of a kind its direction allows (an output
        needs a resource the shader writes, an input one it does not write), used by the
        entry point, and the only such candidate (same binding number in another set
        first, then the same set). No guess when that is not clear-cut, and never the same
        target for two resources."""
        wrong = {id(d) for d in misplaced}
        held = {(d.set, d.binding) for d in declared if id(d) not in wrong}
        free = [b for b in self.r.bindings if (b.set, b.binding) not in held
                and (b.used or not self.found_entry)]
        meant: dict[int, DescriptorBinding] = {}
        for d in misplaced:
            fits = [b for b in free if b not in meant.values() and self._fits(d.resource, b)
                    and (b.set, b.binding) != (d.set, d.binding)]
            same_number = [b for b in fits if b.binding == d.binding]
            same_set = [b for b in fits if b.set == d.set]
            for candidates in (same_number, same_set, fits):
                if len(candidates) == 1:
                    meant[id(d)] = candidates[0]
                    break
                if candidates:
                    break  # several equally likely: no guess
        return meant

    def _fits(self, resource: ResourceView, b: DescriptorBinding) -> bool:
        if resource.direction == "output":
            return b.writable and (not self.found_entry or b.access in ("write", "read-write"))
        return not self.found_entry or b.access in ("read", "none")

    def not_in_shader(self, d: _Declared, best: DescriptorBinding | None) -> None:
        shader_list = ", ".join(_describe(b) for b in self.r.bindings) or "none"
        hint = place = None
        if best is not None:
            hint = (f"did you mean descriptorset {best.set}, binding {best.binding} "
                    f"({best.name})?")
            place = self.places.binding(best)
        field = "binding" if any(b.set == d.set for b in self.r.bindings) else "descriptorset"
        self.out.append(RESOURCE_NOT_IN_SHADER.at(
            self.ptr(d.resource, field),
            f"{d.resource.name} is declared at descriptorset {d.set}, binding {d.binding}, "
            f"but the shader has no resource there; the shader declares: {shader_list}",
            hint=hint, shader_place=place))

    def descriptor_type(self, resource: ResourceView, b: DescriptorBinding) -> None:
        text = resource.str_value("vkdescriptortype")
        declared = vulkan.canonical_descriptor_type(text) if text else None
        if declared is None or declared == b.descriptor_type:
            return
        if declared in _COMPATIBLE.get(b.descriptor_type, ()):
            return
        if declared == _MUTABLE and b.descriptor_type in _MUTABLE_OK:
            return
        self.out.append(DESCRIPTOR_TYPE_MISMATCH.at(
            self.ptr(resource, "vkdescriptortype"),
            f"{resource.key('vkdescriptortype')} is {text} but the shader's {b.name!r} at "
            f"set {b.set}, binding {b.binding} is a {b.resource} in {b.storage_class} that "
            f"needs {b.descriptor_type}",
            hint=f"use {b.descriptor_type}", shader_place=self.places.variable(b)))

    def format(self, resource: ResourceView, b: DescriptorBinding) -> None:
        text = resource.str_value("vkformat")
        info = vulkan.format_info(text) if text else None
        if info is None:
            return
        key = resource.key("vkformat")
        if b.image_format and b.image_format != "Unknown" and b.descriptor_type in (
                "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER"):
            if b.vk_format != info.name:
                self.out.append(FORMAT_MISMATCH.at(
                    self.ptr(resource, "vkformat"),
                    f"{key} is {text} but the shader declares {b.name!r} with image format "
                    f"{b.image_format} ({b.vk_format or 'no VkFormat'})",
                    hint=f"use {b.vk_format}" if b.vk_format else None,
                    shader_place=self.places.variable(b)))
            return
        element = _scalar(b.element_type) if b.element_type else None
        if element is None:
            return
        fmt = _format_scalar(info)
        if b.resource == "tensor":
            if fmt != element:
                # When the model's tensor disagrees with the shader too, the model-context
                # rules replace this hint (rules.run_shader_rules).
                self.out.append(FORMAT_MISMATCH.at(
                    self.ptr(resource, "vkformat"),
                    f"{key} is {text} but the shader's tensor {b.name!r} has element type "
                    f"{b.element_type}",
                    hint=f"use {_example_format(*element)}",
                    shader_place=self.places.variable(b)))
        elif b.resource == "buffer":
            if fmt is not None and fmt[0] in ("SINT", "UINT", "SFLOAT") and fmt != element \
                    and not self.reinterpreted(b, fmt):
                self.out.append(BUFFER_ELEMENT_MISMATCH.at(
                    self.ptr(resource, "vkformat"),
                    f"{key} is {text} ({fmt[1]}-bit {fmt[0]}) but the shader's buffer "
                    f"{b.name!r} holds {b.element_type} elements",
                    hint=f"use {_example_format(*element)}, or change the buffer's element "
                         "type", shader_place=self.places.variable(b)))
        elif info.numeric is not None:
            numeric = info.numeric
            ok = numeric in _FLOAT_CLASSES if element[0] == "SFLOAT" else numeric == element[0]
            if not ok:
                self.out.append(FORMAT_MISMATCH.at(
                    self.ptr(resource, "vkformat"),
                    f"{key} is {text} ({numeric}) but the shader samples {b.name!r} as "
                    f"{b.element_type}: Vulkan requires the format's numeric type to match "
                    "the image's sampled type",
                    hint=_numeric_twin_hint(info, element[0]),
                    shader_place=self.places.variable(b)))

    def sampler(self, resource: ResourceView, b: DescriptorBinding) -> None:
        """A sampled image whose op leaves the sampler to the runtime's defaults."""
        access = self.shader.access
        if access is None or "sampler" in resource.fields or "sampler" in resource.misspelled \
                or resource.str_value(
                "vkdescriptortype") != "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER":
            return
        samples = [a for a in access.accesses if a.unknown == SAMPLED
                   and (a.set, a.binding) == (b.set, b.binding)]
        if not samples:
            return
        key = resource.key("sampler")
        self.out.append(SAMPLER_UNDECLARED.at(
            self.ptr(resource, "vkdescriptortype"),
            f"the shader samples {b.name!r} ({samples[0].place.describe()}) but the op has "
            f"no `{key}`: the reference runtime then samples it with NEAREST filtering and "
            "CLAMP_TO_EDGE addressing, whatever filter and address mode the shader was "
            "written for",
            hint=f"declare them: `\"{key}\": {{\"min_filter\": \"VK_FILTER_LINEAR\", "
                 "\"mag_filter\": \"VK_FILTER_LINEAR\", \"address_mode_u\": "
                 "\"VK_SAMPLER_ADDRESS_MODE_REPEAT\", \"address_mode_v\": "
                 "\"VK_SAMPLER_ADDRESS_MODE_REPEAT\", \"border_color\": "
                 "\"VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK\"}` (NEAREST, CLAMP_TO_EDGE, "
                 "CLAMP_TO_BORDER, MIRRORED_REPEAT as the shader needs)",
            shader_place=self.places.access(samples[0].place)))

    def reinterpreted(self, b: DescriptorBinding, fmt: tuple[str, int]) -> bool:
        """Whether the code reads and writes the buffer's elements only as bits of the
        format's scalar type (OpBitcast: ``uintBitsToFloat``, ``asfloat``, ...): the
        disagreement is then deliberate, and the data is read as the model stores it."""
        module = self.shader.module
        if module is None or not b.variable_id:
            return False
        kinds = reinterpreted_as(self.shader.words(), module, b.variable_id)
        return kinds is not None and all(_scalar(kind) == fmt for kind in kinds)

    def access(self, d: _Declared, b: DescriptorBinding,
               target: DescriptorBinding | None) -> None:
        resource = d.resource
        move = _retarget(d, target) if target is not None else None
        if resource.direction == "input":
            if self.found_entry and b.access in ("write", "read-write"):
                self.out.append(INPUT_WRITTEN.at(
                    self.ptr(resource, "binding"),
                    f"{resource.name} maps to {_describe(b)}, which entry point "
                    f"{self.r.entry_point!r} writes ({b.access}); inputs must not be written",
                    hint=f"{move} (`{target.name}`, which the shader reads)" if target
                    else None, shader_place=self.places.binding(b)))
            elif self.found_entry and not b.used:
                self.out.append(RESOURCE_UNUSED.at(
                    self.ptr(resource, "binding"),
                    f"{resource.name} maps to {_describe(b)}, which entry point "
                    f"{self.r.entry_point!r} never uses", shader_place=self.places.binding(b)))
            return
        if not b.writable:
            storage = b.descriptor_type in ("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
                                            "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
                                            "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
                                            "VK_DESCRIPTOR_TYPE_TENSOR_ARM")
            reason = "it is decorated NonWritable (readonly)" if storage \
                else f"a {b.descriptor_type} is read-only"
            hint = f"{move} (`{target.name}`, which the shader writes)" if target else \
                f"remove `readonly` from `{b.name}` in the shader" if storage and \
                not any(self._fits(resource, other) for other in self.r.bindings) else None
            self.out.append(OUTPUT_NOT_WRITABLE.at(
                self.ptr(resource, "binding"),
                f"{resource.name} maps to {_describe(b)}, which the shader cannot write: "
                f"{reason}", hint=hint, shader_place=self.places.read_only(b)))
        elif self.found_entry and b.access in ("none", "read"):
            what = "only reads" if b.access == "read" else "never uses"
            self.out.append(OUTPUT_NOT_WRITTEN.at(
                self.ptr(resource, "binding"),
                f"{resource.name} maps to {_describe(b)}, which entry point "
                f"{self.r.entry_point!r} {what}; the output is never written",
                hint=f"{move} (`{target.name}`, which the shader writes)" if target else None,
                shader_place=self.places.binding(b)))

    def undeclared(self, taken: set[tuple[int, int]], misplaced: list[_Declared],
                   meant: dict[int, DescriptorBinding]) -> None:
        counts = {d: len(self.view.of_direction(d)) for d in ("input", "output")}
        for b in self.r.bindings:
            if not b.used or (b.set, b.binding) in taken:
                continue
            direction = "output" if b.access in ("write", "read-write") else "input"
            owner = next((d for d in misplaced if meant.get(id(d)) is b), None)
            if owner is not None:  # a mistyped binding, not a missing resource
                hint = f"{_retarget(owner, b)} ({_misplaced_because(owner, self.r)})"
            elif misplaced:
                hint = None  # some declared resource is misplaced: which one is unclear
            else:
                prefix = f"{direction}_{counts[direction]}"
                counts[direction] += 1
                fmt = scalar_format(b.element_type) if b.resource in ("buffer", "tensor") \
                    and b.element_type else None
                hint = (f"add {prefix}_descriptorset: {b.set}, {prefix}_binding: {b.binding}, "
                        f"{prefix}_vkdescriptortype: \"{b.descriptor_type}\" and "
                        + (f"{prefix}_vkformat: \"{fmt}\"" if fmt else f"{prefix}_vkformat"))
            self.out.append(BINDING_NOT_DECLARED.at(
                self.view.pointer(),
                f"entry point {self.r.entry_point!r} uses {_describe(b)} ({b.access}), but no "
                f"input_N/output_N declares descriptorset {b.set}, binding {b.binding}",
                hint=hint, shader_place=self.places.binding(b)))

    # ---- workgroup size ----
    def workgroup(self) -> None:
        sizes = self.view.attrs.get("workgroup_sizes")
        local = self.r.local_size
        if not self.found_entry or local is None or None in local.values:
            return
        if not (isinstance(sizes, list) and len(sizes) == 3
                and all(type(v) is int and v >= 1 for v in sizes)):
            return
        shader = [v for v in local.values if v is not None]
        spec = ""
        if local.specializable:
            spec = (" (specialization constants: the pipeline gets these defaults unless "
                    "it specializes the SpecIds)")
        pointer = self.view.pointer("workgroup_sizes")
        shapes_known = self.view.context is not None and self.view.context.results is not None
        if self.view.options.workgroup_semantics == "dispatch":
            if sizes == shader:
                self.out.append(WORKGROUP_READINGS_DIFFER.at(
                    pointer,
                    f"workgroup_sizes {sizes} equals the shader's local size{spec}: the "
                    "spec's wording reads it as the local size, but the reference runtime "
                    f"dispatches {' x '.join(map(str, sizes))} workgroups of that size = "
                    f"{invocations(sizes, shader)} invocations",
                    hint=None if shapes_known else
                    "make it the number of workgroups the results need (`tosa-vkshader new "
                    "SHADER --results TYPES` computes it)",
                    shader_place=self.places.local_size()))
            elif not shapes_known:
                # (with the op's result types, VKS518 judges the invocations instead)
                total = [a * b for a, b in zip(sizes, shader, strict=True)]
                self.out.append(WORKGROUP_DISPATCH.at(
                    pointer,
                    f"workgroup_sizes {sizes} is read as the dispatch shape (workgroup-"
                    f"semantics = \"dispatch\"); the shader's local size is {local.describe()}"
                    f"{spec}, so one dispatch runs {total} invocations",
                    shader_place=self.places.local_size()))
            return
        if sizes != shader:
            self.out.append(WORKGROUP_MISMATCH.at(
                pointer,
                f"workgroup_sizes is {sizes} but the shader's local size is "
                f"{local.describe()} ({local.source}){spec}. The spec reads workgroup_sizes "
                "as the local size, so they must agree; the reference converter reads it as "
                "the dispatch shape (number of workgroups)",
                hint=f"set workgroup_sizes to {shader}, or, if it is meant as the dispatch "
                     "shape, set workgroup-semantics = \"dispatch\" in [tool.tosa-vkshader]",
                shader_place=self.places.local_size()))

    # ---- push constants ----
    def push_constants(self) -> None:
        text = self.view.attrs.get("push_constants")
        block = self.r.push_constants
        used = block is not None and block.used and self.found_entry
        declared = _parse_push_constants(text) if isinstance(text, str) else None
        if isinstance(text, str) and text.strip() and declared is None:
            return  # malformed: reported by the value rules
        if not declared:
            if used:
                assert block is not None
                suggestion = block.attribute_text()
                self.out.append(PUSH_CONSTANT_MISSING.at(
                    self.view.pointer("push_constants") if text is not None
                    else self.view.pointer(),
                    f"the shader uses a {block.size}-byte push-constant block {block.name!r} "
                    f"({_members(block)}) but push_constants is not declared",
                    hint=f'add "push_constants": "{suggestion}"',
                    shader_place=self.places.push_constants()))
            return
        total = sum(size for _n, size in declared)
        if not used:
            self.out.append(PUSH_CONSTANT_MISSING.at(
                self.view.pointer("push_constants"),
                f"push_constants declares {total} bytes ({str(text).strip()}) but entry point "
                f"{self.r.entry_point!r} uses no push-constant block",
                hint="remove push_constants, or check that this is the right shader",
                severity=Severity.WARNING, shader_place=self.places.push_constants()))
            return
        assert block is not None
        self.push_members(declared, block)
        if total < block.size:
            self.out.append(PUSH_CONSTANT_MISMATCH.at(
                self.view.pointer("push_constants"),
                f"push_constants declares {total} bytes in total but the shader's block "
                f"{block.name!r} needs {block.size} ({_members(block)})",
                hint=f'use "push_constants": "{block.attribute_text()}"',
                shader_place=self.places.push_constants()))
        elif total > block.size:
            self.out.append(PUSH_CONSTANT_MISMATCH.at(
                self.view.pointer("push_constants"),
                f"push_constants declares {total} bytes in total but the shader's block "
                f"{block.name!r} is {block.size} bytes ({_members(block)})",
                severity=Severity.WARNING, shader_place=self.places.push_constants()))

    def push_members(self, declared: list[tuple[str, int]], block: PushConstantBlock) -> None:
        pointer = self.view.pointer("push_constants")
        by_name = {m.name: m for m in block.members}
        offset = 0
        for index, (name, size) in enumerate(declared):
            member = by_name.get(name)
            if member is None and index < len(block.members) \
                    and len(declared) == len(block.members):
                member = block.members[index]
                self.out.append(PUSH_CONSTANT_MISMATCH.at(
                    pointer,
                    f"push_constants member {index} is named {name!r} but the shader's "
                    f"member {index} is {member.name!r}",
                    hint=f"did you mean {member.name!r}?", severity=Severity.WARNING,
                    shader_place=self.places.push_constants()))
            if member is None:
                offset += size  # padding (or an unknown name): it still takes its bytes
                continue
            if member.size != size:
                self.out.append(PUSH_CONSTANT_MISMATCH.at(
                    pointer,
                    f"push_constants gives {name!r} {size} bytes but the shader's "
                    f"{member.name!r} is a {member.type} of {member.size} bytes",
                    hint=f"use {member.name}: {member.size}",
                    shader_place=self.places.push_constants()))
            elif member.offset != offset:
                self.out.append(PUSH_CONSTANT_MISMATCH.at(
                    pointer,
                    f"push_constants places {name!r} at byte {offset} but the shader's "
                    f"{member.name!r} is at offset {member.offset}",
                    hint=f'use "push_constants": "{block.attribute_text()}"',
                    shader_place=self.places.push_constants()))
                offset = member.offset
            offset += size


_NUMERIC_SUFFIX = re.compile(r"_(UNORM|SNORM|USCALED|SSCALED|UINT|SINT|UFLOAT|SFLOAT|SRGB)"
                             r"(?=(?:_PACK\d+)?$)")


def _numeric_twin_hint(info: vulkan.FormatInfo, sampled: str) -> str | None:
    """`use VK_FORMAT_R8G8B8A8_SINT` for an int-sampled image declared UNORM: the same
    layout with the numeric type the shader samples, when the registry has one."""
    wanted = ("SFLOAT", "UNORM", "SNORM") if sampled == "SFLOAT" else (sampled,)
    for numeric in wanted:
        name = _NUMERIC_SUFFIX.sub(f"_{numeric}", info.name, count=1)
        if name != info.name and vulkan.format_info(name) is not None:
            return f"use {name}"
    return None


def _members(block: PushConstantBlock) -> str:
    return ", ".join(f"{m.name} at {m.offset}, {m.size} bytes" for m in block.members)


def _parse_push_constants(text: str) -> list[tuple[str, int]] | None:
    """``"scale: 4, bias: 4"`` -> [("scale", 4), ("bias", 4)]; None when malformed."""
    result = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, size = part.partition(":")
        size = size.strip()
        # ASCII and short: `int` refuses "²" (a digit to isdigit) and 5000-digit sizes.
        if not sep or not name.strip() or not (size.isascii() and size.isdigit()
                                               and len(size) <= 18):
            return None
        result.append((name.strip(), int(size)))
    return result


@dataclass(slots=True)
class Comparison:
    """What the cross-check found, and (binding key -> "set input_0_binding to 0 (...)")
    the move for each declared resource the shader says is misplaced: the hint other
    rules give when they find such a resource too (VKS222)."""

    findings: list[Diagnostic]
    moves: dict[str, str]


def compare(view: AttributeView, shader: Shader) -> Comparison:
    """Every disagreement between the attributes and the shader's reflected entry point
    (nothing when the shader could not be reflected: its findings say why)."""
    if shader.reflection is None:
        return Comparison([], {})
    from ..shader.places import places_for

    check = _Check(view, shader, shader.reflection, places_for(shader, view.attrs))
    check.entry_point()
    check.resources()
    check.workgroup()
    check.push_constants()
    return Comparison(check.out, check.moves)


def crosscheck(view: AttributeView, shader: Shader) -> list[Diagnostic]:
    return compare(view, shader).findings
