"""The device rules: one op's needs against one target profile. Pure functions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import vulkan
from ..diagnostics import Diagnostic
from . import rules as R
from .needs import ShaderNeeds
from .profile import DeviceProfile
from .targets import baseline_limit, mandatory_feature, minimum_property

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


def _set_by(profile: DeviceProfile, *path: str) -> str:
    """", set by block `b` of PROFILE (FILE)" when the profile knows which block set it."""
    origin = profile.origin(*path)
    return f", set by {origin}" if origin else ""


def _limit(profile: DeviceProfile, name: str) -> tuple[Any, str]:
    """A limit and who says so (to follow the limit's name in a message): the profile
    and the block that set it, else the Vulkan 1.3 minimum."""
    value = profile.limit(name)
    if value is not None:
        return value, f"of {_where(profile)}" + _set_by(
            profile, "properties", "VkPhysicalDeviceProperties", "limits", name)
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
        return any(profile.feature(struct, member) or mandatory_feature(profile, struct, member)
                   for struct, member in way[3])
    return any(_has_value(_property(profile, struct, member), way[3])
               for struct, member in way[4])


def _property(profile: DeviceProfile, struct: str, member: str) -> Any:
    """A property as the profile lists it, else its Vulkan minimum where one applies."""
    value = profile.property(struct, member)
    return value if value is not None else minimum_property(profile, struct, member)


def _device_has(profile: DeviceProfile, way: tuple) -> str:
    """What the profile says about one way of enabling, for the message."""
    kind = way[0]
    if kind == "version":
        return f"API version {profile.version_text}"
    if kind == "extension":
        return f"no {way[1]}"
    section = "features" if kind == "feature" else "properties"
    equivalents = way[3] if kind == "feature" else way[4]
    for struct, member in equivalents:
        value = getattr(profile, section).get(struct, {}).get(member)
        if value is not None:
            shown = str(value).lower() if isinstance(value, bool) else value
            return f"{struct}.{member} = {shown}" + _set_by(profile, section, struct, member)
    if kind == "property":
        for struct, member in equivalents:
            least = minimum_property(profile, struct, member)
            if least is not None:
                return (f"{struct}.{member} not listed: the Vulkan {profile.version_text} "
                        f"minimum {least} applies")
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
        ways = vulkan.capability_enables(name)
        if ways:  # capabilities Vulkan never allows are spirv-val's to report
            yield from _enables("capability", name, ways, profile, needs.code_pointer)
    for name in needs.extensions:
        ways = vulkan.extension_enables(name)
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
            f"per stage (maxPerStageDescriptorSetStorageTensors of {_where(profile)}"
            + _set_by(profile, "properties", TENSOR_PROPERTIES,
                      "maxPerStageDescriptorSetStorageTensors") + ")",
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
        canonical = vulkan.canonical_format(res.vkformat)
        if canonical is None:
            continue
        features = profile.format_features(canonical, use[0])
        if features is not None and use[1] not in features:
            kind = "image" if use[0] == "optimalTilingFeatures" else "buffer"
            yield R.FORMAT.at(
                res.format_pointer,
                f"{res.name} is {res.descriptor_type} with {canonical}, but {_where(profile)} "
                f"lists no {use[1]} in that format's {kind} features"
                + _set_by(profile, "formats", canonical),
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
                                                  f"{_where(profile)}" + _set_by(
                                                      profile, "properties",
                                                      TENSOR_PROPERTIES, limit) + ")",
                                  target=profile.name)


# -- what ML shaders use: images, the SPIR-V version, subgroups, cooperative matrices --

_IMAGE_LIMITS = {"1D": "maxImageDimension1D", "2D": "maxImageDimension2D",
                 "3D": "maxImageDimension3D", "Cube": "maxImageDimensionCube"}


def check_images(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    for image in needs.images:
        limit = _IMAGE_LIMITS[image.dim]
        most, said = _limit(profile, limit)
        if type(most) is not int or max(image.extent) <= most:
            continue
        axes = ("width", "height", "depth")
        over = ", ".join(f"{axes[i]} {v}" for i, v in enumerate(image.extent) if v > most)
        yield R.IMAGE_EXTENT.at(
            image.pointer,
            f"{image.name} is a {image.dim} image of {'x'.join(map(str, image.extent))} "
            f"texels (shape {'x'.join(map(str, image.shape))}): its {over} exceeds the "
            f"device's {most} ({limit} {said})",
            hint=f"split the image into tiles of at most {most} texels a side, or pass it "
                 f"as a buffer or tensor", target=profile.name)


# Vulkan version -> the newest SPIR-V it accepts (the Vulkan specification, "Versions
# and Formats" of the SPIR-V environment appendix)
_SPIRV_OF_VULKAN = {(1, 0): (1, 0), (1, 1): (1, 3), (1, 2): (1, 5)}


def check_spirv_version(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    if needs.spirv_version is None:
        return
    newest = _SPIRV_OF_VULKAN.get(profile.api_version[:2], (1, 6))
    if profile.api_version[:2] == (1, 1) and "VK_KHR_spirv_1_4" in profile.extensions:
        newest = (1, 4)
    if needs.spirv_version <= newest:
        return
    wanted = ".".join(map(str, needs.spirv_version))
    yield R.SPIRV_VERSION.at(
        needs.code_pointer,
        f"the shader is SPIR-V {wanted}, but {_where(profile)} is Vulkan "
        f"{profile.version_text}, which accepts SPIR-V up to {'.'.join(map(str, newest))}",
        hint=f"compile for the device: target-env = \"vulkan{profile.version_text}\" in "
             f"[tool.tosa-vkshader] (or glslc --target-env=vulkan{profile.version_text})",
        target=profile.name)


_SUBGROUP_STAGES = (("VkPhysicalDeviceVulkan11Properties", "subgroupSupportedStages"),
                    ("VkPhysicalDeviceSubgroupProperties", "supportedStages"))
_MATRIX_STAGES = (("VkPhysicalDeviceCooperativeMatrixPropertiesKHR",
                   "cooperativeMatrixSupportedStages"),)
_COMPUTE = "VK_SHADER_STAGE_COMPUTE_BIT"


def _stages_lack_compute(profile: DeviceProfile, members: tuple[tuple[str, str], ...],
                         ) -> tuple[Any, str, str] | None:
    listed = profile.strongest(members)
    if listed is None or not isinstance(listed[0], list) or _COMPUTE in listed[0] \
            or "VK_SHADER_STAGE_ALL" in listed[0]:
        return None
    return listed


def check_stages(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    """Subgroup operations and cooperative matrices in the compute stage. (Which
    operations the device has is VKS700's: each GroupNonUniform* capability needs its
    bit in subgroupSupportedOperations.)"""
    uses: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    if needs.subgroup_operations:
        uses.append(("subgroup operations (OpCapability "
                     + ", ".join(needs.subgroup_operations) + ")", _SUBGROUP_STAGES))
    if needs.matrices:
        uses.append(("cooperative matrices", _MATRIX_STAGES))
    for what, members in uses:
        lacking = _stages_lack_compute(profile, members)
        if lacking is None:
            continue
        value, struct, member = lacking
        yield R.STAGES.at(
            needs.code_pointer,
            f"the shader uses {what} in a compute shader, but {_where(profile)} has "
            f"{struct}.{member} = {value}" + _set_by(profile, "properties", struct, member)
            + f": no {_COMPUTE}", target=profile.name)


_ROLES = {"A": ("AType", "MSize", "KSize"), "B": ("BType", "KSize", "NSize"),
          "Accumulator": ("CType", "MSize", "NSize")}


def _matrix_listed(matrix, entries: tuple[dict[str, Any], ...]) -> bool:
    component, rows, columns = _ROLES.get(matrix.use, ("", "", ""))
    for entry in entries:
        types = {entry.get(component)} | ({entry.get("ResultType")}
                                          if matrix.use == "Accumulator" else set())
        if matrix.component in types and entry.get("scope", matrix.scope) == matrix.scope \
                and matrix.rows in (None, entry.get(rows)) \
                and matrix.columns in (None, entry.get(columns)):
            return True
    return False


def check_matrices(needs: ShaderNeeds, profile: DeviceProfile) -> Iterator[Diagnostic]:
    """The shader's cooperative matrix types against the combinations the profile lists
    (when it lists them: the feature itself is VKS700's)."""
    listed = profile.cooperative_matrices
    if not needs.matrices or listed is None:
        return
    for matrix in needs.matrices:
        if _matrix_listed(matrix, listed):
            continue
        offered = "; ".join(
            f"{e.get('MSize')}x{e.get('NSize')}x{e.get('KSize')} "
            f"{e.get('AType')}/{e.get('BType')}/{e.get('CType')}" for e in listed[:6])
        yield R.COOPERATIVE_MATRIX.at(
            needs.code_pointer,
            f"the shader declares {matrix.describe()}, but {_where(profile)} lists no "
            f"cooperativeMatrixProperties entry with that shape and component type "
            f"(it lists {offered or 'none'}"
            f"{', ...' if len(listed) > 6 else ''})",
            hint="use one of the listed shapes (M x N x K) and component types",
            target=profile.name)


CHECKS = (check_capabilities, check_workgroup, check_memory, check_dispatch,
          check_descriptors, check_resources, check_tensors, check_images,
          check_spirv_version, check_stages, check_matrices)


def check_device(needs: ShaderNeeds, profile: DeviceProfile) -> list[Diagnostic]:
    """Every finding for one op on one target device."""
    return [diag for check in CHECKS for diag in check(needs, profile)]
