"""The op in its model: checking the attributes against the op's operands and results
(VKS503-VKS529; the problems of reading ops out of models are in sources/reading_rules.py).

The attributes describe resources by index: ``input_i`` is the op's i-th operand and
``output_i`` its i-th result. A model knows those tensors (element type, shape), so it can
tell whether the attributes describe the op they are attached to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import vulkan
from ..diagnostics import Diagnostic, Severity
from ..op_context import VULKAN_DOMAIN, OpContext, TensorType, storage_element
from ..rule_registry import rule
from ..view import AttributeView, ResourceView

if TYPE_CHECKING:
    from ..shader import Shader
    from ..spirv.records import DescriptorBinding

# -- the op object in the model (reading problems: sources/reading_rules.py) -----

NEAR_MISS_DOMAIN = rule(
    "VKS503",
    summary="`domain_name` is a near miss of `com.arm.VulkanCustomShader` (wrong case, a "
            "letter off, a plural).",
    why="The converter recognises Vulkan shader ops by the exact domain name; a misspelled "
        "one is treated as some other custom op and its shader never runs. (Ops of other "
        "domains are skipped without a diagnostic.)",
    bad='domain_name = "com.arm.VulkanCustomShaders"',
    good='domain_name = "com.arm.VulkanCustomShader"',
)
MISSING_OPERATOR_NAME = rule(
    "VKS504",
    summary="The custom op has no `operator_name`, or it is empty.",
    why="The operator name identifies the kernel in the model and in the converter's "
        "output; TOSA's verifier requires the attribute (a missing one is an error). An "
        "empty name converts and runs, so it is reported as a warning.",
    bad='operator_name = ""',
    good='operator_name = "fused_gelu"',
)

# -- the attributes against the op -------------------------------------------------------

OPERAND_WITHOUT_INPUT = rule(
    "VKS510",
    summary="An operand of the op has no `input_i_*` attributes.",
    why="The converter reads input_0 .. input_{n-1} for an op with n operands and refuses "
        "the op when one of them is missing; the shader would never see that tensor.",
    bad='tosa.custom %a, %b ...   // attributes describe only input_0',
    good='"input_0_binding": 0, ..., "input_1_binding": 1, ...',
)
INPUT_WITHOUT_OPERAND = rule(
    "VKS511",
    summary="`input_i_*` attributes describe an operand the op does not have.",
    why="The converter never reads them: nothing is bound there at dispatch time. Usually "
        "the attributes belong to another op, or an operand was dropped from the model.",
    bad='tosa.custom %a ...   // attributes describe input_0 and input_1',
    good='tosa.custom %a, %b ...',
)
RESULT_WITHOUT_OUTPUT = rule(
    "VKS512",
    summary="A result of the op has no `output_i_*` attributes.",
    why="The converter reads output_0 .. output_{m-1} for an op with m results; without "
        "them the result tensor is never bound and never written.",
    bad='%0:2 = tosa.custom ...   // attributes describe only output_0',
    good='"output_0_binding": 2, ..., "output_1_binding": 3, ...',
)
OUTPUT_WITHOUT_RESULT = rule(
    "VKS513",
    summary="`output_i_*` attributes describe a result the op does not have.",
    why="The converter never reads them; the shader's writes to that resource go nowhere.",
    bad='%0 = tosa.custom ...   // attributes describe output_0 and output_1',
    good='%0:2 = tosa.custom ...',
)
ELEMENT_FORMAT_MISMATCH = rule(
    "VKS514",
    summary="A tensor's element type and the resource's `vkformat` disagree (float vs "
            "integer, width, or floating-point encoding such as bf16 vs f16).",
    why="The runtime hands the tensor's bytes to the shader as vkformat says; a f32 tensor "
        "read as R8_SINT, or bf16 read as f16, computes on garbage.",
    bad='tensor<1x8xbf16>  with  "input_0_vkformat": "VK_FORMAT_R16_SFLOAT"',
    good='tensor<1x8xbf16>  with  "input_0_vkformat": '
         '"VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM"',
)
ELEMENT_REINTERPRETED = rule(
    "VKS515",
    summary="A tensor's integer element type and `vkformat` have the same width but "
            "another signedness (i8 through R8_UINT or R8_UNORM, ui8 through R8_SINT or "
            "R8_SNORM).",
    why="Legal, and sometimes intended, but an i8 tensor read through R8_UINT turns -1 "
        "into 255: say so explicitly in the model (ui8) or use the matching format. A "
        "normalized or scaled format of the same signedness (ui8 through R8G8B8A8_UNORM, "
        "i8 through R8G8B8A8_SNORM: an 8-bit image read as float) is not reported.",
    bad='tensor<4xi8>  with  "input_0_vkformat": "VK_FORMAT_R8_UINT"',
    good='tensor<4xi8>  with  "input_0_vkformat": "VK_FORMAT_R8_SINT"',
)
RANK_MISMATCH = rule(
    "VKS516",
    summary="The rank of an operand or result differs from the rank of the shader's tensor "
            "at that binding.",
    why="A tensor resource has a fixed rank in the shader (OpTypeTensorARM); binding a "
        "tensor of another rank is invalid and the shader's indexing would be wrong.",
    bad='tensor<1x8x8xf32>  bound to  OpTypeTensorARM %float %uint_2',
    good='tensor<8x8xf32>  bound to  OpTypeTensorARM %float %uint_2',
)
SHAPE_MISMATCH = rule(
    "VKS517",
    summary="A static dimension of an operand or result differs from the shape the shader "
            "declares for its tensor.",
    why="A shader tensor type with a shape only accepts tensors of exactly that shape.",
    bad='tensor<1x32xf32>  bound to a shader tensor of shape [1, 64]',
    good='tensor<1x64xf32>  bound to a shader tensor of shape [1, 64]',
)
UNSUPPORTED_TENSOR_TYPE = rule(
    "VKS530",
    summary="An operand or result type is one TOSA's verifier rejects: not a tensor "
            "(`memref<...>`), a zero-size dimension, or a `complex` or `index` element type.",
    why="tosa.custom takes TOSA-conformant tensors of numbers; the reference converter runs "
        "TOSA's verifier first and refuses the model (\"must be variadic of "
        "tosa-conformant tensor of number values\").",
    bad="tosa.custom %a {...} : (tensor<0x64xf32>) -> tensor<0x64xf32>",
    good="tosa.custom %a {...} : (tensor<1x64xf32>) -> tensor<1x64xf32>",
)
UNUSED_RESULT = rule(
    "VKS531",
    summary="A result of the custom op is not used by anything in the model.",
    why="The reference converter drops a result nothing consumes from the VGF: its output "
        "binding disappears, the shader writes into a resource that is not bound, and a "
        "returned result can then receive another result's data.",
    bad="%0:2 = tosa.custom %a {...} ...   return %0#0 : ...",
    good="%0:2 = tosa.custom %a {...} ...   return %0#0, %0#1 : ...",
)
REPEATED_OPERAND = rule(
    "VKS532",
    summary="The same value is passed as two operands of the custom op.",
    why="The reference converter gives one value one binding in the VGF: the second input "
        "binding disappears and the shader reads an unbound resource there.",
    bad="tosa.custom %a, %a {...} : (tensor<8xf32>, tensor<8xf32>) -> ...",
    good="%b = tosa.identity %a ...   tosa.custom %a, %b {...} ...",
)
RESULTS_RETURNED_SWAPPED = rule(
    "VKS520",
    summary="The function returns the results of one multi-result custom op in another "
            "order than the op produces them: on the reference runtime they come back "
            "swapped.",
    why="The converter orders the VGF's outputs by the custom op's results, not by the "
        "function's return: measured on lavapipe, `return %0#1, %0#0` hands the model's "
        "first output the data of result 0. (Separate ops, and plain TOSA ops, keep the "
        "return order.)",
    bad='%0:2 = tosa.custom %x {...} : (...) -> (...)\n  return %0#1, %0#0 : ...',
    good='%0:2 = tosa.custom %x {...} : (...) -> (...)\n  return %0#0, %0#1 : ...   '
         '// or swap output_0_* and output_1_* and the op\'s result types',
)


# -- element types and formats --------------------------------------------------------------

# MLIR element type -> (numeric class, bits, floating-point encoding)
_ELEMENTS: dict[str, tuple[str, int, str | None]] = {
    "f16": ("SFLOAT", 16, None),
    "f32": ("SFLOAT", 32, None),
    "f64": ("SFLOAT", 64, None),
    "bf16": ("SFLOAT", 16, "BFLOAT16"),
    "f8E4M3FN": ("SFLOAT", 8, "FLOAT8E4M3"),
    "f8E5M2": ("SFLOAT", 8, "FLOAT8E5M2"),
    "i1": ("BOOL", 8, None),
}
for _bits in (8, 16, 32, 64):
    _ELEMENTS[f"i{_bits}"] = _ELEMENTS[f"si{_bits}"] = ("SINT", _bits, None)
    _ELEMENTS[f"ui{_bits}"] = ("UINT", _bits, None)
_SIGNED_STORAGE = {"SINT", "SNORM", "SSCALED"}
_UNSIGNED_STORAGE = {"UINT", "UNORM", "USCALED", "SRGB"}
_ENCODING_RE = re.compile(r"_FPENCODING_([A-Z0-9]+)_ARM$")


def _format_signature(info: vulkan.FormatInfo) -> tuple[str, int, str | None] | None:
    scalar = info.scalar
    if scalar is None:
        return None
    encoding = _ENCODING_RE.search(info.name)
    return *scalar, encoding.group(1) if encoding else None


def example_format(element: str, like: str | None = None) -> str | None:
    """The VkFormat that carries ``element`` exactly, if there is one: with the channels of
    the format ``like`` (R8G8B8A8_UNORM for ui8: R8G8B8A8_UINT), else single-component."""
    signature = _ELEMENTS.get(element)
    if signature is None:
        return None
    numeric, bits, encoding = signature
    if numeric == "BOOL":
        return "VK_FORMAT_R8_BOOL_ARM"
    channels = f"R{bits}"
    info = vulkan.format_info(like) if like else None
    if info is not None and info.is_plain and info.packed is None:
        channels = "".join(f"{c.channel}{bits}" for c in info.components)
    name = f"VK_FORMAT_{channels}_{numeric}"
    if encoding:
        name += f"_FPENCODING_{encoding}_ARM"
    return name if vulkan.format_info(name) is not None else None


def compare_element(element: str, vkformat: str) -> Severity | None:
    """None when ``vkformat`` carries ``element``; WARNING for a same-width integer
    reinterpretation; ERROR for a real mismatch. Unknown element types and formats are
    not judged (None)."""
    wanted = _ELEMENTS.get(element)
    info = vulkan.format_info(vkformat)
    if wanted is None or info is None:
        return None
    have = _format_signature(info)
    if have == wanted:
        return None
    if have is None:
        return Severity.ERROR
    numeric, bits, encoding = have
    if wanted[0] == "BOOL":
        return None if (numeric, bits) == ("UINT", 8) else \
            Severity.WARNING if (numeric, bits) == ("SINT", 8) else Severity.ERROR
    if wanted[0] in ("SINT", "UINT") and bits == wanted[1] and encoding is None and \
            numeric in _SIGNED_STORAGE | _UNSIGNED_STORAGE:
        # ui8 through UNORM/SRGB/USCALED, i8 through SNORM/SSCALED: the integers the tensor
        # holds, seen as floats scaled into [0, 1] or [-1, 1] (the only way an 8-bit
        # image is read as float); a signedness flip turns -1 into 255.
        same_sign = _SIGNED_STORAGE if wanted[0] == "SINT" else _UNSIGNED_STORAGE
        return None if numeric in same_sign else Severity.WARNING
    return Severity.ERROR


# -- the checks ---------------------------------------------------------------------------

_DIRECTIONS = (
    # direction, what the op calls them, rule for a missing one, rule for an extra one
    ("input", "operand", OPERAND_WITHOUT_INPUT, INPUT_WITHOUT_OPERAND),
    ("output", "result", RESULT_WITHOUT_OUTPUT, OUTPUT_WITHOUT_RESULT),
)


def check_context(view: AttributeView) -> Iterator[Diagnostic]:
    """The attributes against the op around them (nothing when no model is known)."""
    context = view.context
    if context is None:
        return
    yield from _check_names(context)
    yield from _check_tensor_types(context)
    yield from _check_wiring(context)
    yield from _check_return_order(context)
    for direction, noun, missing_rule, extra_rule in _DIRECTIONS:
        tensors = context.operands if direction == "input" else context.results
        if tensors is None:
            continue
        declared = {r.index: r for r in view.of_direction(direction)}
        count = len(tensors)
        for index, tensor in enumerate(tensors):
            resource = declared.get(index)
            if resource is None:
                yield missing_rule.at(
                    view.pointer(),
                    f"{noun} {index} ({tensor.text}) has no {direction}_{index}_* attributes; "
                    f"the converter reads {_range(direction, count)} for an op with {count} "
                    f"{noun}(s)",
                    hint=f"add {direction}_{index}_binding, {direction}_{index}_descriptorset, "
                         f"{direction}_{index}_vkdescriptortype and "
                         f"{direction}_{index}_vkformat")
                continue
            yield from _check_element(view, resource, noun, index, tensor)
        for index, resource in sorted(declared.items()):
            if index >= count:
                key, _ = next(iter(resource.fields.values()))
                yield extra_rule.at(
                    view.pointer(key),
                    f"`{key}` describes {noun} {index}, but the op has {count} {noun}(s)"
                    + (f" ({', '.join(t.text for t in tensors)})" if tensors else ""),
                    hint=f"remove the {resource.name}_* attributes, or check that they are "
                         "attached to the right op",
                    on_key=True)


def _check_tensor_types(context: OpContext) -> Iterator[Diagnostic]:
    """Types TOSA's verifier rejects before the converter looks at the attributes."""
    for noun, tensors in (("operand", context.operands), ("result", context.results)):
        for index, tensor in enumerate(tensors or ()):
            problem = _unsupported(tensor)
            if problem:
                yield UNSUPPORTED_TENSOR_TYPE.at(
                    "", f"{noun} {index} is {tensor.text}: {problem}; TOSA's verifier "
                        "rejects it, so the reference converter refuses the model",
                    hint="use a tensor of numbers with non-zero static or dynamic "
                         "dimensions").located(context.place("op"))


