"""Where the reference tools are and how the Vulkan loader must be set up to use them.

The Arm ML SDK wheels ship their binaries inside their Python packages; they are found
without importing those packages (``find_spec`` only locates them). A tool that is not in
a wheel is looked for on PATH (an SDK built from source); ``TOSA_VKSHADER_MODEL_CONVERTER``,
``TOSA_VKSHADER_VGF_DUMP`` and ``TOSA_VKSHADER_SCENARIO_RUNNER`` name another build. The
emulation layers (VK_ARM_tensors, VK_ARM_data_graph) must be announced to Debian's loader
one directory per layer, with an absolute library path, graph layer first (``layers.py``
keeps those manifests).

The emulation layers come first in ``VK_LAYER_PATH`` (the loader stacks layers in that
order, and a layer above them sees VK_ARM structures it does not know); folders the user
named in ``VK_LAYER_PATH`` and layers in ``VK_INSTANCE_LAYERS`` are kept, after them.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import RunError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..diagnostics import Diagnostic

# The package is on no index: the extra is installed from a checkout or from a wheel.
INSTALL_RUN_EXTRA = ("pip install '.[run]' in a tosa-vkshader checkout (from a wheel: pip "
                     "install 'tosa_vkshader-VERSION-py3-none-any.whl[run]')")
INSTALL_VULKAN = "sudo apt-get install libvulkan1 mesa-vulkan-drivers"

# tool -> (package of the wheel, path inside it)
_BINARIES = {
    "model-converter": ("model_converter", "binaries/bin/model-converter"),
    "vgf_dump": ("vgf_lib", "binaries/bin/vgf_dump"),
    "scenario-runner": ("scenario_runner", "binaries/bin/scenario-runner"),
}
_ICD_DIRS = ("/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/usr/share/vulkan/icd.d")


@dataclass(frozen=True, slots=True)
class Toolchain:
    """The paths of the three tools, and ``layers_dir``, the emulation layers' deploy
    folder (``emulation_layer/deploy``)."""

    model_converter: str
    vgf_dump: str
    scenario_runner: str
    layers_dir: Path

    def layer_environment(self, workdir: Path,
                          environ: Mapping[str, str] | None = None) -> dict[str, str]:
        """The variables that make the loader load both emulation layers, graph first
        (their manifests are kept in the cache folder, else written into ``workdir``),
        and then the layers the user's own ``VK_LAYER_PATH``/``VK_INSTANCE_LAYERS`` name."""
        from .layers import LAYERS, manifest_folders

        env = os.environ if environ is None else environ
        folders = manifest_folders(self.layers_dir, workdir)
        names = [name for name, _ in LAYERS]
        folders += [p for p in env.get("VK_LAYER_PATH", "").split(os.pathsep) if p]
        names += [n for n in env.get("VK_INSTANCE_LAYERS", "").split(":") if n and n not in names]
        return {"VK_LAYER_PATH": os.pathsep.join(folders), "VK_INSTANCE_LAYERS": ":".join(names)}


