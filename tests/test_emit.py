"""`emit mlir|tosa` and CustomOp.to_mlir/to_tosa_bytes: real tosa.custom ops.

Every op built from a fixture shader is rendered to MLIR, parsed and serialized by the
installed tosa-opt, and the .tosa it writes is read back with our own sources: the
attributes must come back identical. The serializer path (tosa_serializer) is read back
the same way.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_codegen import CASES, CODEGEN, GOOD, SHADERS, options_for

from tosa_vkshader import Options
from tosa_vkshader.api import check_paths
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import CodegenError, CustomOp, op_from_shader
from tosa_vkshader.codegen.emit import mlir_string
from tosa_vkshader.diagnostics import Severity
from tosa_vkshader.rules.context import compare_element
from tosa_vkshader.spirv import read_module, reflect

TOSA_OPT = str(Path(sys.executable).with_name("tosa-opt"))
ELEMENTS = ("f32", "f16", "i8", "i16", "i32", "i64")


def element_for(vkformat: str) -> str:
    """A signless element type the format carries (exactly if possible)."""
    judged = [(compare_element(e, vkformat), e) for e in ELEMENTS]
    exact = [e for severity, e in judged if severity is None]
    return exact[0] if exact else next(e for s, e in judged if s is not None and s.name ==
                                       "WARNING")


def types_for(op: CustomOp, spirv: bytes) -> tuple[list[str], list[str]]:
    """Operand and result types a model would give this op: shader tensor ranks/shapes."""
    reflection = reflect(read_module(spirv, "")[0], op.attributes.entry_point)

    def tensor(resource) -> str:
        b = reflection.binding(resource.descriptorset, resource.binding)
        if b is not None and b.tensor_rank:
            shape = list(b.tensor_shape or [2] * b.tensor_rank)
        else:
            shape = [1, 16, 16, 4]
        return "tensor<" + "".join(f"{d}x" for d in shape) + element_for(resource.vkformat) + ">"

    return ([tensor(r) for r in op.attributes.inputs],
            [tensor(r) for r in op.attributes.outputs])


def spirv_of(op: CustomOp) -> bytes:
    import base64

    return base64.b64decode(op.attrs["shader_code"])


def read_back(path: Path) -> list[dict]:
    report = check_paths([path])[0]
    assert report.source is not None
    return [op.attributes for op in report.source.ops]


def tosa_opt_serialize(mlir: Path, out: Path) -> None:
    done = subprocess.run([TOSA_OPT, str(mlir), "--tosa-serialize",
                           f"--tosa-flatbuffer-filename={out}", "-o", "/dev/null"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


ONE_PER_CASE = sorted({stem: path for stem, path in GOOD if path.suffix == ".spv"
                       or stem.startswith("spec_")}.items())


def arbitrary_shapes(options: Options) -> Options:
    """The shapes ``types_for`` gives are a model's plausible types, not the ones each
    fixture shader writes exactly (a histogram's one counter, a copy of one channel): what
    the dispatch writes is judged by tests/test_coverage_truth.py, so here it is a warning."""
    return options.with_overrides(severity={
        **options.severity, **{code: Severity.WARNING for code in ("VKS518", "VKS522")}})


@pytest.mark.parametrize(("stem", "path"), ONE_PER_CASE, ids=[s for s, _p in ONE_PER_CASE])
def test_mlir_parses_serializes_and_reads_back_identical(stem, path, tmp_path):
    case = CASES[stem]
    options = arbitrary_shapes(options_for(case))
    op = op_from_shader(path, name=stem, embed="spirv", format_of=case.get("format_of", {}),
                        entry_point=case.get("entry_point"), options=options)
    operands, results = types_for(op, spirv_of(op))
    mlir = tmp_path / f"{stem}.mlir"
    mlir.write_text(op.to_mlir(operands, results, options=options))
    tosa = tmp_path / f"{stem}.tosa"
    tosa_opt_serialize(mlir, tosa)
    assert read_back(tosa) == [op.attrs]
    assert read_back(mlir) == [op.attrs]
    errors = [d.code for r in check_paths([mlir, tosa], options) for d in r.errors]
    assert errors == []


@pytest.mark.parametrize(("stem", "path"), ONE_PER_CASE[:6], ids=[s for s, _p in
                                                                   ONE_PER_CASE[:6]])
def test_tosa_bytes_read_back_identical(stem, path, tmp_path):
    case = CASES[stem]
    options = arbitrary_shapes(options_for(case))
    op = op_from_shader(path, name=stem, format_of=case.get("format_of", {}),
                        entry_point=case.get("entry_point"), options=options)
    operands, results = types_for(op, spirv_of(op))
    out = tmp_path / f"{stem}.tosa"
    out.write_bytes(op.to_tosa_bytes(operands, results, options=options))
    assert read_back(out) == [op.attrs]
    report = check_paths([out], options)[0]
    assert report.source.ops[0].context.operator_name == stem
    assert [str(t.text) for t in report.source.ops[0].context.operands] == operands


# tensor_copy_int8 copies channel 0 of an 8 x 8 tile: the shape it writes exactly.
COPY_I8 = "tensor<1x8x8x1xi8>"


def test_tosa_opt_reads_what_the_serializer_wrote(tmp_path):
    op = op_from_shader(SHADERS / "tensor_copy_int8.spv", name="copy_i8", operands=[COPY_I8],
                        results=[COPY_I8])
    out = tmp_path / "copy.tosa"
    out.write_bytes(op.to_tosa_bytes([COPY_I8], [COPY_I8]))
    empty = tmp_path / "empty.mlir"
    empty.write_text("module {}\n")
    done = subprocess.run([TOSA_OPT, str(empty), "--tosa-deserialize",
                           f"--tosa-deserialize-filename={out}"],
                          capture_output=True, text=True, check=True)
    assert "tosa.custom" in done.stdout
    assert 'operator_name = "copy_i8"' in done.stdout


def test_escaping_survives_tosa_opt(tmp_path):
    source = ('// Größe: "quotes", a backslash \\ and a tab\t in a comment\n'
              + (SHADERS / "copy_f32.comp").read_text())
    op = op_from_shader(source, language="GLSL", name="copy ünïcode",
                        operands=["tensor<64xf32>"], results=["tensor<64xf32>"])
    mlir = tmp_path / "escaped.mlir"
    mlir.write_text(op.to_mlir(["tensor<64xf32>"], ["tensor<64xf32>"]))
    tosa = tmp_path / "escaped.tosa"
    tosa_opt_serialize(mlir, tosa)
    assert read_back(tosa) == [op.attrs]
    assert read_back(tosa)[0]["shader_code"] == source


def test_mlir_string_escapes():
    assert mlir_string('a"b\\c\n\u00e9') == '"a\\"b\\\\c\\0A\\C3\\A9"'


def test_cli_emit_mlir_then_check(tmp_path):
    attrs = tmp_path / "copy.json"
    assert main(["new", str(SHADERS / "copy_f32.spv"), "--operands", "tensor<64xf32>",
                 "--results", "tensor<64xf32>", "-o", str(attrs)]) == 0
    out = tmp_path / "copy.mlir"
    assert main(["emit", "mlir", str(attrs), "--operands", "tensor<64xf32>", "--results",
                 "tensor<64xf32>", "--name", "copy", "-o", str(out)]) == 0
    assert 'domain_name = "com.arm.VulkanCustomShader"' in out.read_text()
    assert 'operator_name = "copy"' in out.read_text()
    assert main(["check", str(out)]) == 0
    tosa = tmp_path / "copy.tosa"
    assert main(["emit", "tosa", str(attrs), "--operands", "tensor<64xf32>", "--results",
                 "tensor<64xf32>", "-o", str(tosa)]) == 0
    assert read_back(tosa) == [json.loads(attrs.read_text())]


def test_cli_emit_takes_name_and_types_from_an_op_object(tmp_path):
    op_file = tmp_path / "op.json"
    assert main(["new", str(SHADERS / "tensor_copy_int8.spv"), "--name", "copy_i8",
                 "--operands", COPY_I8, "--results", COPY_I8, "-o", str(op_file)]) == 0
    obj = json.loads(op_file.read_text())
    assert obj["inputs"] == [COPY_I8] and obj["outputs"] == [COPY_I8]
    out = tmp_path / "op.mlir"
    assert main(["emit", "mlir", str(op_file), "-o", str(out)]) == 0
    assert 'operator_name = "copy_i8"' in out.read_text()


@pytest.mark.parametrize(("operands", "results", "codes"), [
    ("tensor<1x8x8x4xi8>, tensor<4xi8>", "tensor<1x8x8x4xi8>", ["VKS510"]),
    ("tensor<1x8x8x4xf32>", "tensor<1x8x8x4xi8>", ["VKS514"]),
    ("tensor<1x8x8x4xi8>", "tensor<8x4xi8>", ["VKS516"]),
    ("tensor<1x8x8x4xi8>", "", ["VKS513"]),
    ("tensor<1x8x8x4xint8>", "tensor<1x8x8x4xi8>", ["VKS615"]),
    ("memref<4xi8>", "tensor<1x8x8x4xi8>", ["VKS615"]),
])
def test_types_contradicting_the_resources_write_nothing(operands, results, codes, tmp_path,
                                                         capsys):
    attrs = tmp_path / "attrs.json"
    assert main(["new", str(SHADERS / "tensor_copy_int8.spv"), "-o", str(attrs)]) == 0
    for form in ("mlir", "tosa"):
        out = tmp_path / f"op.{form}"
        assert main(["emit", form, str(attrs), "--operands", operands, "--results", results,
                     "-o", str(out)]) == 1
        assert not out.exists()
        err = capsys.readouterr().err
        for code in codes:
            assert f"error[{code}]" in err


@pytest.mark.parametrize("type_", ["tensor<?x8xi32>", "tensor<64xui32>"])
def test_types_a_tosa_file_cannot_hold(type_):
    op = op_from_shader(SHADERS / "atomic_histogram.spv")  # uint32 buffers
    op.to_mlir([type_], [type_])  # MLIR can hold them
    with pytest.raises(CodegenError) as info:
        op.to_tosa_bytes([type_], [type_])
    assert "VKS616" in {d.code for d in info.value.diagnostics}


def test_emit_refuses_attributes_that_do_not_check(tmp_path, capsys):
    attrs = tmp_path / "attrs.json"
    attrs.write_text(json.dumps({"entry_point": "main", "workgroup_sizes": [8, 0, 1]}))
    out = tmp_path / "op.mlir"
    assert main(["emit", "mlir", str(attrs), "--operands", "", "--results", "",
                 "-o", str(out)]) == 1
    assert not out.exists()
    assert "error[VKS617]" in capsys.readouterr().err


def test_from_attributes_accepts_model_dict_and_text():
    op = op_from_shader(SHADERS / "copy_f32.spv")
    for given in (op.attributes, op.attrs, json.dumps(op.attrs)):
        assert CustomOp.from_attributes(given, "copy").attrs == op.attrs
    with pytest.raises(CodegenError):
        CustomOp.from_attributes({"entry_point": "main"}, "broken")


def test_spec_examples_checked_against_options():
    op = op_from_shader(CODEGEN / "shaders" / "spec_glsl_example.comp", options=Options(),
                        operands=["tensor<64xf32>"], results=["tensor<64xf32>"])
    assert op.to_mlir(["tensor<64xf32>"], ["tensor<64xf32>"]).startswith("module {")
