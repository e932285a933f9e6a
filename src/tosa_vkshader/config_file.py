"""Reading :class:`~.config.Options` from ``[tool.tosa-vkshader]`` in the nearest
pyproject.toml (each checked file its own, like ruff), every bad option at its line."""

from __future__ import annotations

import math
import os
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from .config import WORKGROUP_SEMANTICS, Options
from .diagnostics import Diagnostic, Location, Rule, Severity
from .rule_registry import RULES, UNKNOWN_CODE, rule, unknown_code
from .tool_table import tool_table

if TYPE_CHECKING:
    from typing import Any

BAD_CONFIG = rule(
    "VKS901",
    summary="The `[tool.tosa-vkshader]` table in pyproject.toml is invalid.",
    why="A misspelled option would otherwise be ignored silently and the check would run "
        "with settings the user did not choose.",
    bad='[tool.tosa-vkshader]\nworkgroup-semantic = "local-size"',
    good='[tool.tosa-vkshader]\nworkgroup-semantics = "local-size"',
)


class ConfigError(ValueError):
    """Raised for unusable configuration; the CLI turns it into exit code 2.

    ``diagnostics`` holds every problem found (each at its own line and column of the
    file), so a user fixes them in one pass; ``diagnostic`` is the first.
    """

    def __init__(self, diagnostics: Diagnostic | list[Diagnostic]) -> None:
        self.diagnostics = diagnostics if isinstance(diagnostics, list) else [diagnostics]
        self.diagnostic = self.diagnostics[0]
        super().__init__("; ".join(d.message for d in self.diagnostics))


class _BadOption(ValueError):
    def __init__(self, message: str, hint: str | None = None, code: Rule = BAD_CONFIG) -> None:
        super().__init__(message)
        self.hint = hint
        self.rule = code


_KEY_TO_FIELD = {name.replace("_", "-"): name for name in (f.name for f in fields(Options))}


def _codes(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(" ", "").split(",") if v]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _fail(f"`{key}` must be a list of rule codes, got {value!r}")
    codes = tuple(v.upper() for v in value)
    for code in codes:
        problem = unknown_code(code)
        if problem:
            raise _BadOption(f"`{key}` names {code!r}, {problem[0]}", problem[1],
                             UNKNOWN_CODE)
    return codes


def _fail(message: str, hint: str | None = None):
    raise _BadOption(message, hint)


