"""One verdict for the same bytes at every front door: a bounded, seeded fuzz campaign.

A seeded generator makes files a user or an attacker could hand over (valid ops, the same
ops broken by byte flips, truncation, invalid UTF-8, comments, trailing commas, duplicate
keys, NaN, lone surrogates, deep nesting, other tools' JSON, shaders that compile, do not
compile or expand 2^40-fold) and each goes through every door: ``check`` on the command
line, ``check_paths``, ``validate_file``, the web linter (the same bytes as the body), ``fix
--diff`` and ``compile``. For every file:

* no door crashes (a traceback, an exit status other than 0/1/2, an HTTP 500) or hangs
  (each call runs under a 10 s alarm);
* the doors agree: an error, a clean op or a skipped file, the same at the command line,
  the API and the web; a file that does not parse is an error at ``fix`` and ``compile``
  too, and one the checks find clean or skip is left alone by ``fix`` (exit 0);
* nothing leaks: no file left beside the inputs, no file descriptor or child process
  left open.

A few seconds on two cores; ``FUZZ_DOORS_CASES`` raises the count locally.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
from pathlib import Path

import pytest
from web_helpers import module_server

from tosa_vkshader import check_paths, validate_file
from tosa_vkshader.cli import main

from conftest import FIXTURES

CASES = int(os.environ.get("FUZZ_DOORS_CASES", "30"))
HANG = 10  # seconds: a door that takes longer has hung
server, client = module_server("fuzz-doors")

BASES = [(FIXTURES / "valid" / "multi-resource.json").read_bytes(),
         (FIXTURES / "spirv" / "valid" / "copy_f32.json").read_bytes(),
         (FIXTURES / "glsl" / "valid" / "buffer-scale.json").read_bytes()]
BOMB = json.dumps({"entry_point": "main", "workgroup_sizes": [1, 1, 1],
                   "shader_language": "GLSL", "shader_code": "#define A0 x\n" + "".join(
                       f"#define A{i} A{i - 1} A{i - 1}\n" for i in range(1, 41))
                   + "void main() { A40 }\n"}).encode()


def _mutations(rnd: random.Random, data: bytes) -> bytes:
    """One of the ways files arrive broken (or not: the first keeps them as they are)."""
    kind = rnd.randrange(12)
    if kind == 0:
        return data
    if kind == 1:  # bytes flipped
        out = bytearray(data)
        for _ in range(rnd.randint(1, 4)):
            out[rnd.randrange(len(out))] = rnd.randrange(256)
        return bytes(out)
    if kind == 2:  # cut short
        return data[:rnd.randrange(len(data))]
    if kind == 3:  # Latin-1 where UTF-8 belongs
        return data.replace(b'"main"', b'"m\xe4in"', 1)
    if kind == 4:  # JSON with comments and a trailing comma
        return b"// op\n" + data.rstrip()[:-1] + b",}\n"
    if kind == 5:  # a key twice
        return data.replace(b"{", b'{"entry_point": "x", ', 1)
    if kind == 6:  # what nlohmann refuses
        return data.replace(b"{", rnd.choice([b'{"n": NaN, ', b'{"n": "\\ud800", ',
                                              b'{"n": 1e400, ']), 1)
    if kind == 7:  # deep nesting
        depth = rnd.choice([60, 70, 500])
        return data.replace(b"{", b'{"deep": ' + b"[" * depth + b"]" * depth + b", ", 1)
    if kind == 8:  # a value of another type
        doc = json.loads(data)
        key = rnd.choice(sorted(doc))
        doc[key] = rnd.choice([None, 7, "7", [], {}, True, -1, 2**64])
        return json.dumps(doc).encode()
    if kind == 9:  # not JSON at all
        return rnd.choice([b"", b"\x00\x01\x02", b"module {}", b"\xef\xbb\xbf"])
    if kind == 10:  # JSON that is not ours
        return rnd.choice([b'{"name": "app", "version": "1.0.0"}', b'[1, 2, 3]',
                           b'{"rows": [{"a": 1}]}'])
    return BOMB


def _documents(seed: int) -> list[bytes]:
    rnd = random.Random(seed)
    return [_mutations(rnd, rnd.choice(BASES)) for _ in range(CASES)]


@contextlib.contextmanager
def _no_hang(what: str):
    def stop(signum, frame):
        raise AssertionError(f"{what} did not finish within {HANG} s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(HANG)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _no_hang(argv[0]):
        code = main(list(argv))
    assert code in (0, 1, 2), (argv, code)
    assert "Traceback" not in out.getvalue() + err.getvalue(), argv
    return code, out.getvalue(), err.getvalue()


def _verdict(codes: set[str], ok: bool) -> str:
    return "skipped" if codes == {"VKS935"} else "clean" if ok else "error"


def _children() -> set[int]:
    me = str(os.getpid())
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if stat[1] == me and stat[0] != "Z":
                    found.add(int(entry.name))
    return found


@pytest.mark.parametrize("seed", [23, 2023])
def test_every_door_gives_one_verdict_without_crash_hang_or_leak(tmp_path, client, seed):
    files = []
    for k, data in enumerate(_documents(seed)):
        path = tmp_path / f"case{k}.json"
        path.write_bytes(data)
        files.append(path)
    before_files = set(tmp_path.iterdir())
    client.get("/healthz")  # (the client's own connection, opened before counting)
    before_fds = set(os.listdir("/proc/self/fd"))
    before_children = _children()
    for path in files:
        data = path.read_bytes()
        with _no_hang("check_paths"):
            [report] = check_paths([path])
        api = _verdict(set(report.codes), report.ok)
        with _no_hang("validate_file"):
            single = validate_file(path)
        assert _verdict(set(single.codes), single.ok) == api, path
        code, out, _ = _cli("check", str(path), "--format", "json")
        [file] = json.loads(out)["files"]
        cli = _verdict({d["code"] for d in file["diagnostics"]}, code == 0)
        assert cli == api, (path.name, data[:200], cli, api)
        with _no_hang("the web"):
            answer = client.post("/v1/check", content=data,
                                 headers={"content-type": "application/json"})
        assert answer.status_code in (200, 400, 413, 415, 422), answer.text
        if answer.status_code == 200:
            [web_file] = answer.json()["files"]
            web = _verdict({d["code"] for d in web_file["diagnostics"]}, web_file["ok"])
        else:  # the body is refused as a request: not JSON, or too deep
            web = "error"
        assert web == api, (path.name, data[:200], web, api, answer.text[:500])
        unparsed = bool({"VKS100", "VKS101"} & set(report.codes))
        fixed, _, _ = _cli("fix", str(path), "--diff")
        if unparsed:
            assert fixed == 1, path.name
        if api in ("clean", "skipped"):
            assert fixed == 0, path.name
        compiled, _, _ = _cli("compile", str(path), "-o", str(tmp_path / "out.spv"))
        if unparsed or api == "skipped":
            assert compiled == 1, path.name
        (tmp_path / "out.spv").unlink(missing_ok=True)
        assert path.read_bytes() == data  # --diff wrote nothing
    assert set(tmp_path.iterdir()) == before_files  # nothing partial or temporary left
    assert set(os.listdir("/proc/self/fd")) <= before_fds
    assert _children() <= before_children


def test_the_campaign_reaches_every_verdict(tmp_path):
    """The generator is worth running: its files are errors, clean ops and skipped."""
    seen = set()
    for k, data in enumerate(_documents(23)):
        path = tmp_path / f"case{k}.json"
        path.write_bytes(data)
        [report] = check_paths([path])
        seen.add(_verdict(set(report.codes), report.ok))
    assert seen == {"error", "clean", "skipped"}
