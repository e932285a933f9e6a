"""The public Python API. ``tosa_vkshader`` re-exports these names."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

# The checker (rules, readers, registry tables) is imported where files are checked: with
# several processes (check -j), each imports it itself, at the same time as the others,
# after the files were read and shared out.
from typing import TYPE_CHECKING, AnyStr

from .checked import Report
from .config import Options
from .config_file import ConfigResolver, load_options
from .diagnostics import Diagnostic, Severity
from .sources.read import read_text

if TYPE_CHECKING:
    from io import FileIO
    from typing import Any

    from .devices import DeviceProfile
    from .devices.summary import OpVerdict
    from .result_cache import ResultCache
    from .sources.base import SourceFile
    from .sources.jsontext import JsonDocument

    # A file's contents: its bytes, a large model's open file, or text.
    Data = bytes | str | FileIO

ATTRIBUTE_SUFFIXES = (".json", ".mlir", ".tosa")
SKIPPED_FOLDERS = {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__",
                   ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache"}


def _with_targets(options: Options | None, target_device: str | Iterable[str] | None,
                  ) -> Options:
    """``target_device`` (a shipped profile name, a Vulkan Profiles file, or several) adds
    to the options' targets; a target that cannot be read raises ProfileError."""
    options = options or Options()
    if target_device is None:
        return options
    from .devices import load_target

    given = (target_device,) if isinstance(target_device, (str, os.PathLike)) \
        else tuple(target_device)
    specs = tuple(os.fspath(t) for t in given)
    for spec in specs:
        load_target(spec)  # fail here, before any check runs
    return options.with_overrides(target_device=options.target_device + specs)


def validate(obj_or_text: Any, options: Options | None = None, *,
             path: str | None = None,
             target_device: str | Iterable[str] | None = None) -> Report:
    """Check one attribute object given as a dict, JSON text or bytes.

    Text is read like a file: JSON may also be an op object or a list of ops, and a
    ``path`` ending in ``.mlir`` or ``.tosa`` selects the model readers.

    >>> validate({"entry_point": "main", "workgroup_sizes": [8, 8, 1]}).ok
    True

    ``target_device`` names target devices to check the op against (VKS7xx): shipped
    profiles (``"baseline"``, ``"roadmap-2024"``, ``"android-15"``...) or Vulkan Profiles
    JSON files (``FILE#PROFILE`` for one of several).
    """
    from .check import report_for

    return report_for(obj_or_text, _with_targets(options, target_device), path)


def read_file(path: str | os.PathLike[str], options: Options) -> SourceFile:
    """Read one file into ops. Unreadable files give a diagnostic, not an exception."""
    from .sources.base import SourceFile

    return _read_file(os.fspath(path), options, explicit=True) or SourceFile(os.fspath(path))


def _read_file(name: str, options: Options, *, explicit: bool) -> SourceFile | None:
    """The file's ops; for JSON that holds no op (``package.json``), a note when the file
    was named (``explicit``), nothing at all when a folder walk found it."""
    from .sources.base import SourceFile

    data = _file_bytes(name, options)
    if isinstance(data, SourceFile):
        return data  # the refusal
    return _source_of_file(name, data, options, explicit=explicit)


def _file_bytes(name: str, options: Options) -> Data | SourceFile:
    """The file's bytes (a large model: its open file), within the options' size limit;
    a source holding only the refusal when the file cannot (or must not) be read."""
    from .fsutil import open_limited, read_limited

    try:
        if name.endswith(".mlir"):
            return open_limited(name, options.size_limit(name))
        return read_limited(name, options.size_limit(name))
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        from .sources.base import SourceFile
        from .sources.io import refusal

        if isinstance(exc, ValueError):
            exc = OSError("the path contains a NUL byte")
        return SourceFile(name, diagnostics=[refusal(name, exc)])


