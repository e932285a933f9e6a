"""`run --validate`: the Khronos validation layer under the emulation layers, its settings
written into the work directory, and its log read back as diagnostics.

Measured with Debian's ``vulkan-validationlayers`` 1.3.239, lavapipe and the emulation
layers 0.11.0:

- The loader stacks layers in the order of the ``VK_LAYER_PATH`` folders. The validation
  layer's folder must come after the emulation layers': above them it sees the
  VK_ARM_tensors structures the emulation layers answer for and reports
  ``VUID-VkDeviceCreateInfo-pNext-pNext`` on every run. Below them it sees core Vulkan
  (tensor accesses are therefore not validated by this version).
- Settings come from ``vk_layer_settings.txt`` in the folder ``VK_LAYER_SETTINGS_PATH``
  names: the checks to enable (GPU-assisted validation finds out-of-bounds shader
  accesses; synchronization validation finds hazards), the log file, which messages.
- The scenario runner exits 0 whatever the layer reports: the log must be read.

Each message becomes a diagnostic (VKS966 for errors, VKS967 for warnings) carrying its
VUID, its text, the op it is about where the dispatch says, and the shader line GPU-AV
gives (GLSL ops are compiled by the runtime with line information; the line is the
op's own source line).

Measured on an NVIDIA H200 (driver 580.159, Vulkan 1.4.312) under the same 1.3.239 layer:
the runner enables structures and extensions newer than the layer, which reports each one
it does not know when the device is created (an error per structure, a warning per
extension) on every run, whatever the op. Those messages say what the layer cannot check,
not what the op did wrong: :func:`unknown_to_layer` sets them apart (one note, VKS973).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import InnerPosition
from .errors import RunError
from .rules import VALIDATION_ERROR, VALIDATION_LAYER_MISSING, VALIDATION_WARNING

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..diagnostics import Diagnostic

LAYER = "VK_LAYER_KHRONOS_validation"
MANIFEST = "VkLayer_khronos_validation.json"
# Another manifest to use (a validation layer built from source, or none at all).
OVERRIDE = "TOSA_VKSHADER_VALIDATION_LAYER"
INSTALL = "sudo apt-get install vulkan-validationlayers"
# Where the loader looks for explicit layers besides VK_LAYER_PATH (Linux).
_FOLDERS = ("/etc/vulkan/explicit_layer.d", "/usr/local/share/vulkan/explicit_layer.d",
            "/usr/share/vulkan/explicit_layer.d")
# The checks `--validate` can enable beyond the core checks, and their layer settings.
CHECKS = {
    "gpu-assisted": "VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT",
    "sync": "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT",
}
DEFAULT_CHECKS = ("gpu-assisted",)
LOG = "validation.log"
# At most this many distinct messages are reported (GPU-AV repeats an error for each
# invocation it records).
MAX_MESSAGES = 20
# What a layer older than the device's driver says of the device's set-up (see above).
_UNKNOWN_STRUCTURE = re.compile(r"unknown VkStructureType \((\d+)\)")
_UNKNOWN_EXTENSION = re.compile(r"^Device Extension (\w+) is not supported by this layer\b")


@dataclass(frozen=True, slots=True)
class Validation:
    """What ``--validate`` asked for: the core checks always, and ``checks`` (names in
    :data:`CHECKS`) on top."""

    checks: tuple[str, ...] = DEFAULT_CHECKS

    @classmethod
    def parse(cls, value: bool | str | Iterable[str] | Validation | None) -> Validation | None:
        """``False``/None: no validation; ``True``: the default checks; a comma-separated
        string or names: ``core`` alone, or any of :data:`CHECKS` (ValueError otherwise)."""
        if value is None or value is False:
            return None
        if value is True:
            return cls()
        if isinstance(value, Validation):
            return value
        names = [n.strip() for n in (value.split(",") if isinstance(value, str) else value)]
        unknown = [n for n in names if n and n != "core" and n not in CHECKS]
        if unknown:
            raise ValueError(f"unknown validation check {unknown[0]!r}: use core, "
                             f"{', '.join(CHECKS)}")
        return cls(tuple(n for n in CHECKS if n in names))


def find_layer_folder(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the validation layer's manifest; :class:`RunError` (VKS965, exit 2)
    when it is not installed."""
    env = os.environ if environ is None else environ
    override = env.get(OVERRIDE)
    if override:
        candidates = [Path(override)]
    else:
        folders = [p for p in env.get("VK_LAYER_PATH", "").split(os.pathsep) if p]
        data = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME", "/"), ".local/share")
        folders += [os.path.join(data, "vulkan/explicit_layer.d"), *_FOLDERS]
        candidates = [Path(folder) / MANIFEST for folder in folders]
    for manifest in candidates:
        if manifest.is_file():
            return manifest.parent
    where = override or ", ".join(_FOLDERS)
    raise RunError([VALIDATION_LAYER_MISSING.at(
        "", f"--validate: the Khronos validation layer ({MANIFEST}) was not found in "
            f"{where}", hint=INSTALL)])


