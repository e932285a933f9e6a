"""Helpers shared by the SPIR-V tests: fixture paths and tiny module builders."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

from tosa_vkshader.spirv.validate import find_spirv_val

ROOT = Path(__file__).resolve().parents[1]
SHADERS = ROOT / "fixtures" / "shaders"
SPIRV_FIXTURES = ROOT / "fixtures" / "spirv"
MAGIC = 0x07230203


def module_bytes(name: str) -> bytes:
    return (SHADERS / f"{name}.spv").read_bytes()


def all_modules() -> list[str]:
    return sorted(p.stem for p in SHADERS.glob("*.spv"))


def words_of(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def to_bytes(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *[w & 0xFFFFFFFF for w in words])


def inst(opcode: int, *operands: int) -> list[int]:
    return [((len(operands) + 1) << 16) | opcode, *operands]


def header(bound: int = 100, version: int = 0x00010600) -> list[int]:
    return [MAGIC, version, 0, bound, 0]


def assemble(text: str, folder: Path) -> Path:
    """SPIR-V assembly assembled by spirv-as (beside the spirv-val the tool uses) into
    ``folder/module.spv``."""
    source = folder / "module.spvasm"
    source.write_text(text)
    spirv_as = Path(find_spirv_val() or "spirv-val").with_name("spirv-as")
    subprocess.run([str(spirv_as), "--target-env", "vulkan1.3", "-o",
                    str(folder / "module.spv"), str(source)],
                   check=True, capture_output=True, timeout=60)
    return folder / "module.spv"
