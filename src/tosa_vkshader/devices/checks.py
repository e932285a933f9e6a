"""The device rules: one op's needs against one target profile. Pure functions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import registry
from ..diagnostics import Diagnostic
from . import rules as R
from .needs import ShaderNeeds
from .profile import DeviceProfile
from .targets import baseline_limit

_PER_STAGE = {
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER": "maxPerStageDescriptorStorageBuffers",
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER": "maxPerStageDescriptorUniformBuffers",
    "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE": "maxPerStageDescriptorStorageImages",
    "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER": "maxPerStageDescriptorStorageImages",
    "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE": "maxPerStageDescriptorSampledImages",
    "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER": "maxPerStageDescriptorSampledImages",
    "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER": "maxPerStageDescriptorSampledImages",
    "VK_DESCRIPTOR_TYPE_SAMPLER": "maxPerStageDescriptorSamplers",
}
# descriptor type -> (format-feature list, the bit it needs)
_FORMAT_USE = {
    "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE": ("optimalTilingFeatures",
                                         "VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT"),
    "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE": ("optimalTilingFeatures",
                                         "VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT"),
    "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER": ("optimalTilingFeatures",
                                                  "VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT"),
    "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER": ("bufferFeatures",
                                                "VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT"),
    "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER": ("bufferFeatures",
                                                "VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT"),
}
TENSOR_PROPERTIES = "VkPhysicalDeviceTensorPropertiesARM"


def _where(profile: DeviceProfile) -> str:
    return f"target `{profile.name}` ({profile.source})"


def _limit(profile: DeviceProfile, name: str) -> tuple[Any, str]:
    """A limit and who says so (to follow the limit's name in a message): the profile,
    else the Vulkan 1.3 minimum."""
    value = profile.limit(name)
    if value is not None:
        return value, f"of {_where(profile)}"
    return baseline_limit(name), (f"is not listed by {_where(profile)}: the Vulkan 1.3 "
                                  f"minimum applies")


# -- capabilities and extensions ---------------------------------------------------------

def _way_text(way: tuple) -> str:
    kind = way[0]
    if kind == "version":
        return f"Vulkan {way[1]}"
    if kind == "extension":
        return way[1]
    if kind == "feature":
        return f"{way[1]}.{way[2]}"
    return f"{way[1]}.{way[2]} with {way[3]}"


def _has_value(value: Any, wanted: str) -> bool:
    if isinstance(value, list):
        return wanted in value
    return value is True and wanted == "VK_TRUE"


def _enabled_by(profile: DeviceProfile, way: tuple) -> bool:
    kind = way[0]
    if kind == "version":
        return profile.has_version(way[1])
    if kind == "extension":
        return way[1] in profile.extensions
    if kind == "feature":
        return any(profile.feature(struct, member) for struct, member in way[3])
    return any(_has_value(profile.property(struct, member), way[3])
               for struct, member in way[4])


def _device_has(profile: DeviceProfile, way: tuple) -> str:
    """What the profile says about one way of enabling, for the message."""
    kind = way[0]
    if kind == "version":
        return f"API version {profile.version_text}"
    if kind == "extension":
        return f"no {way[1]}"
    equivalents = way[3] if kind == "feature" else way[4]
    for struct, member in equivalents:
        value = (profile.features if kind == "feature" else profile.properties).get(
            struct, {}).get(member)
        if value is not None:
            return f"{struct}.{member} = {str(value).lower() if value in (True, False) else value}"
    return f"{way[1]}.{way[2]} not listed"


def _enables(kind: str, name: str, ways: tuple, profile: DeviceProfile,
             pointer: str) -> Iterator[Diagnostic]:
    if any(_enabled_by(profile, way) for way in ways):
        return
    needed = " or ".join(_way_text(way) for way in ways)
    has = "; ".join(dict.fromkeys(_device_has(profile, way) for way in ways))
    first = ways[0]
    hint = None
    if first[0] == "feature":
        hint = (f"remove what needs {name} from the shader, or target a device whose "
                f"profile sets {first[2]}")
    rule = R.CAPABILITY if kind == "capability" else R.EXTENSION
    what = f"OpCapability {name}" if kind == "capability" else f'OpExtension "{name}"'
    yield rule.at(pointer, f"the shader declares {what}, which needs {needed}; "
                           f"{_where(profile)} has {has}", hint=hint, target=profile.name)


def check_capabilities(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    for name in needs.capabilities:
        ways = registry.capability_enables(name)
        if ways:  # capabilities Vulkan never allows are spirv-val's to report
            yield from _enables("capability", name, ways, profile, needs.code_pointer)
    for name in needs.extensions:
        ways = registry.extension_enables(name)
        if ways:
            yield from _enables("extension", name, ways, profile, needs.code_pointer)


# -- limits -------------------------------------------------------------------------------

def check_workgroup(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    if needs.local_size is None:
        return
    sizes, said = _limit(profile, "maxComputeWorkGroupSize")
    if isinstance(sizes, list) and len(sizes) == 3:
        for axis, (value, most) in enumerate(zip(needs.local_size, sizes, strict=True)):
            if value is not None and type(most) is int and value > most:
                yield R.LOCAL_SIZE.at(
                    needs.code_pointer,
                    f"local_size_{'xyz'[axis]} is {value} (local size {needs.local_size_text})"
                    f", but the device allows at most {most} (maxComputeWorkGroupSize"
                    f"[{axis}] {said})",
                    hint=f"use local_size_{'xyz'[axis]} <= {most} and dispatch more "
                         f"workgroups", target=profile.name)
    if all(v is not None for v in needs.local_size):
        invocations = 1
        for value in needs.local_size:
            invocations *= value or 0
        most, said = _limit(profile, "maxComputeWorkGroupInvocations")
        if type(most) is int and invocations > most:
            yield R.INVOCATIONS.at(
                needs.code_pointer,
                f"the local size {needs.local_size_text} is {invocations} invocations per "
                f"workgroup, but the device allows at most {most} "
                f"(maxComputeWorkGroupInvocations {said})",
                hint=f"keep local_size_x * local_size_y * local_size_z <= {most}",
                target=profile.name)


def check_memory(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    most, said = _limit(profile, "maxComputeSharedMemorySize")
    if needs.workgroup_memory and type(most) is int and needs.workgroup_memory > most:
        yield R.SHARED_MEMORY.at(
            needs.code_pointer,
            f"the shader's shared (Workgroup) variables take at least "
            f"{needs.workgroup_memory} bytes, but the device allows {most} "
            f"(maxComputeSharedMemorySize {said})",
            hint="use smaller tiles, or fewer shared arrays", target=profile.name)
    most, said = _limit(profile, "maxPushConstantsSize")
    if needs.push_constants and type(most) is int and needs.push_constants > most:
        yield R.PUSH_CONSTANTS.at(
            needs.push_pointer,
            f"the shader's push-constant block is {needs.push_constants} bytes, but the "
            f"device allows {most} (maxPushConstantsSize {said})",
            hint="move the larger values into a uniform or storage buffer",
            target=profile.name)


def check_dispatch(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    counts, said = _limit(profile, "maxComputeWorkGroupCount")
    if needs.dispatch is None or not (isinstance(counts, list) and len(counts) == 3):
        return
    for axis, (value, most) in enumerate(zip(needs.dispatch, counts, strict=True)):
        if type(most) is int and value > most:
            yield R.DISPATCH.at(
                f"{needs.dispatch_pointer}/{axis}",
                f"workgroup_sizes[{axis}] is {value}: dispatched as a workgroup count it "
                f"exceeds the device's {most} (maxComputeWorkGroupCount[{axis}] {said})",
                hint="spread the workgroups over the other dimensions, or make each "
                     "invocation do more", target=profile.name)


def check_descriptors(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    most, said = _limit(profile, "maxBoundDescriptorSets")
    if type(most) is int and needs.descriptor_sets > most:
        yield R.DESCRIPTORS.at(
            needs.code_pointer,
            f"the shader uses descriptor set {needs.descriptor_sets - 1} "
            f"({needs.descriptor_sets} sets), but the device binds at most {most} "
            f"(maxBoundDescriptorSets {said})",
            hint=f"use descriptor sets 0 to {most - 1}", target=profile.name)
    per_limit: dict[str, int] = {}
    for descriptor_type, count in needs.descriptors:
        limit = _PER_STAGE.get(descriptor_type)
        if limit is not None:
            per_limit[limit] = per_limit.get(limit, 0) + count
        if descriptor_type == "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER":
            key = "maxPerStageDescriptorSamplers"
            per_limit[key] = per_limit.get(key, 0) + count
    tensors = dict(needs.descriptors).get("VK_DESCRIPTOR_TYPE_TENSOR_ARM", 0)
    most = profile.properties.get(TENSOR_PROPERTIES, {}).get(
        "maxPerStageDescriptorSetStorageTensors")
    if tensors and type(most) is int and tensors > most:
        yield R.DESCRIPTORS.at(
            needs.code_pointer,
            f"the shader declares {tensors} tensor descriptors, but the device allows {most} "
            f"per stage (maxPerStageDescriptorSetStorageTensors of {_where(profile)})",
            hint="pack several tensors into one, or use fewer bindings", target=profile.name)
    for limit, count in sorted(per_limit.items()):
        most, said = _limit(profile, limit)
        if type(most) is int and count > most:
            yield R.DESCRIPTORS.at(
                needs.code_pointer,
                f"the shader declares {count} descriptors counted by {limit}, but the "
                f"device allows {most} per stage ({limit} {said})",
                hint="pack several resources into one, or use fewer bindings",
                target=profile.name)


def check_resources(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    most, said = _limit(profile, "maxStorageBufferRange")
    for res in needs.resources:
        if res.descriptor_type.startswith("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER") and \
                res.bytes is not None and type(most) is int and res.bytes > most:
            shape = "x".join(map(str, res.shape or ()))
            yield R.BUFFER_RANGE.at(
                res.pointer,
                f"{res.name} is a storage buffer of {res.bytes} bytes (shape {shape} of "
                f"{res.vkformat}), but the device's storage-buffer range is {most} bytes "
                f"(maxStorageBufferRange {said})",
                hint="split the tensor over several buffers, or bind it as a tensor",
                target=profile.name)
        use = _FORMAT_USE.get(res.descriptor_type)
        if use is None or res.vkformat is None:
            continue
        canonical = registry.canonical_format(res.vkformat)
        features = profile.format_features(canonical, use[0]) if canonical else None
        if features is not None and use[1] not in features:
            kind = "image" if use[0] == "optimalTilingFeatures" else "buffer"
            yield R.FORMAT.at(
                res.format_pointer,
                f"{res.name} is {res.descriptor_type} with {canonical}, but {_where(profile)} "
                f"lists no {use[1]} in that format's {kind} features",
                target=profile.name)


def check_tensors(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    if not needs.tensors:
        return
    if "VK_ARM_tensors" not in profile.extensions:
        if "SPV_ARM_tensors" in needs.extensions:
            return  # VKS701 already says the device lacks VK_ARM_tensors
        first = needs.tensors[0]
        yield R.TENSOR.at(first.pointer, f"{first.what} is a tensor, but {_where(profile)} "
                                         f"has no VK_ARM_tensors", target=profile.name)
        return
    props = profile.properties.get(TENSOR_PROPERTIES, {})
    for tensor in needs.tensors:
        sizes = []
        if tensor.rank is not None:
            sizes.append(("maxTensorDimensionCount", tensor.rank, f"rank {tensor.rank}"))
        if tensor.shape:
            largest = max(tensor.shape)
            sizes.append(("maxPerDimensionTensorElements", largest,
                          f"a dimension of {largest} elements"))
            elements = 1
            for d in tensor.shape:
                elements *= d
            sizes.append(("maxTensorElements", elements, f"{elements} elements"))
        for limit, value, text in sizes:
            most = props.get(limit)
            if type(most) is int and value > most:
                yield R.TENSOR.at(tensor.pointer, f"{tensor.what} has {text}, but the device "
                                                  f"allows {most} ({limit} of "
                                                  f"{_where(profile)})", target=profile.name)


CHECKS = (check_capabilities, check_workgroup, check_memory, check_dispatch,
          check_descriptors, check_resources, check_tensors)


def check_device(needs: ShaderNeeds, profile: DeviceProfile) -> list[Diagnostic]:
    """Every finding for one op on one target device."""
    return [diag for check in CHECKS for diag in check(needs, profile)]