def _source_of_file(name: str, data: Data, options: Options, *, explicit: bool,
                    document: JsonDocument | None = None) -> SourceFile | None:
    """The ops of a file's bytes (see ``_read_file``); with ``document``, ``data`` is JSON
    text parsed already, without a problem (see :func:`read_parsed`)."""
    from .sources.recognise import not_ours_by_name, skip_reason

    if os.path.splitext(name)[1].lower() in (".mlir", ".tosa"):
        return read_text(data, name, options)
    whose = not_ours_by_name(name)
    if whose is not None:  # never read: several of these are JSON with comments
        return _skipped(name, f"{whose}, not an op document (skipped by its name)",
                        explicit=explicit)
    if document is None:
        source = read_text(data, name, options)
    else:
        from .sources.json_source import read_document

        source = read_document(document, [], name, options)
    reason = skip_reason(source.document)
    return source if reason is None else _skipped(name, reason, explicit=explicit)


def _skipped(name: str, reason: str, *, explicit: bool) -> SourceFile | None:
    """A file that is not an op document (see ``sources.recognise``): a VKS935 note when
    the file was named, else nothing."""
    from .sources.base import SourceFile
    from .sources.recognise import NOT_AN_OP_DOCUMENT

    if not explicit:
        return None
    note = NOT_AN_OP_DOCUMENT.at("", f"skipped {name}: {reason}")
    return SourceFile(name, diagnostics=[note], skipped=reason)


def read_source(data: bytes | str, path: str, options: Options) -> SourceFile:
    """``data`` read as ``check`` reads the file ``path`` named on its command line (the
    reader chosen by the suffix): a JSON file that is not an op document (by its name, or
    valid JSON without any op key; see ``sources.recognise``) comes back without ops,
    holding only the VKS935 note, with ``skipped`` saying why. Every front door that
    reads a file (check, the hook, fix, compile, the web's pasted documents) decides
    through here."""
    source = _source_of_file(path, data, options, explicit=True)
    assert source is not None  # (explicit: a skipped file is a note, never nothing)
    return source


def read_parsed(document: JsonDocument, path: str, options: Options) -> SourceFile:
    """:func:`read_source` of JSON text parsed already, without a problem: the text and
    value of ``document`` as :func:`~.sources.jsontext.parse_json` gives them (see
    :func:`~.sources.jsontext.rendered_document`). ``path`` names a JSON file."""
    assert os.path.splitext(path)[1].lower() not in (".mlir", ".tosa")
    source = _source_of_file(path, document.text, options, explicit=True, document=document)
    assert source is not None  # (explicit: a skipped file is a note, never nothing)
    return source


def check_file(path: str | os.PathLike[str], options: Options | None = None, *,
               target_device: str | Iterable[str] | None = None) -> Report:
    """Check one file on disk, as ``tosa-vkshader check FILE`` does (the same verdict:
    a JSON file that does not parse is an error, one that is not an op is skipped with a
    VKS935 note)."""
    return check_paths([path], options, target_device=target_device)[0]


# :func:`validate` for a file on disk: the same as :func:`check_file`.
validate_file = check_file


def check_text(text: str, path: str, options: Options | None = None, *,
               config: ConfigResolver | None = None) -> Report | None:
    """Check the text of the file at ``path`` as it is being edited (an editor's unsaved
    buffer): read as ``check`` reads the file (:func:`read_source`), with ``options``, or
    those of the ``[tool.tosa-vkshader]`` nearest to ``path`` (``config``), or the
    defaults. None for a file ``check`` passes over when it walks a folder: one its
    ``exclude`` patterns name, or one that is not an op document (``package.json``).
    Raises :class:`~tosa_vkshader.config.ConfigError` for an unusable configuration."""
    options = config.options_for(path) if config is not None else options or Options()
    if _excluded(path, options.exclude):
        return None
    if not path.lower().endswith(".mlir"):  # JSON: the reader enforces the size limit
        source = read_source(text.encode("utf-8", "surrogatepass"), path, options)
    elif len(text) > (limit := options.size_limit(path)) // 4 \
            and (size := len(text.encode("utf-8", "surrogatepass"))) > limit:
        from .fsutil import InputRefused
        from .sources.base import SourceFile
        from .sources.io import refusal

        refused = InputRefused(path, f"the text is {size} bytes; the limit is {limit} bytes",
                               too_large=True)
        source = SourceFile(path, diagnostics=[refusal(path, refused)])
    else:
        source = read_source(text, path, options)
    if source.skipped is not None:
        return None
    from .check import check_source

    return Report(path, check_source(source, options), source)


