"""`new --sampler-of KEY=FILTER[,ADDRESS[,BORDER]]`: the sampler of a sampled image.

The shader does not carry how an image is sampled (nearest or linear, what a coordinate
outside [0, 1] reads); the op's ``input_N_sampler`` does, and without one the reference
runtime samples with NEAREST and CLAMP_TO_EDGE (VKS425). ``linear,repeat`` is
``min_filter``/``mag_filter`` VK_FILTER_LINEAR and both address modes
VK_SAMPLER_ADDRESS_MODE_REPEAT; the address mode defaults to CLAMP_TO_EDGE and the border
colour to FLOAT_TRANSPARENT_BLACK. Full Vulkan names are accepted too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..attribute_values import SAMPLER_FIELDS
from ..diagnostics import Diagnostic
from ..spirv.records import DescriptorBinding
from ..typed_attributes import SamplerConfig
from .codegen_rules import FORMAT_OF_UNKNOWN

_SAMPLED = "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER"
_PARTS = (("a filter", "VK_FILTER_", "min_filter"),
          ("an address mode", "VK_SAMPLER_ADDRESS_MODE_", "address_mode_u"),
          ("a border colour", "VK_BORDER_COLOR_", "border_color"))
_DEFAULTS = ("VK_FILTER_NEAREST", "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE",
             "VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK")


def sampler_overrides(sampler_of: Sequence[tuple[str, str]] | Mapping[str, str],
                      bindings: Sequence[DescriptorBinding],
                      bindings_for: Callable[[str, Sequence[DescriptorBinding]],
                                             list[DescriptorBinding]],
                      add: Callable[[Diagnostic], None]
                      ) -> dict[tuple[int, int], SamplerConfig]:
    """(set, binding) -> the sampler each ``KEY=SPEC`` gives; what is wrong is added as
    VKS604 (a key matching no sampled image or several, a name that is not a filter,
    address mode or border colour)."""
    pairs = list(sampler_of.items()) if isinstance(sampler_of, Mapping) else list(sampler_of)
    chosen: dict[tuple[int, int], SamplerConfig] = {}
    for key, spec in pairs:
        config = _config(key, spec, add)
        if config is None:
            continue
        sampled = [b for b in bindings if b.descriptor_type == _SAMPLED]
        matches = bindings_for(key, sampled)
        if len(matches) != 1:
            listing = ", ".join(f"{b.name} (set {b.set}, binding {b.binding})"
                                for b in (matches or sampled)) or "none"
            problem = "names several" if matches else "names none"
            add(FORMAT_OF_UNKNOWN.at(
                "", f"--sampler-of {key}={spec} {problem} of the entry point's sampled "
                    f"images (COMBINED_IMAGE_SAMPLER); "
                    f"{'candidates' if matches else 'they are'}: {listing}",
                hint="use SET:BINDING" if matches else None))
            continue
        chosen[(matches[0].set, matches[0].binding)] = config
    return chosen


def _config(key: str, spec: str, add: Callable[[Diagnostic], None]) -> SamplerConfig | None:
    words = [w.strip() for w in spec.split(",")]
    if not 1 <= len(words) <= 3:
        add(FORMAT_OF_UNKNOWN.at("", f"--sampler-of {key}={spec} is not "
                                     "FILTER[,ADDRESS[,BORDER]]",
                                 hint="e.g. --sampler-of tex=linear,repeat"))
        return None
    names = list(_DEFAULTS)
    for at, word in enumerate(words):
        what, prefix, field = _PARTS[at]
        name = word.upper().replace("-", "_")
        name = name if name.startswith(prefix) else prefix + name
        allowed = SAMPLER_FIELDS[field]
        if name not in allowed:
            short = ", ".join(a.removeprefix(prefix).lower().replace("_", "-") for a in allowed)
            add(FORMAT_OF_UNKNOWN.at("", f"--sampler-of {key}={spec}: {word!r} is not "
                                         f"{what}", hint=f"use one of: {short}"))
            return None
        names[at] = name
    filter_, address, border = names
    return SamplerConfig(min_filter=filter_, mag_filter=filter_, address_mode_u=address,
                         address_mode_v=address, border_color=border)
