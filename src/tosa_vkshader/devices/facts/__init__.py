"""The figures the shipped target devices are generated from, each with its source.

Published requirements (the Vulkan specification's Roadmap milestones, Android's
baseline and minimum-requirement profiles, LunarG's desktop baselines) are facts: they
are restated here, in our own arrangement, for what a compute shader can run into
(limits of compute, descriptors, images and buffers; subgroup properties; the features
and extensions a SPIR-V capability or extension needs). Vendor classes are approximate:
public figures of a GPU family, not a requirement any device promises.

Only :mod:`tosa_vkshader.devices.generate` reads these; the checker reads the JSON it
writes to ``devices/profiles/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Requirements:
    """One shipped target: what it requires beyond the profile it builds on."""

    name: str  # what --target-device takes: roadmap-2024
    profile: str  # the Vulkan Profiles name: VP_KHR_roadmap_2024
    label: str
    summary: str  # one line for `tosa-vkshader devices`
    origin: str  # where the figures come from
    api_version: str
    builds_on: str | None = None  # the profile (of another shipped target) it extends
    limits: dict[str, Any] = field(default_factory=dict)  # VkPhysicalDeviceLimits
    properties: dict[str, dict[str, Any]] = field(default_factory=dict)
    features: dict[str, tuple[str, ...]] = field(default_factory=dict)  # struct -> members
    extensions: tuple[str, ...] = ()
    approximate: bool = False
    block: str = ""  # the capability block's name; default: the name with `_`

    @property
    def block_name(self) -> str:
        return self.block or self.name.replace("-", "_")