def _package_dir(package: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def override_variable(tool: str) -> str:
    """``TOSA_VKSHADER_SCENARIO_RUNNER`` etc.: use another build of a tool."""
    return "TOSA_VKSHADER_" + tool.upper().replace("-", "_")


def find_binary(tool: str) -> str | None:
    """Where ``tool`` (model-converter, vgf_dump, scenario-runner) is, or None."""
    override = os.environ.get(override_variable(tool))
    if override:
        return override if os.access(override, os.X_OK) else None
    package, inner = _BINARIES[tool]
    folder = _package_dir(package)
    if folder is not None and os.access(folder / inner, os.X_OK):
        return str(folder / inner)
    import shutil

    return shutil.which(tool)


def locate_toolchain() -> tuple[Toolchain | None, list[str]]:
    """The installed tools, or None and what is missing."""
    missing = []
    found = {}
    for tool in _BINARIES:
        found[tool] = find_binary(tool)
        if found[tool] is None:
            missing.append(tool)
    from .layers import LAYERS

    layers = _package_dir("emulation_layer")
    deploy = layers / "deploy" if layers is not None else None
    if deploy is None or not all(
            (deploy / "lib" / f"lib{stem}.so").is_file() for _n, stem in LAYERS):
        missing.append("the Vulkan ML emulation layers")
    if importlib.util.find_spec("numpy") is None:
        missing.append("numpy")
    if missing:
        return None, missing
    assert deploy is not None
    return Toolchain(found["model-converter"] or "", found["vgf_dump"] or "",
                     found["scenario-runner"] or "", deploy), []


def find_toolchain() -> Toolchain:
    """The installed tools, or :class:`RunError` naming what is missing and the fix."""
    tools, missing = locate_toolchain()
    if tools is None:
        from .rules import RUN_EXTRA_MISSING

        raise RunError([RUN_EXTRA_MISSING.at(
            "", f"cannot run: {', '.join(missing)} not found (the Arm ML SDK 0.11.0 wheels "
                "and numpy are the `run` extra of tosa-vkshader)",
            hint=INSTALL_RUN_EXTRA)])
    return tools


def icd_manifests(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The Vulkan driver manifests the loader would read (its override variables first)."""
    env = os.environ if environ is None else environ
    override = env.get("VK_DRIVER_FILES") or env.get("VK_ICD_FILENAMES")
    if override:
        return [Path(p) for p in override.split(os.pathsep) if p and Path(p).is_file()]
    found = []
    for folder in _ICD_DIRS:
        path = Path(folder)
        if path.is_dir():
            found.extend(sorted(p for p in path.iterdir() if p.suffix == ".json"))
    return found


# Mesa's drivers for GPUs (the library each manifest names): each finds its devices through
# a DRM render node, so on a machine without one they enumerate none.
_MESA_GPU_DRIVERS = frozenset((
    "libvulkan_intel.so", "libvulkan_intel_hasvk.so", "libvulkan_radeon.so",
    "libvulkan_nouveau.so", "libvulkan_virtio.so", "libvulkan_freedreno.so",
    "libvulkan_broadcom.so", "libvulkan_panfrost.so", "libvulkan_powervr_mesa.so",
    "libvulkan_asahi.so", "libvulkan_imagination.so"))
_LAVAPIPE = "libvulkan_lvp.so"


def default_driver_environment(environ: Mapping[str, str] | None = None,
                               manifests: list[Path] | None = None,
                               render_nodes: str = "/dev/dri") -> dict[str, str]:
    """What makes the loader open only lavapipe when nothing else can have a device: no
    driver named by the user, no DRM render node, and every other driver one of Mesa's
    GPU drivers (which find devices only through render nodes). The devices the runner
    sees are the same; the loader just does not load and probe drivers that can find
    nothing (5 ms of every run on this machine). Anything else: {} (the loader's own
    choice, as the user's machine makes it)."""
    env = os.environ if environ is None else environ
    if env.get("VK_DRIVER_FILES") or env.get("VK_ICD_FILENAMES"):
        return {}
    try:
        if any(name.startswith("renderD") for name in os.listdir(render_nodes)):
            return {}
    except OSError:
        pass  # no /dev/dri at all: no render node
    import json

    lavapipe: list[tuple[str, Path]] = []
    others: list[tuple[str, Path]] = []
    for manifest in icd_manifests(env) if manifests is None else manifests:
        try:
            library = json.loads(manifest.read_bytes())["ICD"]["library_path"]
        except (OSError, ValueError, KeyError, TypeError):
            return {}  # a manifest the loader may read otherwise: leave the choice to it
        name = os.path.basename(str(library))
        (lavapipe if name == _LAVAPIPE else others).append((name, manifest))
    if not lavapipe or any(name not in _MESA_GPU_DRIVERS for name, _ in others):
        return {}
    chosen = os.pathsep.join(str(manifest) for _, manifest in lavapipe)
    return {"VK_DRIVER_FILES": chosen, "VK_ICD_FILENAMES": chosen}


def no_device(reason: str, hint: str = INSTALL_VULKAN) -> Diagnostic:
    from .rules import NO_VULKAN_DEVICE

    return NO_VULKAN_DEVICE.at(
        "", f"cannot run: {reason}; install the Vulkan loader and Mesa's lavapipe (a CPU "
            "Vulkan driver) or your GPU's Vulkan driver", hint=hint)
