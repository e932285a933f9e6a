"""Latency of `tosa-vkshader lsp`: from an edit to its diagnostics, as an editor sees it.

    PYTHONPATH=src python bench/bench_lsp.py [--changes 40] [--markdown]

Starts the server as an editor does (a subprocess over stdio; its own empty compile
cache), opens a 2 KB attribute file without a shader, and sends changes one at a time:
for each, the time from writing ``textDocument/didChange`` to receiving the
``textDocument/publishDiagnostics`` of that version (the diagnostics change with every
edit: a key is broken and mended in turn). Target: within 50 ms.

Then the same for an op with GLSL: every change is a shader no cache has seen, so every
check compiles it. Side by side, in the same run, the bench compiles each of those
shaders itself, through the checker's compile stage (``compile_many``, no cache) and with
the compiler it picks run from the command line as a user would: the target is the
server's latency within that compile time plus 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

GLSL = ("#version 460\nlayout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) readonly buffer In {{ float data[]; }} src;\n"
        "layout(set = 0, binding = 1) writeonly buffer Out {{ float data[]; }} dst;\n"
        "void main() {{\n    uint i = gl_GlobalInvocationID.x;\n"
        "    dst.data[i] = src.data[i] * {scale};\n}}\n")


def plain_op(mended: bool) -> str:
    """About 2 KB of attributes: eight inputs and two outputs, five fields each, and a
    key with a leading zero unless ``mended``."""
    attributes: dict[str, object] = {"entry_point": "main", "workgroup_sizes": [64, 1, 1]}
    for direction, count in (("input", 8), ("output", 2)):
        for index in range(count):
            attributes.update({
                f"{direction}_{index}_binding": index + (8 if direction == "output" else 0),
                f"{direction}_{index}_descriptorset": 0,
                f"{direction}_{index}_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
                f"{direction}_{index}_vkformat": "VK_FORMAT_R32_SFLOAT",
                f"{direction}_{index}_type": "Buffer"})
    text = json.dumps(attributes, indent=2) + "\n"
    return text if mended else text.replace('"input_3_binding"', '"input_03_binding"')


def glsl_op(scale: str) -> str:
    return json.dumps({
        "entry_point": "main", "workgroup_sizes": [64, 1, 1], "shader_language": "GLSL",
        "shader_code": GLSL.format(scale=scale),
        "input_0_binding": 0, "input_0_descriptorset": 0,
        "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
        "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
        "output_0_binding": 1, "output_0_descriptorset": 0,
        "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
        "output_0_vkformat": "VK_FORMAT_R32_SFLOAT"}, indent=2) + "\n"


class Editor:
    """A client that notes when each version's diagnostics arrive."""

    def __init__(self) -> None:
        self.client = LanguageClient("bench-lsp", "1")
        self.arrived: dict[tuple[str, int | None], float] = {}
        self.waiting: dict[tuple[str, int | None], asyncio.Future[float]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            key = (params.uri, params.version)
            self.arrived[key] = time.perf_counter()
            future = self.waiting.pop(key, None)
            if future is not None and not future.done():
                future.set_result(self.arrived[key])

    async def start(self, folder: Path, env: dict[str, str]) -> float:
        started = time.perf_counter()
        await self.client.start_io(sys.executable, "-m", "tosa_vkshader", "lsp", env=env,
                                   cwd=str(folder))
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=folder.as_uri()))
        self.client.initialized(types.InitializedParams())
        return time.perf_counter() - started

    async def diagnostics_of(self, uri: str, version: int) -> float:
        key = (uri, version)
        if key in self.arrived:
            return self.arrived[key]
        future = self.waiting[key] = asyncio.get_running_loop().create_future()
        return await asyncio.wait_for(future, 60)

    async def open(self, path: Path, text: str) -> None:
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(path.as_uri(), "json", 1, text)))
        await self.diagnostics_of(path.as_uri(), 1)

    async def change(self, path: Path, text: str, version: int) -> float:
        """Seconds from sending the change to its diagnostics."""
        sent = time.perf_counter()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version, path.as_uri()),
            [types.TextDocumentContentChangeWholeDocument(text)]))
        return await self.diagnostics_of(path.as_uri(), version) - sent

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


