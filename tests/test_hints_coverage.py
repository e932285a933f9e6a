"""Hints of the coverage rules (VKS518, VKS522, VKS431, VKS623): each where it fires, and
what the user writes after following it checks clean. (What the runtime does with these
ops is shown in tests/test_coverage_truth.py.)"""

from __future__ import annotations

import json

import pytest

from tosa_vkshader import validate
from tosa_vkshader.codegen import CodegenError, op_from_shader

from hint_cases import after_fix, hinted

V = "#version 460\n"
ROWS = V + """layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    y[g.y * 64u + g.x] = x[g.y * 64u + g.x];
}
"""
COPY = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[i]; }
"""
SHARED = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
shared float s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = x[gl_GlobalInvocationID.x];
    y[gl_GlobalInvocationID.x] = s[63u - l];
}
"""


def op_document(source: str, tensor: str, workgroup_sizes: list[int]) -> str:
    attrs = op_from_shader(source, language="GLSL").attrs
    return json.dumps({"domain_name": "com.arm.VulkanCustomShader", "operator_name": "op",
                       "inputs": [tensor], "outputs": [tensor],
                       "implementation_attrs": attrs | {"workgroup_sizes": workgroup_sizes}})


def with_sizes(document: str, workgroup_sizes: list[int]) -> str:
    op = json.loads(document)
    op["implementation_attrs"]["workgroup_sizes"] = workgroup_sizes
    return json.dumps(op)


def test_rows_left_unwritten_name_the_dispatch_that_writes_them():
    document = op_document(ROWS, "tensor<32x64xf32>", [8, 1, 1])
    before = validate(document)
    d = hinted(before.diagnostics, "VKS518", pointer="/workgroup_sizes",
               hint="use workgroup_sizes [8, 4, 1] (x walks axis 1 (64) of result 0 "
                    "(tensor<32x64xf32>); y walks axis 0 (32) of result 0 "
                    "(tensor<32x64xf32>))")
    assert "y: 1 where 4 are needed" in d.message
    after_fix(before, validate(with_sizes(document, [8, 4, 1])), "VKS518", None)


def test_a_store_past_the_result_names_the_exact_dispatch():
    document = op_document(COPY, "tensor<256xf32>", [64, 1, 1])
    before = validate(document)
    hinted(before.diagnostics, "VKS522",
           hint="use workgroup_sizes [4, 1, 1] (x walks axis 0 (256) of result 0 "
                "(tensor<256xf32>))")
    after_fix(before, validate(with_sizes(document, [4, 1, 1])), "VKS522", None)


def test_a_store_past_the_result_without_an_exact_dispatch_asks_for_a_guard():
    document = op_document(COPY, "tensor<1000xf32>", [16, 1, 1])
    hinted(validate(document).diagnostics, "VKS522",
           hint="guard the store with the result's size (`if (i >= N) return;`), or "
                "dispatch exactly the elements the result has")
    guarded = COPY.replace("y[i] = x[i];", "if (i < 1000u) y[i] = x[i];")
    after_fix(validate(document), validate(op_document(guarded, "tensor<1000xf32>",
                                                        [16, 1, 1])), "VKS522", None)


def test_shared_memory_read_across_invocations_asks_for_a_barrier():
    document = op_document(SHARED, "tensor<64xf32>", [1, 1, 1])
    before = validate(document)
    d = hinted(before.diagnostics, "VKS431",
               hint="call barrier() after the writes and before the reads of other "
                    "invocations' elements")
    assert "invocation 0 writes word 0" in d.message and "invocation 63 reads" in d.message
    fixed = SHARED.replace("    y[gl_GlobalInvocationID.x]", "    barrier();\n"
                           "    y[gl_GlobalInvocationID.x]")
    after_fix(before, validate(op_document(fixed, "tensor<64xf32>", [1, 1, 1])), "VKS431",
              None)


def test_new_refuses_a_shader_no_dispatch_fits_and_says_how_to_make_one():
    t = "tensor<1000xf32>"
    with pytest.raises(CodegenError) as info:
        op_from_shader(COPY, language="GLSL", operands=[t], results=[t])
    hinted(info.value.diagnostics, "VKS623",
           hint="guard the store with the result's size (`if (i >= N) return;`), or use a "
                "local size that divides the result")
    guarded = COPY.replace("y[i] = x[i];", "if (i >= 1000u) return; y[i] = x[i];")
    op = op_from_shader(guarded, language="GLSL", operands=[t], results=[t])
    assert op.attrs["workgroup_sizes"] == [16, 1, 1]


def test_too_few_invocations_for_unknown_addresses_ask_for_one_per_element():
    stride = ROWS.replace("layout(set = 0, binding = 0)",
                          "layout(push_constant) uniform P { uint w; } p;\n"
                          "layout(set = 0, binding = 0)").replace("64u", "p.w")
    document = op_document(stride, "tensor<32x64xf32>", [8, 1, 1])
    hinted(validate(document).diagnostics, "VKS518",
           hint="launch at least 2048 invocations (workgroup_sizes times the local size), "
                "one per element, along the axes the shader indexes; `tosa-vkshader run` "
                "shows what they write")