def iter_files(paths: Iterable[str | os.PathLike[str]],
               options: Options | Callable[[str], Options]) -> Iterator[str]:
    """Files to check: given files as they are, folders walked for attribute files and
    models (``*.json``, ``*.mlir``, ``*.tosa``), skipping the ``exclude`` patterns of the
    options (or of each file's options, when ``options`` maps a path to them); links that
    lead out of a walked folder are left out."""
    for name, _explicit, outside in _files_and_origin(paths, options):
        if outside is None:
            yield name


def _files_and_origin(paths: Iterable[str | os.PathLike[str]],
                      options: Options | Callable[[str], Options]
                      ) -> Iterator[tuple[str, bool, str | None]]:
    """(file, named explicitly, walked folder it leads out of) for the files of
    ``paths``, folders walked. A link out of the folder being walked is never read (see
    VKS940): its third element names that folder; it is None for every other file."""
    from .fsutil import link_leaves

    options_for = options if callable(options) else (lambda _path: options)
    for given in paths:
        name = os.fspath(given)
        if not os.path.isdir(name):
            yield name, True, None
            continue
        for folder, subfolders, files in os.walk(name):
            subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_FOLDERS)
            for file_name in sorted(files):
                if not file_name.endswith(ATTRIBUTE_SUFFIXES):
                    continue
                full = os.path.join(folder, file_name)
                if _excluded(full, options_for(full).exclude):
                    continue
                leaves = os.path.islink(full) and link_leaves(full, name)
                yield full, False, name if leaves else None


def _excluded(path: str, patterns: tuple[str, ...]) -> bool:
    posix = Path(path).as_posix()
    return any(fnmatch.fnmatch(posix, p) or fnmatch.fnmatch(Path(path).name, p)
               for p in patterns)


def check_paths(paths: Iterable[str | os.PathLike[str]], options: Options | None = None, *,
                config: ConfigResolver | None = None,
                target_device: str | Iterable[str] | None = None,
                jobs: int = 1, progress: Progress | None = None,
                results: ResultCache | None = None) -> list[Report]:
    """Check files and folders (walked recursively for ``*.json``, ``*.mlir``, ``*.tosa``).

    With ``options``, every file is checked with them. With ``config`` (a
    :class:`~tosa_vkshader.config.ConfigResolver`), each file is checked with the
    ``[tool.tosa-vkshader]`` nearest to it, as the command line does. With neither, the
    defaults. ``target_device`` adds target devices to whichever options apply. Raises
    :class:`~tosa_vkshader.config.ConfigError` for an unusable config.

    ``jobs`` > 1 lets that many processes share the work when there are enough files
    (forked on Linux, from a process without other threads; elsewhere one process does
    it all). The reports are then :meth:`Report.detached`: no ``source``, but every line
    the reporters show.

    ``progress(files_done, files_total, shaders_compiled)`` is called as the work goes
    on: the files are then checked 64 a process at a time (each batch still compiles and
    analyses its shaders together) instead of all at once.

    With ``results`` (a :class:`~tosa_vkshader.result_cache.ResultCache`, as the command
    line passes), a file checked before with the same bytes, path and options is not
    checked again: its report comes back :meth:`Report.detached`."""
    fixed = options or Options()
    with_targets: dict[int, Options] = {}

    def config_for(path: str) -> Options:
        base = fixed if config is None else config.options_for(path)
        found = with_targets.get(id(base))
        if found is None:
            found = with_targets[id(base)] = _with_targets(base, target_device)
        return found

    files = list(_files_and_origin(paths, config_for))
    # Files that share a configuration are checked together (one compile batch each).
    groups: dict[int, tuple[Options, list[int]]] = {}
    for index, (path, _explicit, _outside) in enumerate(files):
        file_options = config_for(path)
        groups.setdefault(id(file_options), (file_options, []))[1].append(index)
    reports: list[Report | None] = [None] * len(files)
    done = compiled = 0
    for file_options, indices in groups.values():
        step = len(indices) if progress is None else _FILES_PER_WORKER * max(1, jobs)
        for start in range(0, len(indices), max(1, step)):
            batch = indices[start:start + step]
            loaded = [(i, _load(*files[i], file_options)) for i in batch]
            keys: dict[int, str] = {}
            if results is not None:
                loaded, keys = _recall(loaded, files, file_options, results, reports)
            for i, report in _check_loaded(loaded, files, file_options, jobs,
                                           count_compiles=progress is not None):
                if isinstance(report, Report):
                    reports[i] = report
                    if results is not None and i in keys:
                        results.put(keys[i], report)
                else:
                    compiled += report
            done += len(batch)
            if progress is not None:
                progress(done, len(files), compiled)
    return [report for report in reports if report is not None]


