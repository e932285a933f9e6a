"""Input and output resources: completeness, numbering, bindings, Vulkan names (VKS22x)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache

from .. import vulkan
from ..attribute_values import SAMPLER_FIELDS
from ..diagnostics import Applicability, Diagnostic, Fix, Severity, rename_key, replace_value
from ..keys import REQUIRED_RESOURCE_FIELDS
from ..rule_registry import rule
from ..view import AttributeView, ResourceView
from .value_types import describe

MAX_UINT32 = 2**32 - 1
DESCRIPTOR_TYPE_PATTERN = re.compile(r"VK_DESCRIPTOR_TYPE_[A-Z0-9_]+")

TENSOR_TYPES = {"VK_DESCRIPTOR_TYPE_TENSOR_ARM"}
IMAGE_TYPES = {
    "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
    "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE",
    "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER",
    "VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT",
    "VK_DESCRIPTOR_TYPE_SAMPLE_WEIGHT_IMAGE_QCOM",
    "VK_DESCRIPTOR_TYPE_BLOCK_MATCH_IMAGE_QCOM",
}
BUFFER_TYPES = {
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC",
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER",
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC",
    "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER",
    "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
    "VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK",
}
RESOURCE_KINDS = {"tensor": "Tensor", "image": "Image", "buffer": "Buffer"}
KIND_OF_DESCRIPTOR = {
    **{t: "Tensor" for t in TENSOR_TYPES},
    **{t: "Image" for t in IMAGE_TYPES},
    **{t: "Buffer" for t in BUFFER_TYPES},
}
SAMPLED_TYPES = {
    "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER",
    "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE",
    "VK_DESCRIPTOR_TYPE_SAMPLER",
}
STORAGE_FORMAT_TYPES = {
    "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
    "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
}
# Descriptor types that cannot carry an op's operand or result in a compute dispatch.
UNSUITABLE_TYPES = {
    "VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT": (
        Severity.ERROR, "input attachments exist only in fragment shaders"),
    "VK_DESCRIPTOR_TYPE_SAMPLER": (Severity.WARNING, "a sampler holds no tensor data"),
    "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR": (
        Severity.WARNING, "an acceleration structure holds no tensor data"),
    "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_NV": (
        Severity.WARNING, "an acceleration structure holds no tensor data"),
    "VK_DESCRIPTOR_TYPE_PARTITIONED_ACCELERATION_STRUCTURE_NV": (
        Severity.WARNING, "an acceleration structure holds no tensor data"),
    "VK_DESCRIPTOR_TYPE_MUTABLE_EXT": (
        Severity.WARNING, "a mutable descriptor has no fixed type the converter can create"),
}
REGISTRY_SAMPLER_TABLES = {
    "min_filter": "FILTERS", "mag_filter": "FILTERS", "address_mode_u": "ADDRESS_MODES",
    "address_mode_v": "ADDRESS_MODES", "border_color": "BORDER_COLORS",
}

INCOMPLETE_RESOURCE = rule(
    "VKS220",
    summary="A resource index lacks one of binding, descriptorset, vkdescriptortype, "
            "vkformat.",
    why="The reference converter reads all four for every operand and result index and "
        "refuses the op when one is missing (\"Missing input attribute(s) or invalid "
        "value\").",
    bad='{"input_0_binding": 0, "input_0_descriptorset": 0}',
    good='{"input_0_binding": 0, "input_0_descriptorset": 0,\n'
         ' "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",\n'
         ' "input_0_vkformat": "VK_FORMAT_R32_SFLOAT"}',
)
NON_CONTIGUOUS = rule(
    "VKS221",
    summary="Resource indices of one direction do not run 0, 1, 2, ... without gaps.",
    why="Index i describes the op's i-th operand (or result); the converter reads indices "
        "0..n-1, so a gap leaves a tensor without a binding and a stray index is never "
        "read.",
    bad='{"input_0_binding": 0, "input_2_binding": 1, ...}',
    good='{"input_0_binding": 0, "input_1_binding": 1, ...}',
)
BINDING_COLLISION = rule(
    "VKS222",
    summary="Two resources use the same (descriptorset, binding).",
    why="One descriptor slot holds one resource: two tensors on the same slot means one of "
        "them is never seen by the shader.",
    bad='{"input_0_binding": 0, "output_0_binding": 0, (both in set 0)}',
    good='{"input_0_binding": 0, "output_0_binding": 1}',
)
BINDING_RANGE = rule(
    "VKS223",
    summary="A binding or descriptor set is negative or beyond 32 bits.",
    why="Vulkan bindings and set indices are uint32_t.",
    bad='{"input_0_binding": -1}',
    good='{"input_0_binding": 0}',
)
MALFORMED_DESCRIPTOR_TYPE = rule(
    "VKS224",
    summary="`_vkdescriptortype` does not match `VK_DESCRIPTOR_TYPE_[A-Z0-9_]+`.",
    why="The spec requires Vulkan's own enumerant names; short forms such as "
        "`storage_buffer` are not understood by the converter.",
    bad='{"input_0_vkdescriptortype": "storage_buffer"}',
    good='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}',
)
UNKNOWN_DESCRIPTOR_TYPE = rule(
    "VKS225",
    summary="`_vkdescriptortype` is well formed but not a VkDescriptorType in the Vulkan "
            "registry.",
    why="The name must map to a real enumerant; the spec's own example "
        "`VK_DESCRIPTOR_TYPE_STORAGE_TENSOR_EXT` does not exist (tensors use "
        "VK_DESCRIPTOR_TYPE_TENSOR_ARM from VK_ARM_tensors).",
    bad='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_TENSOR_EXT"}',
    good='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_TENSOR_ARM"}',
)
UNKNOWN_FORMAT = rule(
    "VKS226",
    summary="`_vkformat` is not a VkFormat in the Vulkan registry.",
    why="The converter maps the name to a VkFormat; an unknown or misspelled name is "
        "refused.",
    bad='{"input_0_vkformat": "VK_FORMAT_R32_FLOAT"}',
    good='{"input_0_vkformat": "VK_FORMAT_R32_SFLOAT"}',
)
INVALID_RESOURCE_TYPE = rule(
    "VKS227",
    summary='`_type` is not "Tensor", "Image" or "Buffer".',
    why="The spec names Tensor, Image and Buffer. The reference converter never reads "
        "`_type` (the descriptor type decides), so the op still converts and runs; other "
        "tools that read `_type` will not understand the word.",
    bad='{"input_0_type": "Texture"}',
    good='{"input_0_type": "Image"}',
)
RESOURCE_TYPE_CASE = rule(
    "VKS228",
    summary='`_type` is written in a non-canonical case ("TENSOR", "buffer").',
    why="Real payloads mix \"Tensor\" and \"TENSOR\"; consumers that compare exactly will "
        "miss the non-canonical spelling.",
    bad='{"input_0_type": "TENSOR"}',
    good='{"input_0_type": "Tensor"}',
)
RESOURCE_TYPE_MISMATCH = rule(
    "VKS229",
    summary="`_type` contradicts `_vkdescriptortype` (an Image bound as a storage buffer).",
    why="The reference converter never reads `_type`: the descriptor type decides how the "
        "resource is bound (its own tests write \"TENSOR\" on storage buffers), so the op "
        "runs. The contradiction still misleads readers and tools that trust `_type`.",
    bad='{"input_0_type": "Image", "input_0_vkdescriptortype": '
        '"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}',
    good='{"input_0_type": "Buffer", "input_0_vkdescriptortype": '
         '"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}',
)
SAMPLER_NOT_ALLOWED = rule(
    "VKS230",
    summary="`_sampler` is given for a descriptor type that is not sampled.",
    why="Only sampled images (and samplers) use sampler state. The reference converter "
        "accepts the sampler and nothing uses it; on a storage buffer or tensor it usually "
        "means the descriptor type or the sampler is wrong.",
    bad='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", '
        '"input_0_sampler": {...}}',
    good='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER", '
         '"input_0_sampler": {...}}',
)
BAD_SAMPLER = rule(
    "VKS231",
    summary="`_sampler` lacks a field, has an unknown field, or a value that is not a "
            "valid Vulkan enumerant.",
    why="All five fields (min_filter, mag_filter, address_mode_u, address_mode_v, "
        "border_color) are required when a sampler is given, each one of the Vulkan "
        "enumerant names the spec's schema lists, and no other field: the converter "
        "silently leaves a field it cannot map unset. Registry names the converter maps "
        "but the schema does not list (VK_FILTER_CUBIC_EXT, "
        "..._MIRROR_CLAMP_TO_EDGE_KHR) and fields the converter ignores are errors too: "
        "the spec's schema refuses the op, and the message says what the converter does.",
    bad='{"input_0_sampler": {"min_filter": "LINEAR"}}',
    good='{"input_0_sampler": {"min_filter": "VK_FILTER_LINEAR", "mag_filter": '
         '"VK_FILTER_LINEAR", "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE", '
         '"address_mode_v": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE", "border_color": '
         '"VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK"}}',
)
FORMAT_DESCRIPTOR_MISMATCH = rule(
    "VKS232",
    summary="The format cannot be used with the descriptor type.",
    why="Tensors (VK_ARM_tensors) use single-component formats; storage images and storage "
        "texel buffers need a format with a SPIR-V image format; buffers and tensors cannot "
        "hold compressed, multi-planar or depth/stencil formats.",
    bad='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_TENSOR_ARM", '
        '"input_0_vkformat": "VK_FORMAT_R8G8B8A8_SINT"}',
    good='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_TENSOR_ARM", '
         '"input_0_vkformat": "VK_FORMAT_R8_SINT"}',
)
REGISTRY_ALIAS = rule(
    "VKS240",
    summary="`_vkformat` or `_vkdescriptortype` is a registry alias (`VK_FORMAT_A8_UNORM_KHR`, "
            "`..._INLINE_UNIFORM_BLOCK_EXT`, `..._MUTABLE_VALVE`) instead of the canonical "
            "name.",
    why="The Vulkan registry keeps old names as aliases of the promoted enumerant, but the "
        "reference converter's lookup tables hold only canonical names: it writes an alias "
        "into the VGF as format -1 or descriptor type \"none\" without an error, and the "
        "runtime cannot create the resource.",
    bad='{"input_0_vkformat": "VK_FORMAT_A8_UNORM_KHR"}',
    good='{"input_0_vkformat": "VK_FORMAT_A8_UNORM"}',
)
UNSUITABLE_DESCRIPTOR = rule(
    "VKS233",
    summary="The descriptor type cannot carry an operand or result of a compute dispatch.",
    why="Input attachments exist only in fragment shaders; samplers, acceleration "
        "structures and mutable descriptors hold no tensor data.",
    bad='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT"}',
    good='{"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE"}',
)


def check_resources(view: AttributeView) -> Iterator[Diagnostic]:
    for resource in view.in_order():
        yield from _completeness(view, resource)
        yield from _bindings_in_range(view, resource)
        descriptor = yield from _descriptor_type(view, resource)
        fmt = yield from _format(view, resource)
        yield from _resource_type(view, resource, descriptor)
        yield from _sampler(view, resource, descriptor)
        if descriptor and fmt:
            yield from _format_with_descriptor(view, resource, descriptor, fmt)
    yield from _contiguity(view)
    yield from binding_collisions(view)


def _completeness(view: AttributeView, resource: ResourceView) -> Iterator[Diagnostic]:
    missing = [f for f in REQUIRED_RESOURCE_FIELDS
               if f not in resource.fields and f not in resource.misspelled]
    if missing:
        keys = ", ".join(f"`{resource.name}_{f}`" for f in missing)
        # (no hint: the values to add are the shader's, which the cross-check names)
        yield INCOMPLETE_RESOURCE.at(view.base, f"{resource.name} is missing {keys}")


def _bindings_in_range(view: AttributeView, resource: ResourceView) -> Iterator[Diagnostic]:
    for field in ("binding", "descriptorset"):
        value = resource.value(field)
        if type(value) is int and not 0 <= value <= MAX_UINT32:
            yield BINDING_RANGE.at(resource.pointer(field, view.base),
                                   f"`{resource.key(field)}` is {value}; it must be between 0 "
                                   f"and {MAX_UINT32}")


def _descriptor_type(view: AttributeView, resource: ResourceView):
    value = resource.str_value("vkdescriptortype")
    if value is None:
        return None
    canonical = vulkan.canonical_descriptor_type(value)
    if canonical == value and canonical not in UNSUITABLE_TYPES:
        return canonical  # (most resources: nothing to say)
    pointer = resource.pointer("vkdescriptortype", view.base)
    key = resource.key("vkdescriptortype")
    if canonical is not None and canonical != value:
        yield _alias(key, pointer, value, canonical, "descriptor type \"none\"")
    if canonical is not None and canonical not in UNSUITABLE_TYPES:
        return canonical
    if canonical is None:
        guess = _guess_descriptor_type(value)
        hint = f"did you mean `{guess}`?" if guess else None
        fix = _guessed(key, pointer, value, guess)
        if not DESCRIPTOR_TYPE_PATTERN.fullmatch(value):
            yield MALFORMED_DESCRIPTOR_TYPE.at(
                pointer, f"`{key}` {describe(value)} is not a Vulkan descriptor type name "
                "(VK_DESCRIPTOR_TYPE_...)", hint=hint, fix=fix)
        else:
            yield UNKNOWN_DESCRIPTOR_TYPE.at(
                pointer, f"`{key}` {describe(value)} is not in the Vulkan registry "
                f"({vulkan.REGISTRY_VERSION})", hint=hint, fix=fix)
        return None
    unsuitable = UNSUITABLE_TYPES.get(canonical)
    if unsuitable:
        severity, reason = unsuitable
        yield UNSUITABLE_DESCRIPTOR.at(pointer, f"`{key}` is {value}: {reason}",
                                       severity=severity)
    return canonical


@lru_cache(maxsize=512)
def _guess_descriptor_type(value: str) -> str | None:
    text = value.strip().upper().replace(" ", "_").replace("-", "_")
    if "TENSOR" in text:
        return "VK_DESCRIPTOR_TYPE_TENSOR_ARM"
    if not text.startswith("VK_DESCRIPTOR_TYPE_"):
        text = "VK_DESCRIPTOR_TYPE_" + text.removeprefix("DESCRIPTOR_TYPE_")
    if vulkan.canonical_descriptor_type(text):
        return text
    return vulkan.closest(text, vulkan.descriptor_type_names(), cutoff=0.8)


def _format(view: AttributeView, resource: ResourceView):
    value = resource.str_value("vkformat")
    if value is None:
        return None
    info = vulkan.format_info(value)
    if info is not None and info.name != value:
        yield _alias(resource.key("vkformat"), resource.pointer("vkformat", view.base), value,
                     info.name, "format -1")
    if info is None:
        guess = _guess_format(value)
        yield UNKNOWN_FORMAT.at(
            resource.pointer("vkformat", view.base),
            f"`{resource.key('vkformat')}` {describe(value)} is not a VkFormat in the "
            f"Vulkan registry ({vulkan.REGISTRY_VERSION})",
            hint=f"did you mean `{guess}`?" if guess else None,
            fix=_guessed(resource.key("vkformat"), resource.pointer("vkformat", view.base),
                         value, guess))
    return info


def _alias(key: str, pointer: str, value: str, canonical: str, written: str) -> Diagnostic:
    return REGISTRY_ALIAS.at(
        pointer, f"`{key}` is {value}, a registry alias of {canonical}: the reference "
        f"converter knows only canonical names and writes {written} into the VGF",
        hint=f"write `{canonical}`",
        # (the same enumerant under the name the converter knows: nothing else changes)
        fix=replace_value(pointer, canonical, title=f"`{key}`: {value} written {canonical}"))


def _guessed(key: str, pointer: str, value: str, guess: str | None) -> Fix | None:
    """The fix that writes the name a misspelled one most resembles: a guess, so applied
    only with `fix --unsafe-fixes`."""
    if guess is None:
        return None
    return replace_value(pointer, guess, title=f"`{key}`: {value!r} replaced by {guess}",
                         applicability=Applicability.UNSAFE)


@lru_cache(maxsize=512)
def _guess_format(value: str) -> str | None:
    text = value.strip().upper()
    if not text.startswith("VK_FORMAT_"):
        text = "VK_FORMAT_" + text
    if vulkan.canonical_format(text):
        return text
    return vulkan.closest(text, vulkan.format_names(), cutoff=0.8)


def _resource_type(view: AttributeView, resource: ResourceView,
                   descriptor: str | None) -> Iterator[Diagnostic]:
    value = resource.str_value("type")
    if value is None:
        return
    canonical = RESOURCE_KINDS.get(value.strip().lower())
    expected = KIND_OF_DESCRIPTOR.get(descriptor) if descriptor else None
    if value == canonical and expected in (None, canonical):
        return
    pointer = resource.pointer("type", view.base)
    key = resource.key("type")
    # What the descriptor type binds: right for the converter, which ignores `_type`; but
    # which of the two was meant is a guess, so its fix is applied only when asked for.
    bound = replace_value(pointer, expected, title=f"`{key}`: {value!r} replaced by "
                          f"{expected!r} (what {descriptor} binds)",
                          applicability=Applicability.UNSAFE) if expected else None
    if canonical is None:
        yield INVALID_RESOURCE_TYPE.at(
            pointer, f'`{key}` {describe(value)} is not "Tensor", "Image" or "Buffer" (the '
            "reference converter ignores `_type`; other readers will not understand it)",
            hint=f'use "{expected}" for {descriptor}' if expected else None, fix=bound)
        return
    if value != canonical:
        yield RESOURCE_TYPE_CASE.at(pointer, f'`{key}` is "{value}"; the canonical spelling '
                                    f'is "{canonical}"', hint=f'write "{canonical}"',
                                    fix=replace_value(pointer, canonical, title=f"`{key}`: "
                                                      f"{value!r} written {canonical!r}"))
    if expected and expected != canonical:
        yield RESOURCE_TYPE_MISMATCH.at(
            pointer, f'`{key}` is "{value}" but `{resource.key("vkdescriptortype")}` is '
            f"{descriptor}, which binds a {expected.lower()} (the reference converter ignores "
            "`_type` and binds by the descriptor type)",
            hint=f'use "{expected}"', fix=bound)


def _sampler(view: AttributeView, resource: ResourceView,
             descriptor: str | None) -> Iterator[Diagnostic]:
    sampler = resource.value("sampler")
    if not isinstance(sampler, dict):
        return
    pointer = resource.pointer("sampler", view.base)
    key = resource.key("sampler")
    if descriptor and descriptor not in SAMPLED_TYPES:
        yield SAMPLER_NOT_ALLOWED.at(
            pointer, f"`{key}` is given but {resource.name} is a {descriptor}, which is not "
            "sampled; nothing uses the sampler", hint="remove the sampler, or use "
            "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER", on_key=True)
    missing = [f for f in SAMPLER_FIELDS if f not in sampler]
    if missing:
        yield BAD_SAMPLER.at(pointer, f"`{key}` is missing {', '.join(missing)}; a sampler "
                             f"needs all of {', '.join(SAMPLER_FIELDS)}")
    for field, value in sampler.items():
        field_pointer = f"{pointer}/{field}"
        allowed = SAMPLER_FIELDS.get(field)
        if allowed is None:
            close = vulkan.closest(field, SAMPLER_FIELDS, cutoff=0.7)
            yield BAD_SAMPLER.at(field_pointer, f"`{key}` has unknown field `{field}`: the "
                                 "spec's schema allows only the five sampler fields (the "
                                 "reference converter ignores others)",
                                 hint=f"did you mean `{close}`?" if close else
                                 "remove it; the fields are " + ", ".join(SAMPLER_FIELDS),
                                 on_key=True,
                                 fix=rename_key(field_pointer, close,
                                                applicability=Applicability.UNSAFE)
                                 if close and close not in sampler else None)
            continue
        if value in allowed:
            continue
        table = getattr(vulkan.tables, REGISTRY_SAMPLER_TABLES[field])
        canonical = table.get(value) if isinstance(value, str) else None
        if canonical is not None:
            # A registry name the converter maps, outside the reference schema's enum.
            listed = next((a for a in allowed if table.get(a) == canonical), None)
            yield BAD_SAMPLER.at(
                field_pointer, f'`{key}.{field}` is "{value}", which the spec\'s schema does '
                f"not list, so it refuses the op (the reference converter maps it, to "
                f"{canonical})",
                hint=f"write `{listed}` (the same enumerant, listed by the schema)"
                if listed else "one of " + ", ".join(allowed),
                fix=replace_value(field_pointer, listed, title=f"`{key}.{field}`: {value} "
                                  f"written {listed}") if listed else None)
            continue
        guess = None
        if isinstance(value, str) and value.strip():
            suffix = "_" + value.strip().upper()
            guess = next((a for a in allowed if a.endswith(suffix)), None) or \
                vulkan.closest(value, allowed, cutoff=0.6)
        hint = f"did you mean `{guess}`?" if guess else "one of " + ", ".join(allowed)
        yield BAD_SAMPLER.at(field_pointer, f"`{key}.{field}` is {describe(value)}, not a "
                             "Vulkan name for it: the reference converter leaves the field "
                             "unset, so the runtime samples with a default instead",
                             hint=hint, fix=_guessed(f"{key}.{field}", field_pointer,
                                                     value, guess)
                             if isinstance(value, str) else None)


def _format_with_descriptor(view: AttributeView, resource: ResourceView, descriptor: str,
                            fmt: vulkan.FormatInfo) -> Iterator[Diagnostic]:
    problem = hint = None
    if descriptor in TENSOR_TYPES:
        if not (fmt.is_single_component and fmt.is_plain and fmt.packed is None):
            problem = f"{fmt.name} is not a single-component format, which tensors need"
            component = fmt.components[0] if fmt.components else None
            if component and isinstance(component.bits, int):
                hint = (f"use VK_FORMAT_R{component.bits}_{component.numeric} and put the "
                        "channels in the tensor's shape")
    elif descriptor in STORAGE_FORMAT_TYPES:
        if fmt.spirv_image_format is None and not _storable_without_format(fmt, descriptor):
            problem = (f"{fmt.name} has no SPIR-V image format, so it cannot be used as a "
                       f"{descriptor.removeprefix('VK_DESCRIPTOR_TYPE_').lower()}")
            storable = _storable_twin(fmt)
            hint = f"use {storable}" if storable else None
    elif descriptor in BUFFER_TYPES and not fmt.is_plain:
        problem = f"{fmt.name} is compressed, multi-planar or depth/stencil; a buffer holds " \
                  "plain elements"
    if problem:
        yield FORMAT_DESCRIPTOR_MISMATCH.at(
            resource.pointer("vkformat", view.base),
            f"`{resource.key('vkformat')}`: {problem} (descriptor type {descriptor})", hint=hint)


def _storable_without_format(fmt: vulkan.FormatInfo, descriptor: str) -> bool:
    """A storage image the shader declares without a format qualifier (Unknown) takes any
    plain one-, two- or four-component format the device can store
    (shaderStorageImageReadWithoutFormat / WriteWithoutFormat): VK_FORMAT_B8G8R8A8_UNORM
    has no SPIR-V image format and is such a format."""
    return (descriptor == "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE" and fmt.is_plain
            and fmt.packed is None and fmt.numeric in ("UNORM", "SNORM", "UINT", "SINT",
                                                       "SFLOAT")
            and len(fmt.components) in (1, 2, 4))


def _storable_twin(fmt: vulkan.FormatInfo) -> str | None:
    """The format a storage image or texel buffer can use instead of ``fmt``: the same
    component width and numeric type, the fewest components from ``fmt``'s up that have a
    SPIR-V image format (RGB has none: VK_FORMAT_R8G8B8_UNORM -> VK_FORMAT_R8G8B8A8_UNORM)."""
    if not fmt.is_plain or fmt.packed is not None or fmt.numeric is None:
        return None
    widths = {c.bits for c in fmt.components}
    if len(widths) != 1:
        return None
    bits = widths.pop()
    for channels in ("R", "RG", "RGBA"):
        if len(channels) < len(fmt.components):
            continue
        name = "VK_FORMAT_" + "".join(f"{c}{bits}" for c in channels) + f"_{fmt.numeric}"
        info = vulkan.format_info(name)
        if info is not None and info.spirv_image_format is not None:
            return name
    return None


# A message lists at most this many missing ranges (and as many indices): an 80-byte file
# can claim `input_99999999999_binding`, and no rule may loop or allocate by that number.
MAX_LISTED = 5


def _contiguity(view: AttributeView) -> Iterator[Diagnostic]:
    for direction in ("input", "output"):
        indices = [r.index for r in view.of_direction(direction)]
        gaps = missing_ranges(indices)
        if not gaps:
            continue
        missing = sum(last - first + 1 for first, last in gaps)
        listed = ", ".join(_describe_range(direction, first, last)
                           for first, last in gaps[:MAX_LISTED])
        if len(gaps) > MAX_LISTED:
            listed += f" and {len(gaps) - MAX_LISTED} more ranges"
        present = ", ".join(str(i) for i in indices[:MAX_LISTED])
        if len(indices) > MAX_LISTED:
            present += f", ... ({len(indices)} in all)"
        tensors = "operand" if direction == "input" else "result"
        yield NON_CONTIGUOUS.at(
            view.base, f"{direction} indices are [{present}]: {listed} "
            f"{'is' if missing == 1 else 'are'} missing ({direction}_i describes the op's "
            f"{tensors} i, so they run 0, 1, 2, ... without gaps)",
            hint=_renumber_hint(direction, indices))


def _renumber_hint(direction: str, indices: list[int]) -> str:
    tensors = "operand" if direction == "input" else "result"
    if len(indices) == 1:
        return (f"rename the {direction}_{indices[0]}_* keys to {direction}_0_* (the op's "
                f"first {tensors})")
    return (f"renumber the {direction}s {direction}_0 .. {direction}_{len(indices) - 1} in "
            f"the order of the op's {tensors}s, or add the missing ones if the op has more "
            f"{tensors}s")


def missing_ranges(indices: list[int]) -> list[tuple[int, int]]:
    """The gaps in sorted, distinct indices as (first, last) pairs, from 0 on.

    Costs one step per index present, whatever their values.
    """
    gaps = []
    expected = 0
    for index in indices:
        if index > expected:
            gaps.append((expected, index - 1))
        expected = index + 1
    return gaps


def _describe_range(direction: str, first: int, last: int) -> str:
    if first == last:
        return f"{direction}_{first}"
    if last == first + 1:
        return f"{direction}_{first}, {direction}_{last}"
    return f"{direction}_{first} … {direction}_{last}"


def binding_collisions(view: AttributeView) -> Iterator[Diagnostic]:
    slots: dict[tuple[int, int], list[ResourceView]] = defaultdict(list)
    for resource in view.in_order():
        binding, dset = resource.int_value("binding"), resource.int_value("descriptorset")
        if binding is not None and dset is not None:
            slots[(dset, binding)].append(resource)
    for (dset, binding), users in sorted(slots.items()):
        for other in users[1:]:
            yield BINDING_COLLISION.at(
                other.pointer("binding", view.base),
                f"{other.name} uses set {dset}, binding {binding}, already used by "
                f"{users[0].name} (the converter does not check; at run time the shader "
                "sees only one of them)",
                hint=f"give {other.name} a free binding, e.g. "
                     f"{max(b for (s, b) in slots if s == dset) + 1}")
