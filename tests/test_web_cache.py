"""The answer cache of the lint routes, through the HTTP API of a real server.

Whether a request was answered from the cache is read from /healthz (its hit and miss
counters), never from timing. The server here keeps at most 5 answers and 16 KiB, so the
bounds are reached with a handful of requests.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import uuid

import httpx
import pytest
from web_helpers import fake_tool, module_server, running_server

from conftest import FIXTURES

MAX_ENTRIES = 5
MAX_BYTES = 16384
GLSLC = shutil.which("glslc") or "/usr/bin/glslc"
JSON = {"content-type": "application/json"}
TEXT = {"content-type": "text/plain"}

server, client = module_server("web-cache", "--cache-entries", str(MAX_ENTRIES),
                               "--cache-size", str(MAX_BYTES))


def attrs(tag: str) -> dict:
    """Lint-only attributes whose misspelled key (so a diagnostic) carries ``tag``."""
    return {"entry_point": "main", "workgroup_sizes": [8, 8, 1],
            f"input_0_bindng_{tag}": 0}


def unique() -> str:
    return uuid.uuid4().hex[:12]


def cache(server) -> dict:
    return server.health()["cache"]


def counted(server, before: dict) -> tuple[int, int]:
    """(hits, misses) since ``before``."""
    now = cache(server)
    return now["hits"] - before["hits"], now["misses"] - before["misses"]


def same_answer(first: httpx.Response, second: httpx.Response) -> None:
    """Byte for byte, headers included; only ``date`` is the server's clock."""
    assert first.status_code == second.status_code == 200, first.text
    assert first.content == second.content
    assert [(k, v) for k, v in first.headers.multi_items() if k != "date"] \
        == [(k, v) for k, v in second.headers.multi_items() if k != "date"]


def mlir(tag: str) -> str:
    text = (FIXTURES / "models" / "broken.mlir").read_text()
    return f"// {tag}\n{text}"


BODIES = {
    "wrapped": lambda tag: (json.dumps({"attributes": attrs(tag)}).encode(), JSON),
    "page text": lambda tag: (json.dumps({"text": json.dumps(attrs(tag), indent=2),
                                          "options": {"target_env": "vulkan1.3"}}).encode(),
                              JSON),
    "bare": lambda tag: (json.dumps(attrs(tag), indent=2).encode(), JSON),
    "mlir": lambda tag: (mlir(tag).encode(), TEXT),
}


@pytest.mark.parametrize("shape", sorted(BODIES))
def test_the_same_request_again_is_answered_from_the_cache_byte_for_byte(
        server, client, shape):
    body, headers = BODIES[shape](unique())
    before = cache(server)
    first = client.post("/v1/check", content=body, headers=headers)
    assert counted(server, before) == (0, 1)
    second = client.post("/v1/check", content=body, headers=headers)
    assert counted(server, before) == (1, 1)
    same_answer(first, second)
    assert first.headers["content-type"] == "application/json"


def test_fix_answers_are_kept_too(server, client):
    body = json.dumps({"attributes": attrs(unique())}).encode()
    before = cache(server)
    first = client.post("/v1/fix", content=body, headers=JSON)
    second = client.post("/v1/fix", content=body, headers=JSON)
    assert counted(server, before) == (1, 1)
    same_answer(first, second)
    assert "diff" in first.json()


def test_anything_that_differs_is_not_a_hit(server, client):
    tag = unique()
    document = attrs(tag)
    body = json.dumps({"attributes": document}).encode()
    variants = [
        ("/v1/check", body + b" ", JSON),  # whitespace
        ("/v1/check", json.dumps({"attributes": {**document, "workgroup_sizes": [0, 8, 1]}})
         .encode(), JSON),  # a value
        ("/v1/check", json.dumps({"attributes": document,
                                  "options": {"ignore": ["VKS1"]}}).encode(), JSON),
        ("/v1/check", body, TEXT),  # the content type
        ("/v1/check", body, {"content-type": "application/json; charset=utf-8"}),
        ("/v1/check?page=2", body, JSON),  # the query
        ("/v1/fix", body, JSON),  # the route
    ]
    first = client.post("/v1/check", content=body, headers=JSON)
    answers = []
    for path, data, headers in variants:
        before = cache(server)
        answers.append(client.post(path, content=data, headers=headers))
        assert counted(server, before) == (0, 1), (path, data, headers)
        same_answer(answers[-1], client.post(path, content=data, headers=headers))
        assert counted(server, before) == (1, 1)  # and a hit the second time
    # Some variants mean something else, and get a different answer.
    assert answers[1].content != first.content and answers[2].content != first.content
    assert answers[-1].json().keys() != first.json().keys()


