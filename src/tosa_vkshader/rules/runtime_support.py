"""What the reference converter and runtime do with attributes the spec allows (VKS25x).

The attributes can be valid by the spec and still not survive the trip to the device:
the Arm ML SDK model converter writes the op into a VGF, and the scenario runner runs it.
Each rule here is a behaviour measured on that toolchain (0.11.0, lavapipe), shown by a
test that converts the op and reads back the VGF, or runs it.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import vulkan
from ..diagnostics import Diagnostic
from ..reference_runner import (
    NOT_RUN,
    PROVEN_TYPES,
    RUNNER_DESCRIPTOR_REFUSAL,
    scenario_sampler,
)
from ..rule_registry import rule
from ..view import AttributeView
from .resources import REGISTRY_SAMPLER_TABLES, UNSUITABLE_TYPES

PUSH_CONSTANTS_DROPPED = rule(
    "VKS250",
    summary="`push_constants` is declared, but the reference converter does not carry it "
            "into the VGF.",
    why="The VGF gets no push-constant range; whoever runs the model must supply the size "
        "and the bytes (the scenario runner's push_constants, which `tosa-vkshader run` "
        "fills), otherwise the shader reads zeros. A note, not a warning: declaring them "
        "is all the attributes can do, and an op that does so (as `new` writes it) is "
        "right.",
    bad='"push_constants": "scale: 4"   // and a runner that is not told about it',
    good='"push_constants": "scale: 4"   // runner given push_constants_size 4 and the bytes; '
         'or pass the value in a buffer',
)
UNIFORM_BUFFER_AS_STORAGE = rule(
    "VKS251",
    summary="A resource is a `VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER`: the reference runtime "
            "binds it as a storage buffer and the uniform block reads zeros.",
    why="The converter keeps descriptor type 6 in the VGF but the runtime creates storage "
        "buffers for the model's tensors; measured on lavapipe, a shader reading a uniform "
        "block got zeros.",
    bad='"input_1_vkdescriptortype": "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER"   '
        '// uniform Params { float scale; }',
    good='"input_1_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"   '
         '// readonly buffer Params { float scale; }',
)
DESCRIPTOR_TYPE_NOT_RUN = rule(
    "VKS252",
    summary="The descriptor type is accepted by the converter but the reference runtime "
            "refuses to run it (storage and uniform texel buffers, sampled images without "
            "a sampler, dynamic buffers).",
    why="The converter writes the resource into the VGF, but the scenario runner binds "
        "only tensors, storage and uniform buffers, storage images and combined image "
        "samplers: for any other type it stops before running (\"No resource validation "
        "should be performed for resources different from tensors, buffers, and images. "
        "Found descriptor type: 2\" for a VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE). The model "
        "converts and never runs; `tosa-vkshader run` refuses it for the same reason "
        "(VKS959).",
    bad='"output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER"',
    good='"output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"   '
         '// or a STORAGE_IMAGE / TENSOR_ARM',
)
DESCRIPTOR_TYPE_UNPROVEN = rule(
    "VKS253",
    summary="The descriptor type is accepted by the converter, but running it on the "
            "reference runtime is unproven.",
    why="Only storage buffers, storage images, combined image samplers and tensors "
        "(VK_DESCRIPTOR_TYPE_TENSOR_ARM) have been shown to compute right through the VGF "
        "path; other types convert, but the runtime creates its resources for those kinds, "
        "so a descriptor of another kind may be bound as something else. (Texel buffers, "
        "sampled images and dynamic buffers are shown refused: VKS252.)",
    bad='"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK"',
    good='"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"',
)
HLSL_NOT_RUN = rule(
    "VKS254",
    summary="`shader_language` is \"HLSL\": the converter accepts it, but the reference "
            "runtime cannot compile HLSL.",
    why="The converter stores the HLSL text in the VGF unchanged; the scenario runner stops "
        "with \"HLSL shaders are not supported on this platform\". Embedding the compiled "
        "SPIR-V makes the op run anywhere.",
    bad='"shader_language": "HLSL", "shader_code": "[numthreads(64, 1, 1)] void main() ..."',
    good='"shader_language": "SPIR-V", "shader_code": "AwIjBw..."   '
         '// tosa-vkshader fix op.json --embed spirv',
)

SAMPLER_NOT_HONOURED = rule(
    "VKS255",
    summary="`_sampler` asks for something the reference scenario runner cannot set up: "
            "different address modes for u and v, MIRROR_CLAMP_TO_EDGE, a cubic filter or a "
            "custom border colour.",
    why="The VGF keeps the op's sampler, and `tosa-vkshader run` hands every field to the "
        "scenario runner; but the runner's image resource has one address mode for all "
        "axes (`border_address_mode`: clamp to border, clamp to edge, repeat, mirrored "
        "repeat), nearest or linear filters and the six standard border colours. What it "
        "cannot express stays at its defaults (clamp to edge, nearest, transparent black), "
        "so the op samples differently than declared.",
    bad='"input_0_sampler": {..., "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_REPEAT", '
        '"address_mode_v": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE", ...}',
    good='"input_0_sampler": {..., "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_REPEAT", '
         '"address_mode_v": "VK_SAMPLER_ADDRESS_MODE_REPEAT", ...}',
)
def check_runtime(view: AttributeView) -> Iterator[Diagnostic]:
    yield from _push_constants(view)
    yield from _descriptor_types(view)
    yield from _samplers(view)
    yield from _hlsl(view)


def _push_constants(view: AttributeView) -> Iterator[Diagnostic]:
    text = view.attrs.get("push_constants")
    if not isinstance(text, str) or not text.strip():
        return
    yield PUSH_CONSTANTS_DROPPED.at(
        view.pointer("push_constants"),
        f"push_constants {text.strip()!r} is not written into the VGF by the reference "
        "converter: the shader reads zeros unless the runner is given the push-constant "
        "size and bytes (`tosa-vkshader run` gives them)",
        hint="make sure whatever runs the model supplies the push constants, or pass the "
             "values in a buffer operand")


def _descriptor_types(view: AttributeView) -> Iterator[Diagnostic]:
    for resource in view.in_order():
        text = resource.str_value("vkdescriptortype")
        # Only canonical names: an alias or an unknown name is reported by the value rules
        # (the converter does not map them at all).
        if text is None or text in PROVEN_TYPES \
                or vulkan.canonical_descriptor_type(text) != text:
            continue  # (most resources: a proven type, nothing to say)
        pointer = resource.pointer("vkdescriptortype", view.base)
        key = resource.key("vkdescriptortype")
        if text == "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER":
            yield UNIFORM_BUFFER_AS_STORAGE.at(
                pointer,
                f"`{key}` is {text}: the reference runtime binds {resource.name} as a storage "
                "buffer, so the shader's uniform block reads zeros",
                hint="declare the block as `readonly buffer` (std430) in the shader and use "
                     "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER")
        elif text in NOT_RUN:
            yield DESCRIPTOR_TYPE_NOT_RUN.at(
                pointer,
                f"`{key}` is {text}: the converter writes it into the VGF, but "
                f"{RUNNER_DESCRIPTOR_REFUSAL}, so the op never runs",
                hint=NOT_RUN[text])
        elif text not in PROVEN_TYPES and text not in UNSUITABLE_TYPES:
            yield DESCRIPTOR_TYPE_UNPROVEN.at(
                pointer,
                f"`{key}` is {text}: the converter accepts it, but running it on the "
                "reference runtime is unproven (proven: storage buffers, storage images, "
                "combined image samplers, tensors)")


def _samplers(view: AttributeView) -> Iterator[Diagnostic]:
    for resource in view.in_order():
        if resource.str_value("vkdescriptortype") != "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER":
            continue
        sampler = view.attrs.get(resource.key("sampler"))
        if not isinstance(sampler, dict) or not _well_formed(sampler):
            continue  # (an incomplete or misspelt sampler is VKS231's)
        _settings, problems = scenario_sampler(sampler)
        if problems:
            yield SAMPLER_NOT_HONOURED.at(
                resource.pointer("sampler", view.base),
                f"`{resource.key('sampler')}`: the reference scenario runner cannot "
                f"honour {'; '.join(problems)}; `tosa-vkshader run` leaves those to the "
                "runner's defaults (clamp to edge, nearest, transparent black)")


def _well_formed(sampler: dict[str, object]) -> bool:
    """Every field of a sampler given, each a Vulkan name of its kind (the converter maps
    aliases such as VK_FILTER_CUBIC_IMG too)."""
    for field, table in REGISTRY_SAMPLER_TABLES.items():
        value = sampler.get(field)
        if not isinstance(value, str) or value not in getattr(vulkan.tables, table):
            return False
    return True


def _hlsl(view: AttributeView) -> Iterator[Diagnostic]:
    code = view.attrs.get("shader_code")
    if view.attrs.get("shader_language") != "HLSL" or not isinstance(code, str) or not code:
        return
    yield HLSL_NOT_RUN.at(
        view.pointer("shader_language"),
        "shader_language is \"HLSL\": the converter stores the text in the VGF, but the "
        "reference runtime cannot compile HLSL (\"HLSL shaders are not supported on this "
        "platform\")",
        hint="embed the compiled SPIR-V: tosa-vkshader fix FILE --embed spirv")
