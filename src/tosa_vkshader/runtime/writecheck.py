"""The write check: what two dispatches from two fillings of the outputs prove about a
result.

Every output was filled with zeros before the first dispatch (what the scenario runner
hands a shader anyway: the first dispatch's results are the ones returned, the same as
without the check) and with all ones before the second, a NaN for every float type
(``scenario.PATTERNS``: every byte of one differs from the other's). Afterwards, for
each result element (its bytes in the result's dtype):

- 0 after the first dispatch and the sentinel after the second: **never written**
  (VKS962). No value equals both, so a value the shader computed, 0 included, is never
  taken for one;
- different after the two dispatches otherwise: the result **depends on what the
  output held** before the dispatch (VKS964, a warning): the shader reads an output
  before writing it (`y[i] += x`, an `atomicAdd` into a histogram) or its invocations
  race. The runner's zeros make such an op compute as written here, but Vulkan leaves an
  output's contents undefined. For such a result the elements it left as they were
  cannot be told from those it added nothing to, so VKS962 is not claimed for it;

and the bytes of the output resource beyond the result (a buffer the VGF sizes larger
than its result: a multi-component format over a tensor of scalars) are a guard zone:
any of them changed means the shader **wrote past the end** of the result (VKS963). The
runner refuses a buffer of another size than the VGF's, so a buffer that is exactly its
result has no guard zone: where the index analysis does not prove an op's stores inside
its buffers, the run adds the validation layer's GPU-assisted checks (``proof.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..dispatch import dispatched
from .npyfile import itemsize
from .rules import READS_OUTPUT, UNWRITTEN_ELEMENTS, WRITE_PAST_END
from .scenario import PATTERNS

if TYPE_CHECKING:
    import numpy as np

    from ..diagnostics import Diagnostic
    from .layout import RawOutput
    from .model import Argument
    from .shaders import ShaderOp

# At most this many indices are listed in a finding.
LISTED = 5


def covering_dispatch(producer: ShaderOp | None) -> list[int] | None:
    """The ``workgroup_sizes`` that make the op ``producer`` write every element of its
    results and nothing past them, when the SPIR-V index analysis proves one (read from
    what the shader's stores address: which invocation axis walks which axis of a result,
    how many elements an invocation writes); None when it does not, or when it is the
    dispatch that ran. Nothing here guesses it from counts: a finding's hint claims only
    what is proven. (Asked only when elements were found unwritten.)"""
    if producer is None or producer.shader is None or producer.view is None:
        return None
    from ..rules.coverage import covering_for

    cover = covering_for(producer.view, producer.shader)
    if cover is None or not cover.exact:
        return None
    groups = list(cover.groups)
    sizes = producer.view.attrs.get("workgroup_sizes")
    ran = dispatched(sizes) if isinstance(sizes, list) and \
        all(type(s) is int for s in sizes) else None
    return None if groups == ran else groups


def check_result(result: Argument, first: RawOutput, second: RawOutput, about: str,
                 producer: ShaderOp | None) -> list[Diagnostic]:
    """The findings about ``result`` (``about`` names it and the op that writes it,
    ``producer``). A result that came out the same from both dispatches, with the bytes
    after it untouched, is compared as bytes (the usual case, at memory speed)."""
    shape = result.shape or ()
    count = math.prod(shape)
    width = itemsize(result.dtype or "uint8")
    size = count * width
    found = _past_the_end(first, second, size, about)
    if first.data[:size] == second.data[:size]:
        return found  # every element written, the same way both times
    import numpy as np

    a = np.frombuffer(first.data, dtype=np.uint8, count=size).reshape(count, width)
    b = np.frombuffer(second.data, dtype=np.uint8, count=size).reshape(count, width)
    unwritten = (a == PATTERNS[0]).all(axis=1) & (b == PATTERNS[1]).all(axis=1)
    # A value the shader wrote is the same in both (even one that equals a filling).
    differ = ~unwritten & (a != b).any(axis=1)
    if differ.any():
        found.append(READS_OUTPUT.at(
            "", f"{about}: {int(differ.sum())} of {count} element(s) came out differently "
                "from two dispatches that differed only in what the output held before "
                "them (the runner's zeros, then a sentinel): the shader reads the output "
                f"before writing it, or its invocations race; {_where(differ.reshape(shape))}",
            hint="write every element of an output before reading it (its initial contents "
                 "are undefined), or make the invocations that write it not race"))
    elif unwritten.any():
        mask = unwritten.reshape(shape)
        dispatch = covering_dispatch(producer)
        covered = f"; workgroup_sizes {dispatch} writes every element" if dispatch else ""
        found.append(UNWRITTEN_ELEMENTS.at(
            "", f"{about}: {int(unwritten.sum())} of {count} element(s) were never written "
                f"(they hold what the output was filled with, the runner's zeros and then a "
                f"sentinel); {_where(mask)}{covered}"))
    return found


def _past_the_end(first: RawOutput, second: RawOutput, size: int,
                  about: str) -> list[Diagnostic]:
    total = min(len(first.data), len(second.data))
    if total <= size or (first.data[size:total] == bytes([PATTERNS[0]]) * (total - size)
                         and second.data[size:total] == bytes([PATTERNS[1]]) * (total - size)):
        return []
    import numpy as np

    tail_a = np.frombuffer(first.data, dtype=np.uint8)[size:total]
    tail_b = np.frombuffer(second.data, dtype=np.uint8)[size:total]
    offsets = np.flatnonzero((tail_a != PATTERNS[0]) | (tail_b != PATTERNS[1]))
    return [WRITE_PAST_END.at(
        "", f"{about}: the shader wrote {len(offsets)} byte(s) past the end of the result, "
            f"at bytes {size + int(offsets[0])}..{size + int(offsets[-1])} of the "
            f"{total}-byte output resource (the result is its first {size} bytes)",
        hint="make the output's vkformat one texel per element of the result, or guard the "
             "store with the result's size")]


def _where(mask: np.ndarray) -> str:
    """The first indices of ``mask`` and the box that holds all of them."""
    import numpy as np

    points = np.argwhere(mask)
    listed = ", ".join(str([int(i) for i in point]) for point in points[:LISTED])
    if len(points) > LISTED:
        listed += ", ..."
    if mask.ndim == 0:
        return "the only element"
    low, high = points.min(axis=0), points.max(axis=0)
    box = ", ".join(f"{int(lo)}:{int(hi) + 1}" for lo, hi in zip(low, high, strict=True))
    return f"first at {listed}; all within [{box}] of shape {list(mask.shape)}"
