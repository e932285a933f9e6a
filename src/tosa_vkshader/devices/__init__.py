"""Target devices: Vulkan Profiles JSON in, findings about what an op needs out.

    profile = load_target("roadmap-2024")        # or FILE, FILE#PROFILE
    diagnostics = check_targets(view, shader)

The shipped profiles (``baseline``, ``roadmap-2024``, ``android-15``, the approximate
vendor classes...; ``tosa-vkshader devices`` lists them) are in ``profiles/``, made by
``python -m tosa_vkshader.devices.generate`` from the published requirements.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

# The checks come with the profiles: the process that reads the targets (before it
# forks its workers) loads them once for all.
from . import rules as R
from .checks import check_device
from .needs import cooperative_matrices, gather_needs
from .profile import DeviceProfile, ProfileError, read_profile
from .targets import DEFAULT_TARGET, SHIPPED, load_target, load_targets

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic
    from ..shader import Shader
    from ..shader.places import ShaderPlaces
    from ..view import AttributeView
    from .needs import MatrixNeed


@lru_cache(maxsize=256)
def _module_needs(shader: Shader) -> tuple[int, tuple[MatrixNeed, ...]]:
    """Bytes of Workgroup storage of the shader's entry point, and its cooperative
    matrix types (once per shared record)."""
    from ..spirv.reader import read_module
    from ..spirv.workgroup import workgroup_memory_bytes

    module = shader.module or read_module(shader.spirv)[0]
    memory = workgroup_memory_bytes(module, shader.reflection.entry_point
                                    if shader.reflection else None) if module else 0
    return memory, cooperative_matrices(module)


def check_targets(view: AttributeView, shader: Shader) -> list[Diagnostic]:
    """What each configured target device lacks for this op (VKS7xx).

    Nothing is checked when no target is configured: an op is written for the devices
    its author names (``baseline`` is the one to name for "runs on any Vulkan 1.3
    device").
    """
    targets = load_targets(view.options.target_device)
    if not targets or shader.reflection is None:
        return []
    memory, matrices = _module_needs(shader)
    needs = gather_needs(view, shader.reflection, memory, view.pointer("shader_code"),
                         matrices)
    found = [diag for profile in targets for diag in check_device(needs, profile)]
    if any(d.code in _PLACED for d in found):
        from ..shader.places import places_for

        found = _with_shader_places(found, places_for(shader, view.attrs))
    return _at_needing_lines(found, view.attrs.get("shader_code"), shader.language)


# findings that also name a declaration in the shader -> which one
_PLACED = {R.LOCAL_SIZE.code: "local_size", R.INVOCATIONS.code: "local_size",
           R.PUSH_CONSTANTS.code: "push_constants"}


def _with_shader_places(found: list[Diagnostic], places: ShaderPlaces) -> list[Diagnostic]:
    """The device findings about the local size or the push-constant block also name its
    declaration in the shader."""
    from dataclasses import replace

    return [replace(d, shader_place=getattr(places, _PLACED[d.code])())
            if d.code in _PLACED else d for d in found]


_DECLARED = re.compile(r'the shader declares (?:OpCapability (\w+)|OpExtension "([^"]+)")')


def _at_needing_lines(found: list[Diagnostic], source: object, language: str
                      ) -> list[Diagnostic]:
    """A capability or extension the device lacks (VKS700, VKS701) points at the line of
    the shader that needs it (GLSL/HLSL: its first use; SPIR-V: the OpCapability
    instruction), not at the whole ``shader_code``."""
    from dataclasses import replace

    from ..diagnostics import InnerPosition, ShaderPlace

    placed = []
    for diag in found:
        declared = _DECLARED.match(diag.message) if diag.code in (
            R.CAPABILITY.code, R.EXTENSION.code) else None
        if declared is None:
            placed.append(diag)
        elif language == "SPIR-V":
            instruction = (f"OpCapability {declared.group(1)}" if declared.group(1)
                           else f'OpExtension "{declared.group(2)}"')
            placed.append(replace(diag, shader_place=ShaderPlace(instruction=instruction)))
        else:  # (the compile package is loaded only for a source that has such a line)
            from ..compile.needs_lines import needing_line

            line = needing_line(source, declared.group(1) or declared.group(2)) \
                if isinstance(source, str) else None
            placed.append(replace(diag, inner=line or InnerPosition(1, 1)))
    return placed


__all__ = ["DEFAULT_TARGET", "SHIPPED", "DeviceProfile", "ProfileError", "check_targets",
           "load_target", "load_targets", "read_profile"]