def layer_environment(validation: Validation, workdir: Path, folder: Path,
                      below: Mapping[str, str]) -> dict[str, str]:
    """The variables that add the validation layer under the layers of ``below`` (the
    run's ``VK_LAYER_PATH`` and ``VK_INSTANCE_LAYERS``), with its settings file written
    into ``workdir``."""
    settings = workdir / "validation"
    settings.mkdir(exist_ok=True)
    lines = [f"khronos_validation.log_filename = {workdir / LOG}",
             "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG",
             "khronos_validation.report_flags = error,warn",
             "khronos_validation.enables = " + ",".join(CHECKS[c] for c in validation.checks)]
    (settings / "vk_layer_settings.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"VK_LAYER_PATH": os.pathsep.join([below["VK_LAYER_PATH"], str(folder)]),
            "VK_INSTANCE_LAYERS": ":".join([below["VK_INSTANCE_LAYERS"], LAYER]),
            "VK_LAYER_SETTINGS_PATH": str(settings)}


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the layer's log."""

    vuid: str  # the VUID, or the message's name (e.g. UNASSIGNED-...)
    severity: str  # ERROR, WARNING, ...
    text: str  # what it says, without the object list and the spec's statement
    spec: str | None  # "The Vulkan spec states: ..." with its link, when given
    shader_line: int | None
    dispatch: int | None  # "Compute Dispatch Index N"


_HEADER = re.compile(r"^(\S+)\(([A-Z]+) / [A-Z]+\): msgNum: -?\d+ - (.*)$")
_SPEC = re.compile(r"\s*The Vulkan spec states: (.*)$", re.DOTALL)
_LINE = re.compile(r"at line (\d+)")
_DISPATCH = re.compile(r"Compute Dispatch Index (0x[0-9a-fA-F]+|\d+)")
_HANDLES = re.compile(r"0x[0-9a-fA-F]+")
# What a message says about Vulkan objects by handle, and about the layer itself: not for
# the user (the dispatch index is read first, to name the op).
_NOISE = re.compile(r"(?:Command buffer|Pipeline|Shader Module) \(0x[0-9a-fA-F]+\)\.\s*"
                    r"|Compute Dispatch Index (?:0x)?[0-9a-fA-F]+\.\s*"
                    r"|Shader Instruction Index = \d+\.\s*"
                    r"|Stage = \w+\.\s*|Unable to find SPIR-V OpSource\.\s*")


def read_log(path: Path) -> list[Message]:
    """The distinct messages of the log (the first of each repeated one), in order, at
    most :data:`MAX_MESSAGES` of them besides those :func:`unknown_to_layer` sets apart."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    messages: list[Message] = []
    findings = 0  # the messages not about what the layer does not know
    seen: set[tuple[str, str]] = set()
    for block in _blocks(text):
        header = _HEADER.match(block[0])
        if header is None:
            continue
        vuid, severity, body = header.groups()
        said = body.rsplit(" | ", 1)[-1].strip()
        spec = _SPEC.search(said)
        if spec is not None:
            said = said[:spec.start()].strip()
        line = _LINE.search(said)
        dispatch = _DISPATCH.search(said)
        said = " ".join(_NOISE.sub("", said).split())
        key = (vuid, _HANDLES.sub("0x", said))
        if key in seen:
            continue
        seen.add(key)
        messages.append(Message(vuid, severity, said, spec.group(1).strip() if spec else None,
                                int(line.group(1)) if line else None,
                                int(dispatch.group(1), 0) if dispatch else None))
        findings += _unknown(messages[-1]) is None
        if findings == MAX_MESSAGES:
            break
    return messages


def unknown_to_layer(messages: list[Message]) -> tuple[list[str], list[Message]]:
    """What the layer says it does not know of the device's set-up (structure types and
    extensions newer than the layer: ``VkStructureType 1000141000``,
    ``VK_KHR_maintenance5``), and the other messages: the findings."""
    unknown: list[str] = []
    findings = []
    for message in messages:
        name = _unknown(message)
        if name is None:
            findings.append(message)
        else:
            unknown.append(name)
    return unknown, findings


def _unknown(message: Message) -> str | None:
    # (a structure in any pNext chain is the runner's or the emulation layers', never the
    # op's: one the layer does not know is the layer's gap wherever it is met)
    structure = _UNKNOWN_STRUCTURE.search(message.text) \
        if message.vuid.endswith("-pNext-pNext") else None
    if structure is not None:
        return f"VkStructureType {structure.group(1)}"
    extension = _UNKNOWN_EXTENSION.search(message.text)
    return extension.group(1) if extension is not None else None


def _blocks(text: str) -> list[list[str]]:
    """The log's messages: a line that starts at the margin, and the indented lines after it."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line and not line[0].isspace():
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
    return blocks


def diagnostic(message: Message, about: str, *, in_source: bool) -> Diagnostic:
    """The diagnostic of one message; ``about`` names the op (or the model).
    ``in_source``: the shader line is a line of the op's ``shader_code`` (GLSL the runtime
    compiled), so the diagnostic points into it."""
    found = VALIDATION_ERROR if message.severity == "ERROR" else VALIDATION_WARNING
    where = f", shader line {message.shader_line}" if message.shader_line else ""
    inner = InnerPosition(message.shader_line, 1) if in_source and message.shader_line \
        else None
    return found.at("/shader_code" if inner else "",
                    f"{about}{where}: the validation layer says [{message.vuid}] "
                    f"{message.text}", inner=inner,
                    hint=f"the Vulkan specification states: {message.spec}"
                    if message.spec and found is VALIDATION_ERROR else None)
