"""The numpy reference an op is verified against: loaded from ``ref.py:fn`` (or given as a
function), called on each example, its answer checked against the model's results.

``fn`` receives one numpy array per argument of the entry function, in order (copies:
it may change them), and, when the op's shader declares a push-constant block, each
member's value by name as a keyword argument; it returns an array, or a tuple of arrays
(one per result). The reference's own failures are the user's code failing, not the op:
they stop `verify` (exit 2) with the traceback of that code alone, labelled as such. A
reference that calls :func:`assume` with a false condition rejects the example instead
(``hypothesis.assume`` too, which hypothesis deprecates outside its own tests).
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..diagnostics import Location
from .errors import VerifyError
from .rules import REFERENCE_FAILED

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..spirv.records import PushConstantBlock

_PACKAGE = str(Path(__file__).resolve().parent.parent)
_SCALAR = re.compile(r"(u?int|float)(8|16|32|64)|bool")


class Rejected(Exception):
    """The reference rejected the example (:func:`assume` failed in it)."""


def assume(condition: object) -> bool:
    """In a reference: reject the example unless ``condition`` holds (it is not run,
    and shrinking never ends on such an example). Returns True otherwise."""
    if not condition:
        raise Rejected
    return True


@dataclass(frozen=True, slots=True)
class Reference:
    """The reference function, what it is called (``ref.py:relu``), and the reference
    module's ``inputs(st)`` when it defines one."""

    function: Callable[..., Any]
    name: str
    inputs: Callable[..., Any] | None = None


def load_reference(spec: str) -> Reference:
    """``FILE.py:NAME`` or ``package.module:NAME`` (``NAME`` defaults to ``reference``);
    :class:`VerifyError` (VKS971) with the traceback when it cannot be imported."""
    where, _, name = spec.rpartition(":") if ":" in spec else (spec, "", "reference")
    name = name or "reference"
    try:
        module = _import(where)
    except VerifyError:
        raise
    except BaseException as exc:  # the user's module ran; whatever it raised is theirs
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _failure(f"the reference {spec} could not be imported: {_said(exc)}", exc,
                       "fix the error in the reference module (its traceback is shown)"
                       ) from None
    function = getattr(module, name, None)
    if not callable(function):
        defined = sorted(n for n, v in vars(module).items()
                         if callable(v) and not n.startswith("_")
                         and getattr(v, "__module__", None) == module.__name__)
        raise VerifyError([REFERENCE_FAILED.at(
            "", f"the reference module {where} has no function {name!r}",
            hint=f"name one of its functions: {', '.join(defined)}" if defined else
            "define the function, e.g. def reference(x): return np.maximum(x, 0)")])
    inputs = getattr(module, "inputs", None)
    return Reference(function, spec, inputs if callable(inputs) else None)