def _unsupported(tensor: TensorType) -> str | None:
    if not tensor.is_tensor:
        return "not a tensor"
    if tensor.shape and 0 in tensor.shape:
        return "it has a zero-size dimension"
    element = (tensor.element or "").strip()
    if element == "index" or element.startswith("complex"):
        return f"`{element}` is not a TOSA element type"
    return None


def _check_wiring(context: OpContext) -> Iterator[Diagnostic]:
    """How the op sits in the model: what the converter's VGF loses."""
    for index, used in enumerate(context.results_used or ()):
        if not used:
            yield UNUSED_RESULT.at(
                "", f"result {index} of the custom op is not used: the reference converter "
                    f"drops it from the VGF, so output_{index} loses its binding",
                hint="return the result from the function (or consume it), or remove it "
                     "from the op").located(context.place("op"))
    seen: dict[str, int] = {}
    for index, value in enumerate(context.operand_values or ()):
        if value in seen:
            yield REPEATED_OPERAND.at(
                "", f"operands {seen[value]} and {index} are both {value}: the reference "
                    f"converter gives one value one binding, so input_{index} loses its "
                    "binding",
                hint=f"pass a distinct value as operand {index} (e.g. a tosa.identity of "
                     f"{value}), or read it once in the shader").located(context.place("op"))
        else:
            seen[value] = index


