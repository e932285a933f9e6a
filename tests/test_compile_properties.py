"""Any text at all: compile_many answers for every request and never raises."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tosa_vkshader.compile import CompileOptions, CompileRequest, compile_many
from tosa_vkshader.diagnostics import Severity

from compile_helpers import is_spirv

_PIECES = st.sampled_from([
    "void main() {}", "#version 460\n", "#version 100\n", "layout(local_size_x = 2) in;\n",
    "int x = ;", "float f = undefined;", "#extension GL_ARM_tensors : require\n", "#include",
    "#line 1 \"d0/s0.glsl\"\n", "#error boom\n", "}", "{", "/*", "*/", "\\\n", "\r", "\0",
    "\ud800", "é", "[numthreads(1,1,1)]\nvoid main() {}\n", "#define X(a) a##a\n", "\n",
])
_SOURCE = st.one_of(st.text(max_size=120), st.lists(_PIECES, max_size=8).map("".join))
_REQUEST = st.builds(CompileRequest, _SOURCE, st.sampled_from(["GLSL", "HLSL"]),
                     st.sampled_from(["main", "CSMain", "", "not valid!"]))


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(requests=st.lists(_REQUEST, min_size=1, max_size=25))
@example(requests=[CompileRequest("void main() {}", "GLSL", "CSMain"),
                   CompileRequest("void main() {}", "HLSL", "not valid!")])
def test_every_request_gets_spirv_or_an_error(requests):
    results = compile_many(requests, CompileOptions(cache=False))
    assert len(results) == len(requests)
    for result in results:
        errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
        assert (result.spirv is None) == bool(errors), result.diagnostics
        if result.spirv is not None:
            assert is_spirv(result.spirv)
        for diag in result.diagnostics:
            assert diag.code.startswith(("VKS3", "VKS91")) and diag.message
            if diag.inner is not None:
                assert diag.inner.line >= 1 and diag.inner.column >= 1
