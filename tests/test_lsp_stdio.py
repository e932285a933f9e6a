"""`tosa-vkshader lsp` under a client of a few lines: the protocol's framing written by
hand over the server's stdin and stdout, every read bounded by a timeout. What an editor
does at the edges: garbage on the wire, shutdown and exit, a missing extra."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from conftest import FIXTURES

TIMEOUT = 15.0


class MinimalClient:
    """Content-Length framed JSON-RPC over a subprocess's pipes."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tosa_vkshader", "lsp"], cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._buffer = b""
        self._next_id = 0

    def send_bytes(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, method: str, params: object = None, *, request: bool = False) -> int:
        message: dict[str, object] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if request:
            self._next_id += 1
            message["id"] = self._next_id
        body = json.dumps(message).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        return self._next_id

    def _read(self, deadline: float) -> None:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, "the server did not answer in time"
        chunk = os.read(fd, 65536)
        assert chunk, "the server closed its output"
        self._buffer += chunk

    def receive(self) -> dict:
        deadline = time.monotonic() + TIMEOUT
        while b"\r\n\r\n" not in self._buffer:
            self._read(deadline)
        header, _, rest = self._buffer.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        while len(rest) < length:
            self._read(deadline)
            header, _, rest = self._buffer.partition(b"\r\n\r\n")
        self._buffer = rest[length:]
        return json.loads(rest[:length])

    def answer(self, request_id: int) -> dict:
        """The response to a request (notifications meanwhile are skipped)."""
        while True:
            message = self.receive()
            if message.get("id") == request_id and "method" not in message:
                return message

    def notification(self, method: str, uri: str | None = None) -> dict:
        while True:
            message = self.receive()
            if message.get("method") == method and (
                    uri is None or message["params"].get("uri") == uri):
                return message["params"]

    def initialize(self, params: dict | None = None) -> dict:
        """The handshake; the server's answer to initialize."""
        answer = self.answer(self.send("initialize", {
            "processId": None, "capabilities": {}, **(params or {})}, request=True))
        self.send("initialized", {})
        return answer

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


def test_garbage_on_the_wire_then_diagnostics_and_a_clean_exit(tmp_path: Path):
    op = tmp_path / "op.json"
    op.write_text((FIXTURES / "invalid" / "leading-zero-index.json").read_text())
    client = MinimalClient(tmp_path)
    try:
        answer = client.initialize({"rootUri": tmp_path.as_uri()})
        assert answer["result"]["serverInfo"]["name"] == "tosa-vkshader"
        # Lines without a header, a length that is no number, bytes that are no UTF-8,
        # not JSON, JSON that is no message, a method nobody knows.
        for junk in (b"hello world\r\n\r\n", b"Content-Length: abc\r\n\r\n{}",
                     b"\x00\xff\xfe garbage \r\n", b"Content-Length: 5\r\n\r\n\xff\xfe\x00\x01\x02",
                     b"Content-Length: 9\r\n\r\n{not json", b"Content-Length: 2\r\n\r\n[]"):
            client.send_bytes(junk)
        unknown = client.send("tosa/nothing", {}, request=True)
        assert "error" in client.answer(unknown)
        # A request about a document the editor never opened: no answer to give.
        hover = client.send("textDocument/hover", {"textDocument": {"uri": op.as_uri()},
                                                   "position": {"line": 3, "character": 4}},
                            request=True)
        assert client.answer(hover)["result"] is None
        client.send("textDocument/didOpen", {"textDocument": {
            "uri": op.as_uri(), "languageId": "json", "version": 1, "text": op.read_text()}})
        found = client.notification("textDocument/publishDiagnostics", op.as_uri())
        assert [(d["code"], d["range"]["start"], d["range"]["end"])
                for d in found["diagnostics"]] == [
            ("VKS111", {"line": 3, "character": 2}, {"line": 3, "character": 20})]
        assert client.answer(client.send("shutdown", request=True))["result"] is None
        client.send("exit")
        assert client.process.wait(TIMEOUT) == 0
    finally:
        client.close()


def test_exit_without_shutdown_is_exit_status_1(tmp_path: Path):
    client = MinimalClient(tmp_path)
    try:
        client.initialize()
        client.send("exit")
        assert client.process.wait(TIMEOUT) == 1  # what the protocol asks for
    finally:
        client.close()


def test_the_client_going_away_ends_the_server(tmp_path: Path):
    client = MinimalClient(tmp_path)
    try:
        client.initialize()
        assert client.process.stdin is not None
        client.process.stdin.close()
        client.process.wait(TIMEOUT)
    finally:
        client.close()


def test_without_the_lsp_extra_it_says_which_extra_and_exits_2():
    # pygls made unimportable, as in an install without the extra.
    code = ("import sys; sys.modules['pygls'] = None\n"
            "from tosa_vkshader.cli import main\n"
            "sys.exit(main(['lsp']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 2
    assert "`lsp` extra" in done.stderr and "pygls" in done.stderr
    assert done.stdout == ""