def _range(direction: str, count: int) -> str:
    if count == 0:
        return f"no {direction}_i"
    if count == 1:
        return f"{direction}_0"
    return f"{direction}_0 .. {direction}_{count - 1}"


def _check_names(context: OpContext) -> Iterator[Diagnostic]:
    name = context.operator_name
    if name is None or not name.strip():
        # Missing: TOSA's verifier refuses the op. Empty: the converter accepts it and the
        # op runs, so it is only a warning.
        what = "has no operator_name" if name is None else \
            "has an empty operator_name (the reference converter accepts it; name the " \
            "kernel so the model and the VGF say which one it is)"
        yield MISSING_OPERATOR_NAME.at(
            "", f"the custom op {what}",
            hint="name the kernel, e.g. operator_name = \"my_kernel\"",
            severity=None if name is None else Severity.WARNING).located(
            context.place("operator_name"))
    domain = context.domain_name
    if domain is not None and domain != VULKAN_DOMAIN:
        yield NEAR_MISS_DOMAIN.at(
            "", f"domain_name is {domain!r}, which the converter does not treat as a Vulkan "
                "shader op",
            hint=f"use {VULKAN_DOMAIN!r}").located(context.place("domain_name"))


def _check_return_order(context: OpContext) -> Iterator[Diagnostic]:
    order = context.returned
    if order is None or len(order) < 2 or list(order) == sorted(order) \
            or len(set(order)) != len(order):
        return
    listed = ", ".join(f"result {k}" for k in order)
    yield RESULTS_RETURNED_SWAPPED.at(
        "", f"the function returns this op's results in the order {listed}, but the "
            "reference converter orders the VGF's outputs by the op's results "
            f"({', '.join(f'result {k}' for k in sorted(order))}): the runtime hands each "
            "returned value another result's data",
        hint="return the op's results in their own order, or reorder the op's results "
             "(its output_N attributes and result types) to the order returned").located(
        context.place("op"))


