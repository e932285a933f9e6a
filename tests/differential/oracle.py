"""The reference side: run the real model-converter on a case and read its VGF back.

Verdict "accepted" means the converter wrote a VGF and that VGF says what the attributes
say: every resource has a known format and descriptor type, bindings and descriptor sets
are the declared numbers (not truncated), the dispatch shape is ``workgroup_sizes``, one
interface binding per operand and result, and the module keeps the entry point and the
language. Anything else is "rejected" (the converter refused) or "broken" (it wrote a VGF
that does not say what the user wrote).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cases import Case


def _binary(package: str, *parts: str) -> Path | None:
    try:
        module = __import__(package)
    except ImportError:
        return None
    path = Path(module.__file__).parent.joinpath(*parts)
    return path if path.is_file() else None


def converter() -> Path | None:
    return _binary("model_converter", "binaries", "bin", "model-converter")


def vgf_dump() -> Path | None:
    return _binary("vgf_lib", "binaries", "bin", "vgf_dump")


@dataclass(frozen=True)
class Verdict:
    status: str  # "accepted", "rejected" or "broken"
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "accepted"


def judge(case: Case, folder: Path) -> Verdict:
    """Convert ``case`` in ``folder`` and judge what the converter did."""
    mlir = folder / "model.mlir"
    vgf = folder / "model.vgf"
    mlir.write_text(case.mlir(), encoding="utf-8")
    run = subprocess.run([str(converter()), "-i", str(mlir), "-o", str(vgf)],
                         capture_output=True, text=True, errors="replace", timeout=120)
    if run.returncode != 0 or not vgf.is_file():
        lines = [line for line in (run.stderr + run.stdout).splitlines()
                 if "error" in line.lower()]
        return Verdict("rejected", (lines or [f"exit {run.returncode}"])[0][:200])
    dump = folder / "dump.json"
    subprocess.run([str(vgf_dump()), "-i", str(vgf), "-o", str(dump)], check=True,
                   capture_output=True, timeout=120)
    problem = vgf_problem(case, json.loads(dump.read_text()))
    return Verdict("broken", problem) if problem else Verdict("accepted")


def judge_all(cases: list[Case], workers: int = 2) -> dict[str, Verdict]:
    from concurrent.futures import ThreadPoolExecutor

    with tempfile.TemporaryDirectory(prefix="differential-") as tmp:
        def one(pair: tuple[int, Case]) -> tuple[str, Verdict]:
            index, case = pair
            folder = Path(tmp) / str(index)
            folder.mkdir()
            return case.id, judge(case, folder)

        with ThreadPoolExecutor(workers) as pool:
            return dict(pool.map(one, enumerate(cases)))


def _known(name: object, prefix: str) -> bool:
    return isinstance(name, str) and name.startswith(prefix)


def vgf_problem(case: Case, dump: dict) -> str | None:  # noqa: C901
    """Why the VGF does not say what the attributes say, or None when it does."""
    attrs = case.attrs()
    if not isinstance(attrs, dict):
        return "the converter accepted text that is not a JSON object"
    resources = dump.get("resources", [])
    for resource in resources:
        if not _known(resource.get("vk_format"), "VK_FORMAT_"):
            return f"resource {resource.get('index')} has format {resource.get('vk_format')}"
        if not _known(resource.get("vk_descriptor_type"), "VK_DESCRIPTOR_TYPE_"):
            return (f"resource {resource.get('index')} has descriptor type "
                    f"{resource.get('vk_descriptor_type')}")
    sequence = dump["model_sequence"]
    segments = [s for s in sequence["segments"] if s["type"] == "COMPUTE"]
    if len(segments) != 1:
        return f"{len(segments)} compute segments"
    segment = segments[0]
    returned = len(case.results) - (1 if case.wiring == "unused-result" else 0)
    arguments = 1 if case.wiring == "same-operand" else len(case.operands)
    if len(sequence["inputs"]) != arguments or len(sequence["outputs"]) != returned:
        return (f"the model interface has {len(sequence['inputs'])} inputs and "
                f"{len(sequence['outputs'])} outputs")
    # (set, binding) of each interface entry of the segment, by mrt index
    placed = {}
    for info in segment["descriptor_set_infos"]:
        for entry in info["bindings"]:
            placed[entry["mrt_index"]] = (info["set_index"], entry["binding"])
    for direction, entries, count in (("input", segment["inputs"], len(case.operands)),
                                      ("output", segment["outputs"], len(case.results))):
        if len(entries) != count:
            return f"the segment has {len(entries)} {direction}s for {count}"
        for index, entry in enumerate(entries):
            want = (attrs.get(f"{direction}_{index}_descriptorset"),
                    attrs.get(f"{direction}_{index}_binding"))
            got = placed.get(entry["mrt_index"])
            if got != want:
                return f"{direction}_{index} is at (set, binding) {got}, declared {want}"
    if list(segment["dispatch_shape"]) != attrs.get("workgroup_sizes"):
        return (f"dispatch shape {segment['dispatch_shape']}, declared "
                f"{attrs.get('workgroup_sizes')}")
    module = dump["modules"][segment["module_index"]]
    if module.get("entry_point") != attrs.get("entry_point"):
        return f"entry point {module.get('entry_point')!r}"
    language = attrs.get("shader_language")
    if language is not None and module.get("shader_type") != {
            "SPIR-V": "SPIR-V", "GLSL": "GLSL", "HLSL": "HLSL"}.get(language, "?"):
        return f"module type {module.get('shader_type')} for {language!r}"
    return None
