"""The shader stage: from an op's shader fields to a :class:`Shader`, once per content.

    outcomes = build_shaders([request_for(attrs), ...], options)

For each request: embedded SPIR-V is decoded; GLSL/HLSL sources of the whole run are
compiled together (one glslc process per macro set, identical sources once, results
cached on disk by source, language, options and compiler identity). Every distinct module
(bytes + entry point) is then read, validated by spirv-val (one process per distinct
module, a process per core, verdicts cached on disk by content and tool) and reflected
exactly once; ops that carry the same shader share its :class:`Shader`.

This stage knows nothing about attribute rules: the rules that compare attributes with
the shader receive the :class:`Shader` from the pipeline (``check.py``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from hashlib import sha256
from typing import TYPE_CHECKING

from ..config import Options
from ..diagnostics import Severity, pointer_join
from ..spirv_base64 import embedded_module
from .record import LANGUAGES, Shader, ShaderOutcome, ShaderRequest

if TYPE_CHECKING:
    from typing import Any

    from ..compile import CompileRequest


def request_for(attributes: Any, base: str = "") -> ShaderRequest | None:
    """The shader fields of one attribute object, or None when it carries no shader code
    in a known language."""
    if not isinstance(attributes, dict):
        return None
    language, code = attributes.get("shader_language"), attributes.get("shader_code")
    if language not in LANGUAGES or not isinstance(code, str) or not code:
        return None
    entry = attributes.get("entry_point")
    return ShaderRequest(language, code, entry if isinstance(entry, str) else None,
                         pointer_join(base, "shader_code"), pointer_join(base, "entry_point"))


def build_shader(request: ShaderRequest, options: Options | None = None) -> ShaderOutcome:
    """One op's shader (see :func:`build_shaders`, which a run of many ops should call)."""
    return build_shaders([request], options or Options())[0] or ShaderOutcome(None)


def build_shaders(requests: Sequence[ShaderRequest | None],
                  options: Options) -> list[ShaderOutcome | None]:
    """One outcome per request (None for None). A SPIR-V request whose code is not strict
    base64 of a module header gets None: the attribute rules (VKS206-VKS208) report it."""
    modules: list[tuple[bytes, Any] | None] = [None] * len(requests)
    outcomes: list[ShaderOutcome | None] = [None] * len(requests)
    compiled = [k for k, r in enumerate(requests) if r is not None and r.language != "SPIR-V"]
    decoded: dict[str, bytes | None] = {}  # each distinct code once (a model repeats them)
    for k, request in enumerate(requests):
        if request is not None and request.language == "SPIR-V":
            if request.code not in decoded:
                decoded[request.code] = embedded_module(request.code)
            data = decoded[request.code]
            if data is not None:
                modules[k] = (data, None)
                outcomes[k] = ShaderOutcome(None)
    if compiled:
        _compile(requests, compiled, options, modules, outcomes)
    keys = _module_keys(requests, modules)
    memo = _analyse_distinct(requests, modules, keys, options)
    for k, request in enumerate(requests):
        module, outcome, key = modules[k], outcomes[k], keys[k]
        if module is None or outcome is None or request is None or key is None:
            continue
        shader = memo[key]
        outcome.shader = shader
        outcome.diagnostics.extend(replace(d, pointer=request.code_pointer)
                                   for d in shader.findings)
    return outcomes


def _compile(requests: Sequence[ShaderRequest | None], compiled: list[int], options: Options,
             modules: list[tuple[bytes, Any] | None],
             outcomes: list[ShaderOutcome | None]) -> None:
    """Compile every GLSL/HLSL request of the run in one batch; where the shader uses a
    configured macro, again without it, as the reference runtime compiles it; and say
    where it includes files, which the runtime cannot."""
    from ..compile import CompileOptions, compile_many
    from ..compile.includes import includes_not_in_runtime
    from ..compile.unseen_macros import unseen_macros

    batch = []
    for k in compiled:
        request = requests[k]
        assert request is not None
        batch.append(compile_request(request))
    opts = CompileOptions.from_options(options)
    results = compile_many(batch, opts)
    macros = unseen_macros(batch, results, opts)
    includes = includes_not_in_runtime(batch, results)
    for k, result, unseen, unresolved in zip(compiled, results, macros, includes,
                                             strict=True):
        outcomes[k] = ShaderOutcome(None, [*result.diagnostics, *unseen, *unresolved])
        if result.spirv is not None:
            modules[k] = (result.spirv, result.compiler)


def compile_request(request: ShaderRequest) -> CompileRequest:
    """What the compiler is asked for a GLSL/HLSL shader request (the entry point
    defaults to ``main``)."""
    from ..compile import CompileRequest

    return CompileRequest(
        # (only GLSL/HLSL requests are compiled: never SPIR-V here)
        request.code, request.language,  # type: ignore[arg-type]
        request.entry_point if request.entry_point is not None else "main",
        code_pointer=request.code_pointer, entry_pointer=request.entry_pointer)


def _entry(request: ShaderRequest) -> str | None:
    return request.entry_point or None