def _check_element(view: AttributeView, resource: ResourceView, noun: str, index: int,
                   tensor: TensorType) -> Iterator[Diagnostic]:
    element = storage_element(tensor.element)
    vkformat = resource.str_value("vkformat")
    if element is None or vkformat is None:
        return
    verdict = compare_element(element, vkformat)
    if verdict is None:
        return
    key = resource.key("vkformat")
    example = example_format(element, like=vkformat)
    if verdict is Severity.WARNING:
        yield ELEMENT_REINTERPRETED.at(
            resource.pointer("vkformat", view.base),
            f"{key} is {vkformat} but {noun} {index} is {tensor.text}: the same bits are read "
            f"as another kind (signed, unsigned or normalized)",
            hint=_use(example, resource) if example else None)
        return
    yield ELEMENT_FORMAT_MISMATCH.at(
        resource.pointer("vkformat", view.base),
        f"{key} is {vkformat} but {noun} {index} is {tensor.text}",
        hint=f"use {example}" if example else "use a format with the element's type and width")


def _use(example: str, resource: ResourceView) -> str:
    """``use FORMAT``; for an image, with the format qualifier the shader then declares."""
    info = vulkan.format_info(example)
    image = resource.str_value("vkdescriptortype") in (
        "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER")
    if image and info is not None and info.spirv_image_format:
        return (f"use {example} (the shader's image then declares "
                f"`{info.spirv_image_format.lower()}`)")
    return f"use {example}"