def _recall(loaded: list[tuple[int, Data | SourceFile]],
            files: list[tuple[str, bool, str | None]], options: Options,
            results: ResultCache, reports: list[Report | None],
            ) -> tuple[list[tuple[int, Data | SourceFile]], dict[int, str]]:
    """The loaded files ``results`` does not know (the reports of those it knows are put
    in ``reports``), and the keys under which to keep the reports of those it may."""
    unknown: list[tuple[int, Data | SourceFile]] = []
    keys: dict[int, str] = {}
    for i, data in loaded:
        name, explicit, _outside = files[i]
        key = results.key(name, explicit, data, options)
        known = results.get(key) if key is not None else None
        if known is not None:
            reports[i] = known
            continue
        unknown.append((i, data))
        if key is not None:
            keys[i] = key
    return unknown, keys


def _load(name: str, _explicit: bool, outside: str | None, options: Options,
          ) -> Data | SourceFile:
    """A file's bytes, or the note that it leads out of the folder ``outside``."""
    return _file_bytes(name, options) if outside is None else _not_followed(name, outside)


# (files done, files in all, shaders compiled so far)
Progress = Callable[[int, int, int], None]


def _check_loaded(loaded: list[tuple[int, Data | SourceFile]],
                  files: list[tuple[str, bool, str | None]], options: Options, jobs: int, *,
                  count_compiles: bool = False) -> list[tuple[int, Report | int]]:
    """Reports of the loaded files (by index), and with ``count_compiles`` (-1, n)
    entries for the n shaders each process compiled."""
    if not loaded:  # (every file known to the result cache: the checker is not needed)
        return []
    shares = _shares(loaded, jobs)
    detach = len(shares) > 1

    def compiled() -> int:
        if not count_compiles:  # (the compiler's modules are loaded only when needed)
            return 0
        from .compile.batch import compiled_count

        return compiled_count()

    def check_share(share: list[tuple[int, Data | SourceFile]],
                    ) -> list[tuple[int, Report | int]]:
        from .check import check_sources
        from .sources.base import SourceFile

        before = compiled()
        read: list[tuple[int, SourceFile]] = []
        for i, item in share:
            source = _source_of_file(files[i][0], item, options, explicit=files[i][1]) \
                if not isinstance(item, SourceFile) else item
            if source is not None:
                read.append((i, source))
        checked = check_sources([source for _, source in read], options)
        found: list[tuple[int, Report | int]] = [
            (i, Report(source.path, diagnostics, source).detached() if detach
             else Report(source.path, diagnostics, source))
            for (i, source), diagnostics in zip(read, checked, strict=True)]
        found.append((-1, compiled() - before))
        return found

    if not detach:
        return check_share(loaded)
    from .forks import map_in_forks

    return [item for share in map_in_forks(check_share, shares) for item in share]


_FILES_PER_WORKER = 64  # below this, a forked worker costs more than it saves


