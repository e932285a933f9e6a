"""Small things a newcomer trips on: emit shows the warnings of the op it embeds, and its
--help shows how tensor types are given."""

from __future__ import annotations

import json

from tosa_vkshader.cli import main

UINT_OP = {"entry_point": "main", "workgroup_sizes": [1, 1, 1],
           "input_0_binding": 0, "input_0_descriptorset": 0,
           "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
           "input_0_vkformat": "VK_FORMAT_R32_UINT",
           "output_0_binding": 1, "output_0_descriptorset": 0,
           "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
           "output_0_vkformat": "VK_FORMAT_R32_UINT",
           "producer_note": "kept, reported as a note"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_emit_writes_the_op_and_shows_its_warnings_and_notes(capsys, tmp_path):
    attrs = tmp_path / "op.json"
    attrs.write_text(json.dumps(UINT_OP, indent=2))
    out_file = tmp_path / "op.mlir"
    # i32 tensors read through R32_UINT: legal, written, but said (VKS515), as is the
    # unknown key of the attributes themselves (VKS115).
    code, _, err = run(capsys, "emit", "mlir", str(attrs), "--operands", "tensor<4xi32>",
                       "--results", "tensor<4xi32>", "-o", str(out_file))
    assert code == 0 and "tosa.custom" in out_file.read_text()
    assert f"{attrs}: warning[VKS515] input_0_vkformat is VK_FORMAT_R32_UINT" in err
    assert f"{attrs}: warning[VKS515] output_0_vkformat is VK_FORMAT_R32_UINT" in err
    assert f"{attrs}: info[VKS115]" in err
    assert err.count("VKS515") == 2  # each once, not once per stage


def test_emit_help_shows_several_operand_types_with_an_example(capsys):
    assert main(["emit", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--operands 'tensor<1x64xf32>,tensor<64xi8>' for two" in help_text
    assert "example: tosa-vkshader emit mlir add.json --operands" in help_text