class Compiler:
    """The compiler the checker picks, run here on a shader two ways: through the
    checker's compile stage (``compile_many``, no cache) and from its command line, as a
    user runs it."""

    def __init__(self, folder: Path) -> None:
        from tosa_vkshader.compile import CompileOptions
        from tosa_vkshader.compile.batch import select_compiler
        from tosa_vkshader.compile.compiler import REFERENCE
        from tosa_vkshader.config import Options

        self.folder = folder
        self.info = select_compiler("GLSL", CompileOptions.from_options(Options()))
        # (the reference runtime's glslc has command-line options of its own)
        self.argv = ["--input", "{source}", "--output", "{output}"] \
            if self.info.kind == REFERENCE else \
            ["-fshader-stage=compute", "--target-env=vulkan1.3", "-o", "{output}", "{source}"]

    @property
    def command(self) -> str:
        return " ".join([self.info.path, *self.argv])

    def stage_seconds(self, scale: str) -> float:
        from tosa_vkshader.compile import CompileRequest, compile_many
        from tosa_vkshader.config import Options

        started = time.perf_counter()
        result = compile_many([CompileRequest(GLSL.format(scale=scale), "GLSL")],
                              Options(cache=False))[0]
        assert result.spirv is not None, result.diagnostics
        return time.perf_counter() - started

    def command_seconds(self, scale: str) -> float:
        source, output = self.folder / "shader.comp", self.folder / "shader.spv"
        source.write_text(GLSL.format(scale=scale))
        argv = [a.format(source=source, output=output) for a in self.argv]
        started = time.perf_counter()
        subprocess.run([self.info.path, *argv], check=True)
        return time.perf_counter() - started


@dataclass(slots=True)
class Measured:
    start_up: float  # seconds from starting the server to its answer to initialize
    size: int  # bytes of the op without a shader
    plain: list[float]  # seconds from each change to its diagnostics
    shader: list[float]
    compile: list[float]  # seconds to compile a shader alone (the compile stage)
    glslc: str  # the compiler's command line
    glslc_runs: list[float]  # seconds of the compiler on a shader, from its command line

    @property
    def overhead(self) -> list[float]:
        return [a - b for a, b in zip(self.shader, self.compile, strict=True)]


async def measure(changes: int) -> Measured:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        env = {**os.environ, "TOSA_VKSHADER_CACHE_DIR": str(folder / "cache")}
        editor = Editor()
        start_up = await editor.start(folder, env)
        plain, shader = folder / "plain.json", folder / "shader.json"
        await editor.open(plain, plain_op(True))
        size = len(plain_op(False).encode())
        plain_latency = []
        for version in range(2, changes + 2):
            plain_latency.append(await editor.change(plain, plain_op(version % 2 == 1),
                                                     version))
            await asyncio.sleep(0.02)  # (each edit its own check: none coalesced)
        await editor.open(shader, glsl_op("1.0"))
        compiler = Compiler(folder)
        shader_latency, stage, command = [], [], []
        for version in range(2, changes + 2):
            # Each a shader compiled nowhere before, the three measures in turn, so that
            # all see the machine as it is at that moment.
            shader_latency.append(await editor.change(shader, glsl_op(f"{version}.5"),
                                                      version))
            stage.append(compiler.stage_seconds(f"{version}.25"))
            command.append(compiler.command_seconds(f"{version}.75"))
        await editor.stop()
    return Measured(start_up, size, plain_latency, shader_latency, stage, compiler.command,
                    command)


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(values) * 1000:6.1f} ms, p90 {p90 * 1000:6.1f} ms, "
            f"max {ordered[-1] * 1000:6.1f} ms")


def _over(latency: list[float], compile_time: list[float]) -> str:
    return f"{(statistics.median(latency) - statistics.median(compile_time)) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    found = asyncio.run(measure(args.changes))
    plain, shader, compiles = found.plain, found.shader, found.compile
    lines = [
        f"server start-up to initialize answered: {found.start_up * 1000:.0f} ms",
        f"(a) {found.size} B op without a shader, {len(plain)} changes, change -> "
        f"diagnostics: {_ms(plain)} (target: within 50 ms)",
        f"(b) GLSL op, {len(shader)} changes, each a new shader: change -> diagnostics: "
        f"{_ms(shader)}",
        f"    the same shaders compiled alone (compile_many, no cache): {_ms(compiles)}",
        f"    the same shaders, `{found.glslc}`: {_ms(found.glslc_runs)}",
        f"    latency - compile time, change by change: {_ms(found.overhead)}",
        f"    median latency - median compile time: {_over(shader, compiles)} (compile "
        f"stage), {_over(shader, found.glslc_runs)} (glslc) (target: within 50 ms)",
    ]
    text = "\n".join(lines)
    print(f"```text\n{text}\n```" if args.markdown else text)


if __name__ == "__main__":
    main()