def element_conflict(view: AttributeView, resource: ResourceView, shader_name: str,
                     shader_element: str, shader_format: str | None) -> str | None:
    """When the model's tensor for ``resource`` and the shader's tensor disagree on the
    element type, the hint that says so: no vkformat can satisfy both, so "use <format>"
    (which VKS514/VKS515 or VKS415 would otherwise suggest) only moves the error."""
    found = _model_tensor(view, resource)
    if found is None or shader_format is None:
        return None
    noun, tensor = found
    element = storage_element(tensor.element)
    wanted = example_format(element) if element else None
    if wanted is None or wanted == shader_format:
        return None
    return (f"the model's {noun} {resource.index} is {tensor.text} but the shader's tensor "
            f"{shader_name!r} holds {shader_element}: no vkformat fits both; change the "
            "element type in the model or in the shader")


def _model_tensor(view: AttributeView, resource: ResourceView) -> tuple[str, TensorType] | None:
    context = view.context
    if context is None:
        return None
    noun, tensors = (("operand", context.operands) if resource.direction == "input"
                     else ("result", context.results))
    if tensors is None or resource.index >= len(tensors):
        return None
    return noun, tensors[resource.index]


def _restate_element(view: AttributeView, resource: ResourceView, noun: str,
                     tensor: TensorType, conflict: str) -> Iterator[Diagnostic]:
    """VKS514/VKS515 as _check_element words them, with the conflict as the hint."""
    for diag in _check_element(view, resource, noun, resource.index, tensor):
        yield Diagnostic(diag.code, diag.severity, diag.message, diag.pointer, conflict)


def check_context_against_shader(view: AttributeView, shader: Shader) -> list[Diagnostic]:
    """The op's tensors against the shader's reflection: tensor ranks and shapes at each
    declared binding, and (workgroup-semantics = "dispatch") whether the dispatch covers
    every result. The pipeline calls it with the op's shader (SPIR-V given in the
    attributes or compiled from source) once the shader stage has built it."""
    from ..shader.places import places_for

    context, reflection, shader_record = view.context, shader.reflection, shader
    if context is None or (context.operands is None and context.results is None) \
            or reflection is None:
        return []
    places = places_for(shader_record, view.attrs)
    found: list[Diagnostic] = []
    for direction, noun, _, _ in _DIRECTIONS:
        tensors = context.operands if direction == "input" else context.results
        for resource in view.of_direction(direction):
            if tensors is None or resource.index >= len(tensors):
                continue
            set_ = resource.int_value("descriptorset")
            binding = resource.int_value("binding")
            declared = reflection.binding(set_, binding) if set_ is not None and \
                binding is not None else None
            if declared is None or declared.resource != "tensor":
                continue
            found.extend(_check_tensor(view, resource, noun, tensors[resource.index],
                                       declared, places))
    conflicts = element_conflicts(view, shader_record)
    for resource in view.of_direction("input") + view.of_direction("output"):
        conflict = conflicts.get(resource.pointer("vkformat", view.base))
        found_tensor = _model_tensor(view, resource)
        if conflict and found_tensor:
            found.extend(_restate_element(view, resource, found_tensor[0], found_tensor[1],
                                          conflict))
    if view.options.workgroup_semantics == "dispatch" and context.results:
        from .coverage import check_coverage

        found.extend(check_coverage(view, shader_record, places))
    return found


