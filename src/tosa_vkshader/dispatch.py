"""What the reference runtime launches for an op: arithmetic on `workgroup_sizes`.

The reference converter writes `workgroup_sizes` into the VGF as the segment's dispatch
shape (truncated to uint32) and the runtime calls vkCmdDispatch with it: the invocations
launched are `workgroup_sizes` times the shader's local size, dimension by dimension.
Checking (coverage of a result) and code generation (the workgroup count a shape needs)
share these functions so that what `new` writes is what `check` accepts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

UINT32 = 2**32


def dispatched(sizes: Sequence[int]) -> list[int]:
    """The workgroup counts the runtime dispatches (the converter keeps the low 32 bits)."""
    return [size % UINT32 for size in sizes]


def invocations(sizes: Sequence[int], local: Sequence[int]) -> int:
    """Invocations launched by dispatching ``sizes`` workgroups of ``local``."""
    return math.prod(dispatched(sizes)) * math.prod(local)


def texels(elements: int, components: int) -> int:
    """The units one invocation writes: with a multi-component format (a vec4 buffer over
    an N x 4 tensor) one texel carries ``components`` of the tensor's elements."""
    if components > 1 and elements % components == 0:
        return elements // components
    return elements


def _root_ceil(value: int, degree: int) -> int:
    """The smallest integer r with r ** degree >= value."""
    root = max(1, round(value ** (1 / degree)))
    while root ** degree < value:
        root += 1
    while root > 1 and (root - 1) ** degree >= value:
        root -= 1
    return root


def covering_workgroups(local: Sequence[int], elements: int) -> list[int]:
    """A workgroup count that launches at least ``elements`` invocations: the groups
    needed, spread evenly over the dimensions in which the local size is more than one
    (a 1-D shader gets [n, 1, 1], an 8 x 8 one a square grid)."""
    needed = max(1, -(-elements // max(1, math.prod(local))))
    used = [axis for axis in range(3) if local[axis] > 1] or [0]
    counts = [1, 1, 1]
    remaining = needed
    for position, axis in enumerate(used):
        share = _root_ceil(remaining, len(used) - position)
        counts[axis] = share
        remaining = -(-remaining // share)
    return counts