def _target_devices(value: Any, path: str) -> tuple[str, ...]:
    """Files (a path or a name ending in .json, optionally with #PROFILE) are resolved
    against the pyproject's folder; bare names (``baseline``) name shipped profiles."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(
            isinstance(v, str) and v for v in value):
        _fail(f"`target-device` must be a profile name or file, or a list of them, "
              f"got {value!r}", 'e.g. target-device = ["baseline", "devices/board.json"]')
    folder = Path(path).resolve().parent

    def resolved(spec: str) -> str:
        file = spec.partition("#")[0]
        is_file = "/" in file or "\\" in file or file.endswith(".json") or (
            folder / file).is_file()
        return str(folder / spec) if is_file else spec

    return tuple(resolved(v) for v in value)


def options_from_table(table: dict[str, Any], path: str = "pyproject.toml",
                       text: str | None = None) -> Options:
    """Options from a ``[tool.tosa-vkshader]`` table; every bad option is reported at
    once (at its key's line and column when ``text``, the file's text, is given)."""
    changes: dict[str, Any] = {}
    problems: list[Diagnostic] = []
    from .toml_positions import option_locations  # only for a pyproject.toml read

    where = option_locations(text) if text is not None else {}
    for key, value in table.items():
        try:
            changes.update(_option(key, value, path))
        except _BadOption as exc:
            line, column = where.get(key, where.get("", (1, 1)))
            problems.append(exc.rule.at("", str(exc), hint=exc.hint)
                            .located(Location(path, line, column)))
    if problems:
        raise ConfigError(problems)
    return Options(**changes)


def _option(key: str, value: Any, path: str) -> dict[str, Any]:
    """One option's field and parsed value; raises _BadOption when it is unusable."""
    changes: dict[str, Any] = {}
    if _has_nul(value):
        _fail(f"`{key}` contains a NUL byte, which no path, name or argument can hold")
    name = _KEY_TO_FIELD.get(key)
    if name is None:
        import difflib

        close = difflib.get_close_matches(key, list(_KEY_TO_FIELD), n=1)
        _fail(f"unknown option `{key}` in [tool.tosa-vkshader]",
              f"did you mean `{close[0]}`?" if close else
              f"known options: {', '.join(sorted(_KEY_TO_FIELD))}")
    if name in ("select", "ignore"):
        changes[name] = _codes(value, key)
    elif name == "exclude":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            _fail(f"`exclude` must be a list of glob patterns, got {value!r}")
        changes[name] = tuple(value)
    elif name == "workgroup_semantics":
        if value not in WORKGROUP_SEMANTICS:
            _fail(f"`workgroup-semantics` is {value!r}",
                  'use "dispatch" (the reference runtime, default) or "local-size" '
                  "(the spec's wording)")
        changes[name] = value
    elif name in ("max_file_size", "max_model_size", "max_depth", "compile_memory_limit"):
        if type(value) is not int or value < 1:
            _fail(f"`{key}` must be a positive integer, got {value!r}")
        changes[name] = value
    elif name in ("target_env", "glslc"):
        if not isinstance(value, str):
            _fail(f"`{key}` must be a string, got {value!r}")
        changes[name] = value
    elif name in ("allow_includes", "cache"):
        if not isinstance(value, bool):
            _fail(f"`{key}` must be true or false, got {value!r}")
        changes[name] = value
    elif name == "compile_timeout":
        if type(value) not in (int, float) or not 0 < value < math.inf:
            _fail(f"`compile-timeout` must be a positive number of seconds, got {value!r}")
        changes[name] = float(value)
    elif name == "macros":
        if not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
                or isinstance(value, list) and all(isinstance(v, str) for v in value)):
            _fail('`macros` must be a table of NAME = "VALUE" or a list of "NAME=VALUE" strings')
        items = value.items() if isinstance(value, dict) else (
            (v.partition("=")[0], v.partition("=")[2] if "=" in v else None) for v in value)
        changes[name] = tuple(items)
    elif name == "include_dirs":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            _fail(f"`include-dirs` must be a list of folders, got {value!r}")
        folder = Path(path).resolve().parent
        changes[name] = tuple(str((folder / v).resolve()) for v in value)
    elif name == "target_device":
        changes[name] = _target_devices(value, path)
    elif name == "severity":
        if not isinstance(value, dict):
            _fail("`severity` must be a table of CODE = \"error|warning|info\"")
        try:
            changes[name] = {c.upper(): Severity.parse(s) for c, s in value.items()}
        except (KeyError, AttributeError):
            _fail(f"`severity` values must be error, warning or info: {value!r}")
        for code in changes[name]:
            problem = unknown_code(code) or (
                None if code in RULES else ("which is a prefix, not one rule", None))
            if problem:
                raise _BadOption(f"`severity` names {code!r}, {problem[0]}", problem[1],
                                 UNKNOWN_CODE)
    return changes


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\0" in value
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    return False


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above ``start`` (a folder, or a file's folder) that
    has a ``[tool.tosa-vkshader]`` table. As with ruff, a pyproject.toml without the table
    (a sub-package's own) is passed over; one that cannot be read is an error when it
    names the tool."""
    start = start.resolve()
    for folder in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _has_table(candidate):
            return candidate
    return None


def _has_table(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if "tosa-vkshader" not in text:
        return False
    try:
        found = tool_table(text)
    except ValueError:  # tomllib.TOMLDecodeError
        return True  # it names the tool: load_options reports where it is broken
    # `tool = 5` beside a mention of the tool: load_options says what is wrong with it
    return not found.tool_is_table or found.table is not None


class ConfigResolver:
    """The options for each checked file: from the nearest ``[tool.tosa-vkshader]`` above
    the file (each file its own, like ruff), or from one explicit ``config_file`` for all;
    ``overrides`` (command-line options) on top. Each configuration is read once."""

    def __init__(self, config_file: Path | None = None, **overrides: Any) -> None:
        self.config_file = config_file
        self.overrides = overrides
        self._by_config: dict[Path | None, Options] = {}
        self._by_folder: dict[Path, Options] = {}
        self._by_given_folder: dict[str, Options] = {}

    def options_for(self, path: str | Path) -> Options:
        """Options for a file or folder (raises ConfigError for an unusable config)."""
        name = os.fspath(path)
        # Files of one folder share their options: the folder's name as given is looked up
        # before anything is resolved (one stat per file instead of a realpath).
        parent = os.path.dirname(name)
        is_folder = os.path.isdir(name)
        known = None if is_folder else self._by_given_folder.get(parent)
        if known is not None:
            return known
        found = self._options_for_folder(Path(path))
        if not is_folder:
            self._by_given_folder[parent] = found
        return found

    def _options_for_folder(self, start: Path) -> Options:
        folder = (start if start.is_dir() else start.parent).resolve()
        found = self._by_folder.get(folder)
        if found is None:
            config = self.config_file or find_pyproject(folder)
            found = self._by_config.get(config)
            if found is None:
                found = load_options(folder, config).with_overrides(**self.overrides)
                self._by_config[config] = found
            self._by_folder[folder] = found
        return found

    def loaded(self) -> list[Options]:
        """Every distinct configuration read so far."""
        return list(self._by_config.values())


def load_options(start: Path | None = None, config_file: Path | None = None) -> Options:
    """Options from ``config_file`` or from the pyproject.toml nearest to ``start``."""
    path = config_file or find_pyproject(start or Path.cwd())
    if path is None:
        return Options()
    try:
        text = path.read_text(encoding="utf-8")
        found = tool_table(text)  # (raises tomllib.TOMLDecodeError, a ValueError)
    except (OSError, ValueError) as exc:
        from .toml_positions import toml_error_position

        line, column = toml_error_position(exc)
        raise ConfigError(BAD_CONFIG.at("", f"cannot read {path}: {exc}")
                          .located(Location(str(path), line, column))) from None
    if not found.tool_is_table:
        import tomllib  # (what `tool` is instead, for the message)

        tool = tomllib.loads(text).get("tool")
        raise ConfigError(BAD_CONFIG.at("", f"`tool` must be a table, got {tool!r:.40}")
                          .located(Location(str(path), 1, 1)))
    table = found.table
    if table is None:
        return Options()
    if not isinstance(table, dict):
        raise ConfigError(BAD_CONFIG.at("", "[tool.tosa-vkshader] must be a table")
                          .located(Location(str(path), 1, 1)))
    return options_from_table(table, str(path), text)