def _module_keys(requests: Sequence[ShaderRequest | None],
                 modules: list[tuple[bytes, Any] | None]) -> list[tuple | None]:
    """What tells each request's shader apart (None without a module): the module's
    digest, the entry point, the language and the compiler. Each module object is
    hashed once (requests of the same code share one)."""
    digests: dict[int, bytes] = {}
    keys: list[tuple | None] = []
    for request, module in zip(requests, modules, strict=True):
        if module is None or request is None:
            keys.append(None)
            continue
        data, compiler = module
        if id(data) not in digests:
            digests[id(data)] = sha256(data).digest()
        identity = compiler.identity if compiler is not None else None
        keys.append((digests[id(data)], _entry(request), request.language, identity))
    return keys


class _ShaderMemo:
    """The shaders this process has built, by module key and target environment: a
    server, an editor or a loop over the API checks the same module again and again, and
    reading, validating, reflecting and analysing it again (each from its disk cache) cost
    more than the rest of a small op's check. Bounded, least recently used out first;
    thread-safe (the web and the language server check from several threads)."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._shaders: OrderedDict[tuple, Shader] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> Shader | None:
        with self._lock:
            shader = self._shaders.get(key)
            if shader is not None:
                self._shaders.move_to_end(key)
            return shader

    def put(self, key: tuple, shader: Shader) -> None:
        with self._lock:
            self._shaders[key] = shader
            self._shaders.move_to_end(key)
            while len(self._shaders) > self.max_entries:
                self._shaders.popitem(last=False)


_MEMO = _ShaderMemo(256)


def _analyse_distinct(requests: Sequence[ShaderRequest | None],
                      modules: list[tuple[bytes, Any] | None], keys: list[tuple | None],
                      options: Options) -> dict[tuple, Shader]:
    """Read, validate and reflect every distinct module once (and once per process, unless
    the options ask for no cache)."""
    from ..spirv.analysis import SPIRV_OPT_VAR
    from ..spirv.tools import find_spirv_tool
    from ..spirv.validate import find_spirv_val

    # (what spirv-val says depends on the target environment and on which one runs; what
    # the analysis finds, on the optimizer that canonicalises the module)
    context = (options.target_env, find_spirv_val(), find_spirv_tool("spirv-opt",
                                                                     SPIRV_OPT_VAR))
    distinct: dict[tuple, tuple[bytes, ShaderRequest, Any]] = {}
    memo: dict[tuple, Shader] = {}
    for request, produced, key in zip(requests, modules, keys, strict=True):
        if produced is not None and request is not None and key is not None:
            if key in memo or key in distinct:
                continue
            known = _MEMO.get((key, *context)) if options.cache else None
            if known is not None:
                memo[key] = known
            else:
                distinct[key] = (produced[0], request, produced[1])
    if distinct:
        for key, shader in _build_distinct(distinct, options).items():
            memo[key] = shader
            _MEMO.put((key, *context), shader)
    return memo


def _build_distinct(distinct: dict[tuple, tuple[bytes, ShaderRequest, Any]],
                    options: Options) -> dict[tuple, Shader]:
    """Read, validate, reflect and analyse each of the modules ``distinct``."""
    from ..spirv.reader import NOT_SPIRV, read_module
    from ..spirv.reflect import reflect
    from ..spirv.validate import find_spirv_val, prevalidate, validate

    read = {key: read_module(data, "") for key, (data, _, _) in distinct.items()}
    to_validate = {key for key, (module, found) in read.items()
                   if module is not None and module.complete
                   and not any(d.code == NOT_SPIRV.code for d in found)}
    prevalidate([distinct[key][0] for key in to_validate], options.target_env,
                use_disk_cache=options.cache)
    tool = find_spirv_val()
    built: dict[tuple, tuple[list, Any]] = {}
    for key, (data, request, _compiler) in distinct.items():
        module, findings = read[key]
        findings = list(findings)
        reflection = None
        if module is not None and module.complete:
            if key in to_validate:
                findings += validate(data, "", options.target_env, use_disk_cache=options.cache)
            reflection = reflect(module, _entry(request))
        built[key] = (findings, reflection)
    accesses = _index_analysis(distinct, built, options)
    memo: dict[tuple, Shader] = {}
    for key, (data, request, compiler) in distinct.items():
        findings, reflection = built[key]
        memo[key] = Shader(data, request.language, _entry(request), compiler,
                           tool if key in to_validate else None, tuple(findings), reflection,
                           read[key][0], accesses.get(key))
    return memo


def _index_analysis(distinct: dict[tuple, tuple[bytes, ShaderRequest, Any]],
                    built: dict[tuple, tuple[list, Any]], options: Options) -> dict[tuple, Any]:
    """The index analysis of every module that spirv-val accepts and whose entry point was
    found, in one batch (spirv-opt a process per core for those not in the cache)."""
    wanted = [key for key, (findings, reflection) in built.items()
              if reflection is not None and reflection.entry_point is not None
              and reflection.execution_model == "GLCompute"
              and not any(d.severity is Severity.ERROR for d in findings)]
    if not wanted:
        return {}
    from ..spirv.analysis import analyse_many

    requests = []
    for key in wanted:
        reflection = built[key][1]
        local = reflection.local_size.values if reflection.local_size is not None else None
        requests.append((distinct[key][0], reflection.entry_point, local))
    return dict(zip(wanted, analyse_many(requests, use_disk_cache=options.cache),
                    strict=True))