def _shares(loaded: list[tuple[int, Data | SourceFile]], jobs: int,
            ) -> list[list[tuple[int, Data | SourceFile]]]:
    """``loaded`` files split for ``jobs`` processes (one share when that does not pay).
    Files with the same shader text go to the same share, so that each distinct shader
    is still compiled and analysed once in the run; the rest evens out the shares."""
    count = min(jobs, len(loaded) // _FILES_PER_WORKER)
    if count < 2:
        return [loaded]
    by_shader: dict[bytes | str, list[tuple[int, Data | SourceFile]]] = {}
    plain: list[tuple[int, Data | SourceFile]] = []  # no shader, or unreadable
    for item in loaded:
        key = _shader_text(item[1]) if isinstance(item[1], (bytes, str)) else None
        (by_shader.setdefault(key, []) if key else plain).append(item)
    shares: list[list[tuple[int, Data | SourceFile]]] = [[] for _ in range(count)]
    for group in [*sorted(by_shader.values(), key=len, reverse=True),
                  *([item] for item in plain)]:
        min(shares, key=len).extend(group)
    return [sorted(share, key=lambda item: item[0]) for share in shares if share]


def _shader_text(data: bytes | str) -> bytes | str | None:
    """What identifies a file's shader well enough to keep its users together, before
    the file is parsed: the string after its first ``shader_code`` key (as written, JSON
    escapes and all; in a model, the first op's), or None. ``data`` is a file's bytes,
    or a model's text."""
    if isinstance(data, bytes):
        return _quoted_after(data, b"shader_code", b'"', b"\\")
    return _quoted_after(data, "shader_code", '"', "\\")


def _quoted_after(data: AnyStr, key: AnyStr, quote: AnyStr, backslash: AnyStr,
                  ) -> AnyStr | None:
    """The first quoted string after ``key`` in ``data``, quotes included."""
    at = data.find(key)
    start = data.find(quote, at + len(key) + 1) if at >= 0 else -1
    if start < 0:
        return None
    end = start
    while True:  # the next quote that no backslash escapes (a regex took 20 us a file)
        end = data.find(quote, end + 1)
        if end < 0:
            return None
        before = end - 1
        while data[before:before + 1] == backslash:
            before -= 1
        if (end - 1 - before) % 2 == 0:
            return data[start:end + 1]


def targets_summary(paths: Iterable[str | os.PathLike[str]], options: Options | None = None,
                    *, target_device: str | Iterable[str] | None = None,
                    ) -> tuple[tuple[DeviceProfile, ...], list[OpVerdict]]:
    """Op by op, which target devices can run it: the configured targets
    (``options.target_device``), or every shipped profile when none is configured."""
    from .check import check_ops
    from .devices import SHIPPED, load_targets
    from .devices.summary import verdict

    options = _with_targets(options, target_device)
    if not options.target_device:
        options = options.with_overrides(target_device=tuple(SHIPPED))
    targets = load_targets(options.target_device)
    read = (_read_file(name, options, explicit=explicit)
            for name, explicit, outside in _files_and_origin(paths, options)
            if outside is None)
    ops = [op for source in read if source is not None for op in source.ops]
    verdicts = []
    for op, diagnostics in zip(ops, check_ops(ops, options), strict=True):
        # where the op is: the place a diagnostic on its whole attribute object would get
        whole = Diagnostic("VKS102", Severity.INFO, "", pointer=op.base)
        verdicts.append(verdict(op.path, op.name, op.locate(whole), diagnostics, targets))
    return targets, verdicts


def _not_followed(path: str, root: str) -> SourceFile:
    from .sources.base import SourceFile
    from .sources.io import LINK_LEAVES_FOLDER

    return SourceFile(path, diagnostics=[LINK_LEAVES_FOLDER.at(
        "", f"{path} is a link to a place outside {root}; it is not followed",
        hint="name the link's target on the command line to check it")])


__all__ = ["Options", "Report", "check_file", "check_paths", "check_text", "iter_files",
           "load_options", "read_source", "targets_summary", "validate", "validate_file"]
