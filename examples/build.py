"""Regenerate every example: its model.mlir, inputs and numpy reference results.

    python examples/build.py

Each model is written through tosa-vkshader's own code generation (`op_from_shader`,
`CustomOp.to_mlir`), so the attributes match the shader; the reference results are
plain numpy. The tensor example's GL_ARM_tensors shader is compiled with the glslc that
ships in the scenario-runner wheel (Debian's glslang is too old for GL_ARM_tensors).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from tosa_vkshader.codegen import op_from_shader
from tosa_vkshader.codegen.emit import mlir_string
from tosa_vkshader.config import Options

HERE = Path(__file__).resolve().parent
# The runtime dispatches `workgroup_sizes` workgroups: write it as a workgroup count.
DISPATCH = Options(workgroup_semantics="dispatch")


def add_sub_f32() -> None:
    folder = HERE / "add_sub_f32"
    op = op_from_shader(folder / "add_sub.comp", name="add_sub", workgroup_sizes=[4, 1, 1],
                        options=DISPATCH)
    t = "tensor<1x256xf32>"
    _write(folder / "model.mlir", op.to_mlir([t, t], [t, t], options=DISPATCH))
    rng = np.random.default_rng(1)
    a = rng.standard_normal((1, 256)).astype(np.float32)
    b = rng.standard_normal((1, 256)).astype(np.float32)
    _save(folder, a=a, b=b, expected_0=a + b, expected_1=a - b)


def scale_i8_push() -> None:
    folder = HERE / "scale_i8_push"
    op = op_from_shader(folder / "scale_i8.comp", name="scale_i8", workgroup_sizes=[4, 1, 1],
                        options=DISPATCH)
    t = "tensor<1x128xi8>"
    _write(folder / "model.mlir", op.to_mlir([t], [t], options=DISPATCH))
    q = np.arange(-64, 64, dtype=np.int8).reshape(1, 128)
    multiplier, offset = 3, -5
    (folder / "push_constants.bin").write_bytes(
        np.array([multiplier, offset], dtype="<i4").tobytes())
    expected = np.clip(q.astype(np.int32) * multiplier + offset, -128, 127).astype(np.int8)
    _save(folder, q=q, expected_0=expected)


def tensor_add() -> None:
    from tosa_vkshader.runtime.toolchain import find_toolchain

    folder = HERE / "tensor_add"
    glslc = Path(find_toolchain().scenario_runner).with_name("glslc")
    with tempfile.TemporaryDirectory() as tmp:
        spv = Path(tmp) / "tensor_add.spv"
        subprocess.run([str(glslc), "--input", str(folder / "tensor_add.comp"), "--output",
                        str(spv), "--stage", "compute"], check=True)
        op = op_from_shader(spv.read_bytes(), name="tensor_add", workgroup_sizes=[4, 1, 1],
                            options=DISPATCH)
    t = "tensor<1x64xf32>"
    _write(folder / "model.mlir", op.to_mlir([t, t], [t], options=DISPATCH))
    lhs = np.linspace(-2, 2, 64, dtype=np.float32).reshape(1, 64)
    rhs = np.full((1, 64), 0.25, dtype=np.float32)
    _save(folder, lhs=lhs, rhs=rhs, expected_0=lhs + rhs)


def add_relu() -> None:
    folder = HERE / "add_relu"
    op = op_from_shader(folder / "relu.comp", name="relu", workgroup_sizes=[1, 1, 1],
                        options=DISPATCH)
    t = "tensor<1x64xf32>"
    _write(folder / "model.mlir", "\n".join([
        "// A plain TOSA op feeding a custom shader op: y = relu(a + b).",
        "module {",
        f"  func.func @main(%a: {t}, %b: {t}) -> {t} {{",
        f"    %0 = tosa.add %a, %b : ({t}, {t}) -> {t}",
        f'    %1 = tosa.custom %0 {{domain_name = "com.arm.VulkanCustomShader", '
        f"implementation_attrs = {mlir_string(op.implementation_attrs)}, "
        f'operator_name = "relu"}} : ({t}) -> {t}',
        f"    return %1 : {t}",
        "  }",
        "}",
        "",
    ]))
    a = np.linspace(-3, 3, 64, dtype=np.float32).reshape(1, 64)
    b = np.full((1, 64), 0.5, dtype=np.float32)
    _save(folder, a=a, b=b, expected_0=np.maximum(a + b, 0))


def verify_leaky_relu() -> None:
    """A model for `tosa-vkshader verify` (its reference and tests are written by hand)."""
    folder = HERE / "verify_leaky_relu"
    op = op_from_shader(folder / "leaky_relu.comp", name="leaky_relu",
                        workgroup_sizes=[4, 1, 1], options=DISPATCH)
    t = "tensor<1x256xf32>"
    _write(folder / "model.mlir", op.to_mlir([t], [t], options=DISPATCH))


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _save(folder: Path, **arrays: np.ndarray) -> None:
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", array)


def main() -> int:
    for build in (add_sub_f32, scale_i8_push, tensor_add, add_relu, verify_leaky_relu):
        build()
        print(f"built examples/{build.__name__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
