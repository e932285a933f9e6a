"""Combining the capability blocks of a Vulkan Profiles document, member by member.

A profile requires every block it lists (and every profile it builds on): a device
meets it only when it meets them all, so two requirements on one member combine into
the stronger one (:func:`require`), by the member's kind in the Vulkan registry
(:mod:`tosa_vkshader.devices.limit_kinds`): a max-type limit takes the larger value, a
min-type limit the smaller, a bit mask the union of its bits, a range the wider one, a
feature is on when any block turns it on, an extension is there when any block lists it.

A nested list of blocks (``[[a, b]]``) offers alternatives: a device meets the profile
with any one of them. What the profile then promises is what every alternative promises
(:func:`any_of`): the weaker of the values (the smaller max-type limit, the common bits,
a feature only when every alternative turns it on) and only the members every
alternative lists. Combined with the required blocks, this is member by member exactly
what the device is sure to have: for each member, "required and (a or b)" holds a value
exactly when "required and a" and "required and b" both do. A need that several members
can each meet (a capability enabled by a feature *or* an extension) is judged member by
member, so it may be flagged although every alternative meets it some other way; it is
never passed when one alternative does not meet it.

Each member remembers which block set its value (``origins``), for the messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

Path = tuple[str, ...]

@cache
def _kinds_of(struct: str) -> dict[str, str]:
    """member -> kind for one property struct. The table loads when two blocks first
    set the same member (a profile of one block, as vulkaninfo writes, never needs it)."""
    from .limit_kinds import ALIASES, KINDS

    by_kind = KINDS.get(ALIASES.get(struct, struct), {})
    return {member: kind for kind, members in by_kind.items() for member in members}


def property_kind(struct: str, member: str) -> str:
    """How a member of a property struct combines: max, min, bitmask, range or exact.

    A member the registry does not know (a newer struct, a typo) is read by its name:
    ``max*`` as max-type, ``min*`` as min-type, anything else as exact (the later block
    wins)."""
    known = _kinds_of(struct).get(member)
    if known is not None:
        return known
    if member.startswith("max"):
        return "max"
    return "min" if member.startswith("min") else "exact"


def nested_struct(struct: str, member: str) -> str | None:
    """The struct of limits a member holds (``VkPhysicalDeviceProperties.limits``)."""
    from .limit_kinds import ALIASES, NESTED

    return NESTED.get(ALIASES.get(struct, struct), {}).get(member)


@dataclass(slots=True)
class Capabilities:
    """What one block, or several combined, says a device has."""

    extensions: dict[str, Any] = field(default_factory=dict)  # name -> spec version
    features: dict[str, dict[str, Any]] = field(default_factory=dict)
    properties: dict[str, dict[str, Any]] = field(default_factory=dict)
    formats: dict[str, dict[str, Any]] | None = None
    # VkCooperativeMatrixPropertiesKHR entries, when a block lists them (our extension of
    # the format: `cooperativeMatrixProperties`, a list of objects with its members)
    cooperative_matrices: list[dict[str, Any]] | None = None
    # ("features", struct, member), ("properties", struct, member[, nested member]),
    # ("extensions", name), ("formats", format) -> which block set it
    origins: dict[Path, str] = field(default_factory=dict)


# -- values -----------------------------------------------------------------------------

def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and all(_is_number(v) for v in value)


def _union(old: list, new: list) -> list:
    return old + [item for item in new if item not in old]


_NOTHING = object()  # no value every alternative promises


def _extreme(larger: bool, one: Any, other: Any) -> Any:
    """The larger (or smaller) of two scalars or of two lists of numbers, element by
    element (a bool is larger when true); _NOTHING when they are not such a pair."""
    if isinstance(one, bool) and isinstance(other, bool):
        return (one or other) if larger else (one and other)
    pick = max if larger else min
    if _is_number(one) and _is_number(other):
        return pick(one, other)
    if _numbers(one) and _numbers(other) and len(one) == len(other):
        return [pick(a, b) for a, b in zip(one, other, strict=True)]
    return _NOTHING


def _stronger(kind: str, old: Any, new: Any) -> Any:
    """The value that meets both requirements (the later one when they do not combine)."""
    if kind in ("max", "min"):
        if isinstance(old, dict) and isinstance(new, dict):  # VkExtent2D and the like
            return {**old, **new, **{k: _stronger(kind, old[k], new[k])
                                     for k in old.keys() & new.keys()}}
        found = _extreme(kind == "max", old, new)
        return new if found is _NOTHING else found
    if kind == "bitmask" and isinstance(old, list) and isinstance(new, list):
        return _union(old, new)
    if kind == "range" and _numbers(old) and _numbers(new) and len(old) == len(new) == 2:
        return [min(old[0], new[0]), max(old[1], new[1])]
    return new


def _weaker(kind: str, one: Any, other: Any) -> Any:
    """What both alternatives promise, or _NOTHING."""
    if kind in ("max", "min"):
        if isinstance(one, dict) and isinstance(other, dict):
            both = {k: _weaker(kind, one[k], other[k]) for k in one.keys() & other.keys()}
            return {k: v for k, v in both.items() if v is not _NOTHING} or _NOTHING
        found = _extreme(kind == "min", one, other)
        if found is not _NOTHING:
            return found
    elif kind == "bitmask" and isinstance(one, list) and isinstance(other, list):
        return [item for item in one if item in other]
    elif kind == "range" and _numbers(one) and _numbers(other) and len(one) == len(other) == 2:
        return [max(one[0], other[0]), min(one[1], other[1])]
    return one if one == other else _NOTHING


# -- structs ----------------------------------------------------------------------------

def _member_kind(section: str, struct: str, member: str, value: Any) -> str:
    if section == "properties":
        return property_kind(struct, member)
    if section == "formats":
        return "bitmask" if isinstance(value, list) else "exact"
    return "max"  # features (VkBool32: on when any block turns it on), extension versions


def _require_members(section: str, struct: str, into: dict[str, Any], members: dict[str, Any],
                     into_origins: dict[Path, str], origins: dict[Path, str], path: Path,
                     ) -> None:
    """Add ``members`` (from a block whose origins are ``origins``) to ``into``."""
    for member, value in members.items():
        here = (*path, member)
        if member not in into:
            into[member] = _copy(value)
            _take_origins(into_origins, origins, here, value)
            continue
        inner = nested_struct(struct, member) if section == "properties" else None
        if inner is not None and isinstance(into[member], dict) and isinstance(value, dict):
            _require_members(section, inner, into[member], value, into_origins, origins, here)
            continue
        combined = _stronger(_member_kind(section, struct, member, value), into[member], value)
        if combined != into[member]:
            into[member] = _copy(combined)
            _take_origins(into_origins, origins, here, value)


def _take_origins(into: dict[Path, str], origins: dict[Path, str], path: Path,
                  value: Any) -> None:
    into[path] = origins.get(path) or _nearest(origins, path)
    if isinstance(value, dict):
        for key, inner in value.items():
            _take_origins(into, origins, (*path, key), inner)


def _note(origins: dict[Path, str], path: Path, value: Any, origin: str) -> None:
    origins[path] = origin
    if isinstance(value, dict):
        for key, inner in value.items():
            _note(origins, (*path, key), inner, origin)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _common_members(section: str, struct: str, one: dict[str, Any], other: dict[str, Any],
                    ) -> dict[str, Any]:
    common = {}
    for member in one.keys() & other.keys():
        inner = nested_struct(struct, member) if section == "properties" else None
        if inner is not None and isinstance(one[member], dict) \
                and isinstance(other[member], dict):
            value: Any = _common_members(section, inner, one[member], other[member])
        else:
            kind = _member_kind(section, struct, member, one[member])
            value = _weaker(kind, one[member], other[member])
            if value is False and kind == "max":  # a feature off: nothing is promised
                continue
        if value is not _NOTHING:
            common[member] = value
    return {member: common[member] for member in one if member in common}


def _common_structs(section: str, one: dict[str, dict[str, Any]],
                    other: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {struct: members for struct in one if struct in other
            and (members := _common_members(section, struct, one[struct], other[struct]))}


# -- blocks -----------------------------------------------------------------------------

def require(into: Capabilities, other: Capabilities) -> None:
    """Add the requirements of ``other`` to ``into`` (a device must meet both)."""
    for name, version in other.extensions.items():
        if name not in into.extensions or _stronger("max", into.extensions[name],
                                                    version) != into.extensions[name]:
            into.extensions[name] = version
            _take_origins(into.origins, other.origins, ("extensions", name), version)
    for section in ("features", "properties"):
        for struct, members in getattr(other, section).items():
            _require_members(section, struct, getattr(into, section).setdefault(struct, {}),
                             members, into.origins, other.origins, (section, struct))
    if other.formats is not None:
        into.formats = into.formats if into.formats is not None else {}
        for name, structs in other.formats.items():
            if name not in into.formats:
                _take_origins(into.origins, other.origins, ("formats", name), None)
            listed = into.formats.setdefault(name, {})
            for struct, members in structs.items():
                _require_members("formats", struct, listed.setdefault(struct, {}), members,
                                 {}, {}, ("formats", name, struct))
    if other.cooperative_matrices is not None:
        into.cooperative_matrices = _union(into.cooperative_matrices or [],
                                           other.cooperative_matrices)


def _nearest(origins: dict[Path, str], path: Path) -> str:
    """The origin of the closest enclosing path that has one."""
    while path:
        if path in origins:
            return origins[path]
        path = path[:-1]
    return ""


def any_of(alternatives: list[Capabilities], origin: str) -> Capabilities:
    """What a device is sure to have when it meets at least one of ``alternatives``."""
    first, *rest = alternatives
    common = Capabilities(
        extensions=dict(first.extensions), features=_copy(first.features),
        properties=_copy(first.properties),
        formats=_copy(first.formats) if first.formats is not None else None,
        cooperative_matrices=_copy(first.cooperative_matrices))
    for other in rest:
        common.extensions = {name: version for name, version in common.extensions.items()
                             if name in other.extensions}
        common.features = _common_structs("features", common.features, other.features)
        common.properties = _common_structs("properties", common.properties,
                                            other.properties)
        if common.formats is None or other.formats is None:
            common.formats = None
        else:
            common.formats = {name: kept for name, structs in common.formats.items()
                              if name in other.formats and (kept := _common_structs(
                                  "formats", structs, other.formats[name]))}
        if common.cooperative_matrices is None or other.cooperative_matrices is None:
            common.cooperative_matrices = None
        else:
            common.cooperative_matrices = [entry for entry in common.cooperative_matrices
                                           if entry in other.cooperative_matrices]
    _note_all(common, origin)
    return common


def _note_all(capabilities: Capabilities, origin: str) -> None:
    for name in capabilities.extensions:
        capabilities.origins[("extensions", name)] = origin
    for section in ("features", "properties"):
        for struct, members in getattr(capabilities, section).items():
            for member, value in members.items():
                _note(capabilities.origins, (section, struct, member), value, origin)
    for name in capabilities.formats or {}:
        capabilities.origins[("formats", name)] = origin


def of_block(extensions: dict[str, Any], features: dict[str, dict[str, Any]],
             properties: dict[str, dict[str, Any]], formats: dict[str, dict[str, Any]] | None,
             cooperative_matrices: list[dict[str, Any]] | None, origin: str) -> Capabilities:
    """One capability block as read (its sections already checked to be objects)."""
    block = Capabilities(dict(extensions), _copy(features), _copy(properties),
                         _copy(formats), _copy(cooperative_matrices))
    _note_all(block, origin)
    return block