def _import(where: str) -> Any:
    path = Path(where)
    if where.endswith(".py") or path.is_file():
        if not path.is_file():
            raise VerifyError([REFERENCE_FAILED.at(
                "", f"the reference file {where} does not exist",
                hint="give FILE.py:FUNCTION, the file's path relative to the current "
                     "directory")])
        module_name = f"tosa_vkshader_reference_{abs(hash(str(path.resolve())))}"
        spec = importlib.util.spec_from_file_location(module_name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        folder = str(path.resolve().parent)
        sys.path.insert(0, folder)  # (its own helper modules beside it)
        try:
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(folder)
        return module
    return importlib.import_module(where)


def constraints(reference: Reference, helper: Any) -> Any:
    """What the reference module's ``inputs(st)`` returns for ``helper`` (None when it
    defines none); :class:`VerifyError` (VKS971) when it raises."""
    if reference.inputs is None:
        return None
    try:
        return reference.inputs(helper)
    except Exception as exc:
        raise _failure(f"inputs(st) of the reference {reference.name} raised {_said(exc)}",
                       exc, "fix inputs(st): it returns one strategy (or None) per "
                            "argument, e.g. [st.operand(0, min_value=-8, max_value=8)]"
                       ) from None


def call(reference: Reference, example: Sequence[np.ndarray], keywords: dict[str, Any],
         results: Sequence[tuple[str, tuple[int, ...], str]]) -> list[np.ndarray]:
    """The expected results of ``example``: one array per ``results`` entry (name,
    shape, dtype), cast to its dtype. :class:`Rejected` when the reference rejects the
    example; :class:`VerifyError` (VKS971) when it raises or answers wrongly."""
    from hypothesis.errors import UnsatisfiedAssumption

    arguments = [np.array(array, copy=True) for array in example]
    try:
        with np.errstate(all="ignore"):
            answer = reference.function(*arguments, **keywords)
    except (Rejected, UnsatisfiedAssumption):
        raise Rejected from None
    except Exception as exc:
        raise _failure(f"the reference {reference.name} raised {_said(exc)} on the inputs "
                       f"{describe_example(example)}", exc,
                       "fix the reference, or reject such inputs in it with "
                       "tosa_vkshader.testing.assume(...) or constrain them with inputs(st)"
                       ) from None
    answers = list(answer) if isinstance(answer, tuple) else [answer]
    if len(answers) != len(results):
        raise VerifyError([REFERENCE_FAILED.at(
            "", f"the reference {reference.name} returned {len(answers)} value(s); the "
                f"model has {len(results)} result(s)",
            hint="return one array per result, as a tuple when there are several")])
    return [_expected(reference, value, *result)
            for value, result in zip(answers, results, strict=True)]


def _expected(reference: Reference, value: Any, name: str, shape: tuple[int, ...],
              dtype: str) -> np.ndarray:
    array = np.asarray(value)
    if array.shape != shape and array.size == int(np.prod(shape, dtype=np.int64)):
        array = array.reshape(shape)  # (a scalar for a one-element result, say)
    problem = hint = None
    if array.dtype.kind not in "biuf":  # None, a string, a list of arrays...
        problem = "None" if value is None else f"an array of {array.dtype}" \
            if isinstance(value, np.ndarray) else f"a {type(value).__name__}"
        hint = f"return a numpy array of {dtype} values in the shape {list(shape)}"
    elif array.shape != shape:
        problem = f"an array of shape {list(array.shape)} ({array.size} element(s))"
        hint = f"return an array of the result's shape {list(shape)}"
    elif array.dtype.kind in "iub" and np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        if array.size and (array.min() < info.min or array.max() > info.max):
            wrong = array[(array < info.min) | (array > info.max)].reshape(-1)[0]
            problem = f"{wrong} among its values, outside {dtype}"
            hint = f"return {dtype} values (saturate or wrap in the reference as the op " \
                   "should)"
    elif array.dtype.kind == "f" and np.dtype(dtype).kind in "iub":
        problem = f"{array.dtype} values"
        hint = f"round and convert in the reference as the op does: .astype(np.{dtype})"
    if problem is not None:
        raise VerifyError([REFERENCE_FAILED.at(
            "", f"the reference {reference.name} returned {problem} for {name}, which is "
                f"{dtype} {list(shape)}", hint=hint)])
    with np.errstate(all="ignore"):
        return array.astype(dtype)


def push_constant_values(block: PushConstantBlock | None, data: bytes | None
                         ) -> dict[str, Any]:
    """Each member of the push-constant block by name, read from ``data``: a number for a
    scalar, an array for a vector or matrix (as laid out), the raw bytes for anything
    else."""
    if block is None or data is None:
        return {}
    values: dict[str, Any] = {}
    for member in block.members:
        raw = data[member.offset:member.offset + member.size]
        scalar = _SCALAR.match(member.type)
        if scalar is None:
            values[member.name] = raw
            continue
        dtype = np.dtype("uint32" if scalar.group(0) == "bool" else scalar.group(0))
        dtype = dtype.newbyteorder("<")
        items = np.frombuffer(raw[:len(raw) // dtype.itemsize * dtype.itemsize], dtype=dtype)
        if scalar.group(0) == "bool":
            items = items != 0
        values[member.name] = items[0].item() if items.size == 1 else items.copy()
    return values


def describe_example(example: Sequence[np.ndarray]) -> str:
    return "; ".join(f"argument {index} = {describe_array(array)}"
                     for index, array in enumerate(example))


def describe_array(array: np.ndarray, limit: int = 8) -> str:
    """``float32[64]: all 0.0 except [3] = nan`` when few elements differ from the
    most common one; numpy's summary otherwise."""
    head = f"{array.dtype}{list(array.shape)}"
    flat = array.reshape(-1)
    if flat.size == 0:
        return f"{head}: empty"
    values, counts = np.unique(flat, return_counts=True, equal_nan=True)
    common = values[int(np.argmax(counts))]
    other = ~((flat == common) | (np.isnan(flat) & np.isnan(common))
              if flat.dtype.kind == "f" else flat == common)
    if flat.dtype.kind == "f":
        other |= np.signbit(flat) != np.signbit(common)
    if int(other.sum()) <= limit:
        where = [f"{[int(k) for k in np.unravel_index(i, array.shape)]} = {flat[i]!s}"
                 for i in np.flatnonzero(other)]
        rest = f" except {', '.join(where)}" if where else ""
        return f"{head}: all {common!s}{rest}"
    return f"{head}: " + np.array2string(array, threshold=16, edgeitems=3,
                                         separator=", ").replace("\n", "")


def _said(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _failure(message: str, exc: BaseException, hint: str) -> VerifyError:
    """VKS971 at the line of the reference's code that raised, with the traceback of
    that code alone (the frames of tosa-vkshader and of importlib left out)."""
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
              if not frame.filename.startswith(_PACKAGE)
              and not frame.filename.startswith("<frozen importlib")]
    place = None
    if isinstance(exc, SyntaxError) and exc.filename:
        place = Location(exc.filename, exc.lineno or 1, exc.offset or 1)
    elif frames:
        last = frames[-1]
        place = Location(last.filename, last.lineno or 1, 1)
    lines = ["traceback of the reference (your code), most recent call last:"]
    for text in traceback.format_list(frames):
        lines.extend(text.rstrip("\n").splitlines())
    lines.extend(traceback.format_exception_only(exc)[-1].rstrip("\n").splitlines())
    diagnostic = REFERENCE_FAILED.at("", message, hint=hint)
    return VerifyError([diagnostic.located(place)] if place else [diagnostic],
                       details=tuple(lines))
