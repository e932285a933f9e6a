"""What the reference scenario runner (Arm ML SDK 0.11.0) can set up, measured on
lavapipe: the descriptor types it binds, and the sampler settings its image resources
can express. Shared by ``check`` (rules/runtime.py: VKS252, VKS255) and ``run`` (which
refuses the same descriptor types, VKS959, and writes the same sampler settings into
the scenario), so that both say the same thing; a module of its own so that `run`
reads it without loading the rules.
"""

from __future__ import annotations

from collections.abc import Mapping

# The runner's own words for the descriptor types it refuses (VKS252 and run's VKS959).
RUNNER_DESCRIPTOR_REFUSAL = ("the scenario runner binds only tensors, storage and uniform "
                             "buffers, storage images and combined image samplers, and "
                             "stops on any other descriptor type (\"No resource validation "
                             "should be performed for resources different from tensors, "
                             "buffers, and images\")")


# The scenario's sampler settings for the op's (the runner's own vocabulary).
SCENARIO_FILTERS = {"VK_FILTER_NEAREST": "NEAREST", "VK_FILTER_LINEAR": "LINEAR"}
SCENARIO_ADDRESS_MODES = {
    "VK_SAMPLER_ADDRESS_MODE_REPEAT": "REPEAT",
    "VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT": "MIRRORED_REPEAT",
    "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE": "CLAMP_EDGE",
    "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER": "CLAMP_BORDER",
}
SCENARIO_BORDER_COLORS = {f"VK_BORDER_COLOR_{name}": name for name in (
    "FLOAT_TRANSPARENT_BLACK", "INT_TRANSPARENT_BLACK", "FLOAT_OPAQUE_BLACK",
    "INT_OPAQUE_BLACK", "FLOAT_OPAQUE_WHITE", "INT_OPAQUE_WHITE")}


def scenario_sampler(sampler: Mapping[str, object]) -> tuple[dict[str, str], list[str]]:
    """The scenario runner's image settings for an op's sampler object, and what of it
    the runner cannot honour (one phrase each)."""
    settings: dict[str, str] = {}
    problems: list[str] = []
    for field in ("min_filter", "mag_filter"):
        value = sampler.get(field)
        if isinstance(value, str):
            if value in SCENARIO_FILTERS:
                settings[field] = SCENARIO_FILTERS[value]
            else:
                problems.append(f"{field} {value} (the runner filters NEAREST or LINEAR)")
    modes = {sampler.get(f) for f in ("address_mode_u", "address_mode_v")}
    modes.discard(None)
    if len(modes) > 1:
        problems.append(f"address_mode_u {sampler.get('address_mode_u')} and address_mode_v "
                        f"{sampler.get('address_mode_v')} differ (the runner has one "
                        "address mode for every axis)")
    elif modes:
        mode = modes.pop()
        if isinstance(mode, str) and mode in SCENARIO_ADDRESS_MODES:
            settings["border_address_mode"] = SCENARIO_ADDRESS_MODES[mode]
        elif isinstance(mode, str):
            problems.append(f"address mode {mode} (the runner has "
                            f"{', '.join(SCENARIO_ADDRESS_MODES)})")
    color = sampler.get("border_color")
    if isinstance(color, str):
        if color in SCENARIO_BORDER_COLORS:
            settings["border_color"] = SCENARIO_BORDER_COLORS[color]
        else:
            problems.append(f"border_color {color} (the op carries no custom colour)")
    return settings, problems


# Descriptor types shown to compute right on the reference runtime.
PROVEN_TYPES = frozenset({
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
    "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER",
    "VK_DESCRIPTOR_TYPE_TENSOR_ARM",
})
# Descriptor types the scenario runner was shown to refuse, and what to use instead.
NOT_RUN = {
    "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER":
        "use a VK_DESCRIPTOR_TYPE_STORAGE_BUFFER (an array in the shader), a STORAGE_IMAGE "
        "or a TENSOR_ARM",
    "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE":
        "use VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER (a sampler2D in the shader) or a "
        "STORAGE_IMAGE",
    "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER":
        "use a VK_DESCRIPTOR_TYPE_STORAGE_BUFFER (a `readonly buffer` array in GLSL, a "
        "`StructuredBuffer` in HLSL)",
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC": "use VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC": "use VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
}