def _declared_resources(view: AttributeView, shader: Shader
                        ) -> Iterator[tuple[ResourceView, DescriptorBinding]]:
    """In a model (the op's tensors known), each input and output with the shader's
    declaration at its binding."""
    reflection = shader.reflection
    if view.context is None or reflection is None:
        return
    for resource in view.of_direction("input") + view.of_direction("output"):
        set_, binding = resource.int_value("descriptorset"), resource.int_value("binding")
        record = reflection.binding(set_, binding) if set_ is not None and \
            binding is not None else None
        if record is not None:
            yield resource, record


def element_conflicts(view: AttributeView, shader: Shader) -> dict[str, str]:
    """{pointer of a tensor resource's vkformat: the hint} where the model's tensor and the
    shader's tensor at that binding disagree on the element type."""
    found = {}
    for resource, record in _declared_resources(view, shader):
        if record.resource != "tensor" or not record.element_type:
            continue
        conflict = element_conflict(view, resource, record.name, record.element_type,
                                    _shader_element_format(record.element_type))
        if conflict:
            found[resource.pointer("vkformat", view.base)] = conflict
    return found


def packs(word: vulkan.FormatInfo, element: vulkan.FormatInfo) -> bool:
    """Whether a shader's integer word holds a whole number of narrower elements of a
    format (the packing trick: four int8 or two float16 in a `uint`)."""
    return word.numeric in ("UINT", "SINT") and element.block_size < word.block_size \
        and word.block_size % element.block_size == 0


def packed_buffers(view: AttributeView, shader: Shader) -> dict[str, str]:
    """{pointer of a buffer resource's vkformat: what it packs} where vkformat carries the
    model's tensor and the shader reads the buffer as integer words holding a whole
    number of its elements: VKS416's "use <the word's format>" would only trade it for
    VKS514."""
    from .crosscheck import scalar_format

    found = {}
    for resource, record in _declared_resources(view, shader):
        text = resource.str_value("vkformat")
        tensor = _model_tensor(view, resource)
        if record.resource != "buffer" or not record.element_type \
                or text is None or tensor is None or tensor[1].element is None:
            continue
        word = vulkan.format_info(scalar_format(record.element_type) or "")
        info = vulkan.format_info(text)
        if word is None or info is None or compare_element(tensor[1].element, text) \
                is not None or not packs(word, info):
            continue
        found[resource.pointer("vkformat", view.base)] = (
            f"; vkformat carries the model's {tensor[0]} {resource.index} "
            f"({tensor[1].text}), {word.block_size // info.block_size} elements to each of "
            "the shader's words: right where the shader unpacks them")
    return found


def _shader_element_format(element_type: str | None) -> str | None:
    """The single-component VkFormat of a shader tensor's element type (``int8``,
    ``float16``, ``bool``), as the cross-check reads it."""
    from .crosscheck import scalar_format

    return scalar_format(element_type) if element_type else None


def _check_tensor(view, resource, noun, tensor, shader, places) -> Iterator[Diagnostic]:
    where = (f"the shader's tensor {shader.name!r} at set {shader.set}, binding "
             f"{shader.binding}")
    pointer = resource.pointer("binding", view.base)
    if tensor.rank is None or shader.tensor_rank is None:
        return
    if tensor.rank != shader.tensor_rank:
        yield RANK_MISMATCH.at(
            pointer,
            f"{resource.name} is {noun} {resource.index} of type {tensor.text} (rank "
            f"{tensor.rank}), but {where} has rank {shader.tensor_rank}",
            hint="bind a tensor of the shader's rank, or point the binding at the right "
                 "shader tensor", shader_place=places.binding(shader))
        return
    if shader.tensor_shape is None:
        return
    for axis, (have, want) in enumerate(zip(tensor.shape, shader.tensor_shape, strict=True)):
        if have is not None and want and have != want:
            shape = ", ".join(str(d) for d in shader.tensor_shape)
            yield SHAPE_MISMATCH.at(
                pointer,
                f"{resource.name} is {noun} {resource.index} of type {tensor.text}, but "
                f"{where} has shape [{shape}] (dimension {axis}: {have} vs {want})",
                shader_place=places.binding(shader))
            return