def test_the_entry_bound_holds_and_the_least_recently_used_goes_first(server, client):
    def post(tag: str) -> None:
        assert client.post("/v1/check", json={"attributes": attrs(tag)}).status_code == 200
        assert cache(server)["entries"] <= MAX_ENTRIES

    tags = [unique() for _ in range(MAX_ENTRIES + 3)]
    post(tags[0])
    for tag in tags[1:MAX_ENTRIES]:
        post(tag)
    post(tags[0])  # used again: now the most recent
    evictions = cache(server)["evictions"]
    for tag in tags[MAX_ENTRIES:]:
        post(tag)
    stats = cache(server)
    assert stats["entries"] == MAX_ENTRIES and stats["bytes"] <= MAX_BYTES
    assert stats["evictions"] - evictions == 3
    before = cache(server)
    post(tags[0])
    assert counted(server, before) == (1, 0)  # kept: it was used recently
    post(tags[1])
    assert counted(server, before) == (1, 1)  # evicted: the least recently used


def test_the_byte_bound_holds(server, client):
    padding = b" " * (MAX_BYTES // 3)  # a third of the bound per body: at most two fit
    bodies = [json.dumps({"attributes": attrs(unique())}).encode() + padding
              for _ in range(4)]
    for body in bodies:
        assert client.post("/v1/check", content=body, headers=JSON).status_code == 200
        stats = cache(server)
        assert stats["bytes"] <= MAX_BYTES
    assert stats["entries"] <= 2
    before = cache(server)
    client.post("/v1/check", content=bodies[0], headers=JSON)
    assert counted(server, before) == (0, 1)  # pushed out by the bytes of the others


def test_an_answer_too_large_for_the_bound_is_not_kept(server, client):
    body = json.dumps({"attributes": attrs(unique())}).encode() + b" " * (MAX_BYTES // 2)
    before = cache(server)
    for _ in range(2):
        assert client.post("/v1/check", content=body, headers=JSON).status_code == 200
    assert counted(server, before) == (0, 2)
    assert cache(server)["bytes"] <= MAX_BYTES


@pytest.mark.parametrize(("data", "headers", "status"), [
    (b'{"attributes": ', JSON, 400),  # not JSON
    (b"[" * 200 + b"]" * 200, JSON, 400),  # too deep
    (b'{"attributes": {}, "nonsense": 1}', JSON, 422),
    (b'{"attributes": {}, "options": {"target_env": "vulkan9"}}', JSON, 422),
    (b'{"attributes": {}}', {"content-type": "application/xml"}, 415),
    (b"x" * (1024 * 1024 + 1), JSON, 413),
])
def test_problems_are_never_kept(server, client, data, headers, status):
    before = cache(server)
    for _ in range(2):
        response = client.post("/v1/check", content=data, headers=headers)
        assert response.status_code == status, response.text
        assert response.headers["content-type"] == "application/problem+json"
    assert counted(server, before)[0] == 0
    assert cache(server)["entries"] == before["entries"]


def test_concurrent_requests_each_get_the_answer_to_their_own_body(server):
    tags = [unique() for _ in range(8)]

    async def burst() -> list[tuple[str, httpx.Response]]:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as ac:
            asked = [tags[k % len(tags)] for k in range(48)]
            answers = await asyncio.gather(*(
                ac.post("/v1/check", json={"attributes": attrs(tag)}) for tag in asked))
            return list(zip(asked, answers, strict=True))

    answered = asyncio.run(burst())
    by_tag: dict[str, bytes] = {}
    for tag, response in answered:
        assert response.status_code == 200, response.text
        [diag] = response.json()["files"][0]["diagnostics"]
        assert diag["pointer"] == f"/input_0_bindng_{tag}"
        assert by_tag.setdefault(tag, response.content) == response.content


def glsl_request(tag: str) -> dict:
    code = ("#version 460\nlayout(local_size_x = 64) in;\n"
            "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
            f"void main() {{ data[gl_GlobalInvocationID.x] *= 2.0; }} // {tag}\n")
    return {"attributes": {
        "entry_point": "main", "workgroup_sizes": [4, 1, 1], "shader_language": "GLSL",
        "shader_code": code, "output_0_binding": 0, "output_0_descriptorset": 0,
        "output_0_vkformat": "VK_FORMAT_R32_SFLOAT",
        "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}}


def test_compile_answers_are_made_again_every_time(tmp_path):
    """A compile answer may come from a failing or a hanging compiler: it is never kept,
    so the next request gets a fresh compile. The compiler here does what the file
    ``mode`` says when it is called (written before each request: no race)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    mode = tmp_path / "mode"
    fake_tool(bin_dir, "glslc", f"""
case "$1" in --version) exec {GLSLC} "$@";; esac
case "$(cat {mode})" in
  fail) echo "glslc: error: internal compiler error" >&2; exit 2;;
  hang) exec sleep 60;;
esac
exec {GLSLC} "$@"
""")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "c")}
    with running_server("--workers", "1", "--timeout", "2", cwd=tmp_path, env=env) as srv, \
            srv.client() as c:
        for broken in ("fail", "hang"):
            request = glsl_request(unique())
            mode.write_text(broken)
            failed = c.post("/v1/check", json=request)
            assert failed.status_code in (200, 504), failed.text
            assert failed.status_code == 504 or not failed.json()["files"][0]["ok"]
            mode.write_text("real")
            before = cache(srv)
            compiled = c.post("/v1/check", json=request)
            assert compiled.status_code == 200, compiled.text
            assert compiled.json()["files"][0]["ok"], compiled.text
            again = c.post("/v1/check", json=request)
            assert again.content == compiled.content
            assert counted(srv, before) == (0, 2)
            assert cache(srv)["entries"] == before["entries"]


SPIRV_ATTRS = json.loads((FIXTURES / "spirv" / "valid" / "add_i32.json").read_text())


def spirv_op(name: str, indent: int | None = None) -> bytes:
    """An op with its shader (embedded SPIR-V), as a user pastes it: 2.5 KB."""
    return json.dumps({"domain_name": "com.arm.VulkanCustomShader", "operator_name": name,
                       "implementation_attrs": SPIRV_ATTRS}, indent=indent).encode()


def memo(server) -> dict:
    return server.health()["memo"]


def test_ops_with_embedded_spirv_are_kept_vetted_and_remembered(tmp_path):
    """The first request with a module goes to a worker; its answer is kept (the same
    bytes again: a hit), the module is vetted, and the same op under another name or
    spacing is answered from the op memory with the findings placed in its own text:
    exactly what `check` says about the same bytes in a file."""
    from tosa_vkshader.cli import main

    with running_server("--workers", "1", cwd=tmp_path,
                        env={"TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "c")}) as srv, \
            srv.client() as c:
        before = cache(srv)
        first = c.post("/v1/check", content=spirv_op("add"), headers=JSON)
        again = c.post("/v1/check", content=spirv_op("add"), headers=JSON)
        same_answer(first, again)
        assert counted(srv, before) == (1, 1)
        assert cache(srv)["entries"] == before["entries"] + 1
        assert memo(srv)["vetted_shaders"] == 1
        remembered = memo(srv)["hits"]
        for name, indent in (("add_2", None), ("add_3", 2), ("add_4", 4)):
            body = spirv_op(name, indent)
            answer = c.post("/v1/check", content=body, headers=JSON).json()
            path = tmp_path / f"{name}.json"
            path.write_bytes(body)
            assert main(["check", str(path), "--format", "json", "-o",
                         str(tmp_path / "cli.json")]) == 0
            cli = json.loads((tmp_path / "cli.json").read_text())
            for diag in cli["files"][0]["diagnostics"]:
                diag["location"]["path"] = answer["files"][0]["diagnostics"][0][
                    "location"]["path"]
            assert answer["files"][0]["diagnostics"] == cli["files"][0]["diagnostics"]
            assert answer["files"][0]["diagnostics"], "a clean op would prove nothing"
        # (the first in the event loop is ruled on, the next two are remembered)
        assert memo(srv)["hits"] == remembered + 2


def test_spirv_answers_that_depend_on_the_moment_are_not_kept(tmp_path):
    """Without spirv-val (VKS920) the answer says the module was not validated: it is
    made again every time, and the module is not vetted."""
    env = {"TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "c"),
           "TOSA_VKSHADER_SPIRV_VAL": str(tmp_path / "no-spirv-val")}
    with running_server("--workers", "1", cwd=tmp_path, env=env) as srv, srv.client() as c:
        before = cache(srv)
        for _ in range(2):
            answer = c.post("/v1/check", content=spirv_op("add"), headers=JSON)
            assert answer.status_code == 200, answer.text
            codes = {d["code"] for d in answer.json()["files"][0]["diagnostics"]}
            assert codes & {"VKS920", "VKS921"}, codes
        assert counted(srv, before) == (0, 2)
        assert cache(srv)["entries"] == before["entries"]
        assert memo(srv)["vetted_shaders"] == 0


def _as_the_cli_says(tmp_path, body: bytes, answer: dict) -> None:
    """The web's answer for ``body`` is what `check` says about the same bytes in a file
    (the path aside)."""
    from tosa_vkshader.cli import main

    path = tmp_path / "same.json"
    path.write_bytes(body)
    main(["check", str(path), "--format", "json", "-o", str(tmp_path / "cli.json")])
    cli = json.loads((tmp_path / "cli.json").read_text())["files"][0]["diagnostics"]
    for diag in cli:
        diag["location"]["path"] = "<request>"
    assert answer["files"][0]["diagnostics"] == cli


def test_the_op_memory_never_moves_a_finding_to_the_wrong_place(server, client, tmp_path):
    """Findings about the op object itself (an empty operator_name, a near-miss domain)
    are placed at the op's own keys: the same op spaced otherwise gets them at its own
    places, as a fresh check would."""
    for op in ({"domain_name": "com.arm.VulkanCustomShader", "operator_name": "",
                "implementation_attrs": attrs(unique())},
               {"domain_name": "com.arm.VulkanCustomShaders", "operator_name": "x",
                "implementation_attrs": attrs(unique())},
               {"operator_name": "y", "implementation_attrs": attrs(unique())}):
        for indent in (None, 1, 3):
            body = json.dumps(op, indent=indent).encode()
            answer = client.post("/v1/check", content=body, headers=JSON)
            assert answer.status_code == 200, answer.text
            _as_the_cli_says(tmp_path, body, answer.json())


def test_the_op_memory_tells_ops_apart_by_their_shader(tmp_path):
    """Two ops that differ only in their (vetted) shader_code are not one op to the op
    memory, although the key holds the shader beside the attributes' JSON rather than in
    it: each answer is what `check` says about its own bytes."""
    other = json.loads((FIXTURES / "spirv" / "valid" / "multi_set.json").read_text())
    shaders = (SPIRV_ATTRS["shader_code"], other["shader_code"])

    def op(name: str, code: str) -> bytes:
        return json.dumps({"domain_name": "com.arm.VulkanCustomShader",
                           "operator_name": name,
                           "implementation_attrs": {**SPIRV_ATTRS,
                                                    "shader_code": code}}).encode()

    with running_server("--workers", "1", cwd=tmp_path,
                        env={"TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "c")}) as srv, \
            srv.client() as c:
        answers = []
        for name in ("first", "second", "third"):  # a worker's; then in the event loop
            for code in shaders:
                body = op(name, code)
                answer = c.post("/v1/check", content=body, headers=JSON)
                assert answer.status_code == 200, answer.text
                _as_the_cli_says(tmp_path, body, answer.json())
                answers.append(answer.json()["files"][0]["diagnostics"])
        assert answers[-1] != answers[-2], "the two shaders should be judged differently"
        assert memo(srv)["vetted_shaders"] == 2 and memo(srv)["hits"] >= 2


OP_VALUES = {
    # what the object's JSON holds -> how it is written in the request body, and the code
    # that `check` gives a file holding it
    "plain": ('"plain"', None),
    "non-ASCII": ('"\\u00e9t\\u00e9 \\ud83d\\ude00 \u00e9"', None),
    "long integer": ("123456789012345678901234567890", None),
    "integer beyond a double": ("1" + "0" * 400, "VKS121"),
    "beyond a double": ("1e400", "VKS121"),
    "lone surrogate": ('"\\ud800"', "VKS120"),
    "lone surrogate as bytes": ('"\udcff"', "VKS101"),  # (not UTF-8: ED B3 BF)
    "nested to the limit": ("[" * 63 + "]" * 63, None),  # 64 levels deep with its object
    "nested beyond it": ("[" * 64 + "]" * 64, "VKS104"),
}


@pytest.mark.parametrize("case", sorted(OP_VALUES))
@pytest.mark.parametrize("field", ["op", "attributes"])
def test_an_object_sent_in_a_request_is_checked_as_check_checks_its_bytes(
        client, tmp_path, field, case):
    """``{"op": ...}`` and ``{"attributes": ...}`` are checked as `check` checks a file
    holding the object's own bytes, side by side on the same bytes: the same codes,
    messages and places (counted from the object's opening brace), whatever its values
    are: an escaped lone surrogate (VKS120), numbers beyond a double (VKS121), raw
    surrogate bytes, which are not UTF-8 (VKS101), nesting at and beyond the limit. The
    op is the request's last field, the attributes come before its options."""
    value, code = OP_VALUES[case]
    attributes = {**attrs(unique()), "note": "@NOTE@"}
    document = attributes if field == "attributes" else {
        "domain_name": "com.arm.VulkanCustomShader", "operator_name": f"op_{unique()}",
        "implementation_attrs": attributes}
    if field == "op":  # (the op nests its attributes one level deeper)
        value = value.replace("[]", "", 1)
    sent = json.dumps(document, indent=1).replace('"@NOTE@"', value).encode(
        "utf-8", "surrogatepass")
    body = b'{"op": ' + sent + b"}" if field == "op" \
        else b'{"attributes": ' + sent + b', "options": {"ignore": []}}'
    answer = client.post("/v1/check", content=body, headers=JSON)
    assert answer.status_code == 200, answer.text
    found = [d["code"] for d in answer.json()["files"][0]["diagnostics"]]
    assert code is None or code in found, found
    _as_the_cli_says(tmp_path, sent, answer.json())


def test_fix_takes_the_sent_object_in_the_bodys_own_encoding(client):
    """/v1/fix of ``{"attributes": ...}`` repairs the object's own text whatever the
    body's encoding: a UTF-16 body holding a number beyond a double (read as bytes, as
    `fix` reads a file) gives the text a UTF-8 body gives, not its bytes misread."""
    text = ('{"attributes": {"entry_point": "main", "workgroup_sizes": [8, 8, 1], '
            f'"input_0_bindng_{unique()}": 0, "big": 1e400}}}}')
    fixed = []
    for encoding in ("utf-8", "utf-16"):
        answer = client.post("/v1/fix", content=text.encode(encoding), headers=JSON)
        assert answer.status_code == 200, answer.text
        fixed.append(answer.json()["fixed"])
    assert fixed[0] == fixed[1] and '"big": 1e400' in fixed[0], fixed


def test_a_pasted_op_with_its_attributes_as_a_string_goes_to_a_worker_whole(tmp_path):
    """A pasted body is parsed once, and the document goes with the request to the
    worker that checks its unvetted shader, whatever was looked up in it before (here
    the string holding the attributes): the answer is what `check` says."""
    body = json.dumps({"domain_name": "com.arm.VulkanCustomShader", "operator_name": "s",
                       "implementation_attrs": json.dumps({**SPIRV_ATTRS,
                                                           "workgroup_sizes": [3, 1, 1]})},
                      indent=1).encode()
    with running_server("--workers", "1", cwd=tmp_path,
                        env={"TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "c")}) as srv, \
            srv.client() as c:
        answer = c.post("/v1/check", content=body, headers=JSON)
        assert answer.status_code == 200, answer.text
        assert answer.json()["files"][0]["diagnostics"], "a clean op would prove nothing"
        _as_the_cli_says(tmp_path, body, answer.json())
