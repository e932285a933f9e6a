"""Turn compiler messages into diagnostics positioned inside the shader source."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..diagnostics import Diagnostic, InnerPosition, Severity
from ..rule_registry import rule
from .compiler import CompilerInfo
from .messages import CompilerMessage

COMPILE_ERROR = rule(
    "VKS300",
    summary="The GLSL/HLSL compiler rejected the shader code.",
    why="The reference runtime compiles the same text with the same front end (glslang); "
        "an op whose shader does not compile fails when the model is loaded on the device.",
    bad='"shader_code": "void main() {\\n  int x = ;\\n}"',
    good='"shader_code": "void main() {\\n  int x = 1;\\n}"',
)
COMPILE_WARNING = rule(
    "VKS301",
    summary="The GLSL/HLSL compiler warned about the shader code.",
    why="Compiler warnings often point at code that does not do what it says, such as an "
        "ignored attribute or an extension the compiler does not know.",
    bad='"shader_code": "#version 460\\n#extension GL_FOO_bar : enable\\nvoid main() {}"',
    good='"shader_code": "#version 460\\nvoid main() {}"',
)
TENSORS_UNSUPPORTED = rule(
    "VKS305",
    summary="The shader uses GL_ARM_tensors but the installed compiler does not know it.",
    why="Tensor resources (VK_ARM_tensors) need glslang 16.0.0 or newer; older compilers "
        "report a cascade of syntax errors that hide the real cause.",
    bad="#extension GL_ARM_tensors : require   (compiled with Debian 12's glslc, glslang 11)",
    good="(the same shader compiled with a glslc built on glslang 16.0.0 or newer)",
)
COMPILER_INTERNAL_ERROR = rule(
    "VKS306",
    summary="The compiler accepted the shader but failed while producing SPIR-V.",
    why="The result is not usable, and the cause is usually a known compiler bug that a "
        "newer compiler fixes, not the shader.",
    bad="RWStructuredBuffer<float> b;  (HLSL, SPIR-V 1.6, glslang older than 12.1)",
    good="(the same shader compiled with glslang 12.1 or newer)",
)
ENTRY_POINT_NOT_FOUND = rule(
    "VKS307",
    summary="The HLSL source has no function named like `entry_point`.",
    why="glslc only warns and then emits an empty entry point of that name, so the op "
        "would silently run a shader that does nothing.",
    bad='"entry_point": "csmain", "shader_code": "... void CSMain(...) {...}"',
    good='"entry_point": "CSMain", "shader_code": "... void CSMain(...) {...}"',
)

# GL_ARM_tensors landed in glslang with KhronosGroup/glslang#3984 (mid-2025, after the
# 15.4.0 release), so the first release that has it is 16.0.0.
ARM_TENSORS_GLSLANG = (16, 0, 0)

_QUOTED = re.compile(r"^'(?P<token>[^']*)' :\s*(?P<rest>.*)$")
_UNEXPECTED = re.compile(r"unexpected (?P<name>[A-Z_]+)")
_TOKEN_SPELLING = {
    "SEMICOLON": ";", "COMMA": ",", "COLON": ":", "DOT": ".", "EQUAL": "=",
    "LEFT_PAREN": "(", "RIGHT_PAREN": ")", "LEFT_BRACE": "{", "RIGHT_BRACE": "}",
    "LEFT_BRACKET": "[", "RIGHT_BRACKET": "]", "LEFT_ANGLE": "<", "RIGHT_ANGLE": ">",
    "PLUS": "+", "DASH": "-", "STAR": "*", "SLASH": "/", "PERCENT": "%", "BANG": "!",
    "QUESTION": "?", "AMPERSAND": "&", "VERTICAL_BAR": "|", "CARET": "^", "TILDE": "~",
}
_HINTS = (
    ("compute shaders require", "write `#version 460` (what the reference runtime assumes "
                                "when the shader has none) or remove the #version line"),
    ("Missing entry point", "a GLSL compute shader needs `void main()`"),
    ("required extension not requested: GL_ARB_compute_shader",
     "compute shaders need #version 430 or newer; the default is 460"),
)
_KNOWN_CAUSES = (
    ("BufferBlock", "glslang older than 12.1 decorates HLSL storage buffers with BufferBlock, "
                    "which SPIR-V 1.4+ forbids: leave `target_spv` unset (HLSL is then "
                    "compiled for SPIR-V 1.3), or install a newer glslc (a recent Vulkan "
                    "SDK) and point `glslc` in [tool.tosa-vkshader] at it"),
)


@dataclass(slots=True)
class SourceContext:
    """What the mapper needs to know about one compiled source."""

    source: str
    language: str
    code_pointer: str
    entry_pointer: str
    entry_point: str
    compiler: CompilerInfo | None
    # printed path of an included file -> the #include line/column in the shader
    include_sites: dict[str, tuple[int, int]] = field(default_factory=dict)
    _lines: list[str] | None = None

    def line_text(self, line: int) -> str | None:
        if self._lines is None:
            self._lines = [t.rstrip("\r") for t in self.source.split("\n")]
        return self._lines[line - 1] if 1 <= line <= len(self._lines) else None

    @property
    def line_count(self) -> int:
        self.line_text(1)
        assert self._lines is not None
        return len(self._lines)


def _column(text: str, token: str) -> int:
    """1-based column of ``token`` in ``text``, else of its first non-blank character."""
    if token:
        pattern = (r"\b" + re.escape(token) + r"\b") if re.fullmatch(r"\w+", token) \
            else re.escape(token)
        match = re.search(pattern, text)
        if match:
            return match.start() + 1
    stripped = len(text) - len(text.lstrip())
    return stripped + 1


def _split_token(text: str) -> tuple[str, str]:
    """``'x' : undeclared identifier`` -> ("x", "undeclared identifier")."""
    match = _QUOTED.match(text)
    if not match:
        return "", text
    token, rest = match.group("token"), match.group("rest").strip()
    if not token:
        unexpected = _UNEXPECTED.search(rest)
        if unexpected:
            token = _TOKEN_SPELLING.get(unexpected.group("name"), "")
    return token, rest


def _version_text(version: tuple[int, int, int] | None) -> str:
    return ".".join(map(str, version)) if version else "an unknown version"


def to_diagnostic(msg: CompilerMessage, ctx: SourceContext, own_file: bool) -> Diagnostic:
    token, rest = _split_token(msg.full_text)
    inner: InnerPosition | None = None
    where = ""
    if own_file and msg.line is not None:
        line = min(max(msg.line, 1), ctx.line_count)
        text = ctx.line_text(line) or ""
        column = msg.column if msg.column is not None else _column(text, token)
        inner = InnerPosition(line, column)
    elif msg.file is not None and not own_file:
        site = ctx.include_sites.get(msg.file)
        if site is not None:
            inner = InnerPosition(*site)
        where = f"in included file `{msg.file}`" + (f" line {msg.line}" if msg.line else "") + ": "
    near = f" (at `{token}`)" if token else ""

    if "GL_ARM_tensors" in rest and "extension not supported" in rest:
        have = ctx.compiler.glslang_version if ctx.compiler else None
        path = ctx.compiler.path if ctx.compiler else "glslc"
        need = _version_text(ARM_TENSORS_GLSLANG)
        return TENSORS_UNSUPPORTED.at(
            ctx.code_pointer,
            f"GL_ARM_tensors needs glslang {need} or newer; {path} has glslang "
            f"{_version_text(have)}",
            hint="install a glslc built on glslang 16.0.0 or newer (a recent Vulkan SDK) and "
                 "point `glslc` in [tool.tosa-vkshader] at it",
            inner=inner,
            severity=Severity.ERROR if msg.severity == "error" else Severity.WARNING)
    if "Entry point not found" in rest:
        return ENTRY_POINT_NOT_FOUND.at(
            ctx.entry_pointer,
            f"the HLSL source has no function `{ctx.entry_point}` (from entry_point)",
            hint=_numthreads_hint(ctx.source))
    if msg.tool == "shaderc":
        hint = next((h for key, h in _KNOWN_CAUSES if key in msg.full_text), None)
        return COMPILER_INTERNAL_ERROR.at(
            ctx.code_pointer, f"{ctx.language} compiler failed after parsing: {msg.full_text}",
            hint=hint)
    rule_ = COMPILE_ERROR if msg.severity == "error" else COMPILE_WARNING
    hint = next((h for key, h in _HINTS if key in rest), None)
    return rule_.at(ctx.code_pointer, f"{ctx.language} {msg.severity}: {where}{rest}{near}",
                    inner=inner, hint=hint)


def _numthreads_hint(source: str) -> str:
    """`set entry_point to "CSMain"` when the source has one [numthreads] function."""
    from .declarations import declarations

    kernels = [d.function for d in declarations(source, "HLSL").statements if d.function]
    if len(kernels) == 1:
        return f'set entry_point to "{kernels[0]}"'
    return "set entry_point to the name of the [numthreads] function"


def tensor_cascade(diags: list[Diagnostic]) -> list[Diagnostic]:
    """When the compiler does not know GL_ARM_tensors, the errors after it are its
    consequences: keep the one clear diagnostic and say how many were hidden."""
    tensor = [d for d in diags if d.code == TENSORS_UNSUPPORTED.code]
    if not tensor or tensor[0].severity != Severity.ERROR:
        return diags
    hidden = [d for d in diags if d.code == COMPILE_ERROR.code]
    kept = [d for d in diags if d.code != COMPILE_ERROR.code]
    if hidden:
        first = kept.index(tensor[0])
        kept[first] = replace(tensor[0], message=tensor[0].message +
                              f" ({len(hidden)} follow-on compiler errors not shown)")
    return kept
