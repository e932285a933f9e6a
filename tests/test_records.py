"""Records (``tosa_vkshader.records``) behave as the dataclasses they replaced: checked
here against ``dataclasses`` itself, class for class, so a difference shows."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from tosa_vkshader.records import FrozenRecordError, as_dict, field, fields, record, replace


@record(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    label: str | None = field(default=None, repr=False)


@dataclasses.dataclass(frozen=True, slots=True)
class PointDataclass:
    x: int
    y: int = 0
    label: str | None = dataclasses.field(default=None, repr=False)


@record
class Bag:
    name: str
    items: list[int] = field(default_factory=list)
    seen: int = 0

    def __post_init__(self) -> None:
        self.seen += 1


@record(eq=False)
class Handle:
    value: int


@record(frozen=True, slots=True)
class Nested:
    points: tuple[Point, ...]
    by_name: dict[str, Point]


def test_construction_defaults_and_repr_match_dataclasses():
    for args, kwargs in (((1,), {}), ((1, 2), {}), ((1,), {"label": "a"}),
                         ((), {"x": 3, "y": 4})):
        ours, theirs = Point(*args, **kwargs), PointDataclass(*args, **kwargs)
        assert (ours.x, ours.y, ours.label) == (theirs.x, theirs.y, theirs.label)
        assert repr(ours) == repr(theirs).replace("PointDataclass", "Point")
    with pytest.raises(TypeError):
        Point()  # x is required
    with pytest.raises(TypeError):
        Point(1, z=2)


def test_frozen_records_refuse_assignment_and_hash_by_value():
    point = Point(1, 2)
    with pytest.raises(FrozenRecordError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del point.y
    assert not hasattr(point, "__dict__")  # slots
    assert point == Point(1, 2) and point != Point(1, 3) and hash(point) == hash(Point(1, 2))
    assert point != PointDataclass(1, 2)  # another class is never equal
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2


def test_mutable_records_are_unhashable_and_factories_give_each_instance_its_own():
    first, second = Bag("a"), Bag("b")
    first.items.append(1)
    assert second.items == [] and first.items == [1]
    assert first.seen == 1  # __post_init__ ran
    with pytest.raises(TypeError):
        hash(first)
    assert Bag("a", [1]) == Bag("a", [1])


def test_eq_false_compares_by_identity():
    one = Handle(1)
    assert one == one and one != Handle(1)
    assert len({one, Handle(1)}) == 2


def test_replace_fields_and_as_dict():
    point = Point(1, 2, "p")
    moved = replace(point, y=7)
    assert moved == Point(1, 7, "p") and point == Point(1, 2, "p")
    with pytest.raises(TypeError):
        replace(point, z=1)
    assert fields(Point) == fields(point) == ("x", "y", "label")
    nested = Nested((Point(1), Point(2, 3)), {"a": Point(4)})
    assert as_dict(nested) == {
        "points": ({"x": 1, "y": 0, "label": None}, {"x": 2, "y": 3, "label": None}),
        "by_name": {"a": {"x": 4, "y": 0, "label": None}}}
    assert as_dict(nested) == dataclasses.asdict(
        _as_dataclass(nested))  # the same shape dataclasses gives


def _as_dataclass(nested: Nested):
    @dataclasses.dataclass
    class NestedDataclass:
        points: tuple
        by_name: dict

    def point(p: Point) -> PointDataclass:
        return PointDataclass(p.x, p.y, p.label)

    return NestedDataclass(tuple(point(p) for p in nested.points),
                           {k: point(v) for k, v in nested.by_name.items()})


@pytest.mark.parametrize("value", [Point(1, 2, "x"), Bag("b", [1, 2]),
                                   Nested((Point(1),), {"k": Point(2)})])
def test_pickle_and_copy_round_trip(value):
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert back == value and type(back) is type(value)
    assert copy.deepcopy(value) == value and copy.copy(value) == value


def test_a_method_the_class_defines_is_kept():
    @record(frozen=True)
    class Shown:
        value: int

        def __repr__(self) -> str:
            return f"<{self.value}>"

    assert repr(Shown(3)) == "<3>"


def test_field_refuses_two_defaults_and_fields_out_of_order():
    with pytest.raises(ValueError):
        field(default=1, default_factory=list)
    with pytest.raises(TypeError, match="'second' without a default follows"):
        @record
        class Unordered:
            first: int = 0
            second: int


def test_as_dict_keeps_named_tuples_named():
    from collections import namedtuple

    Pair = namedtuple("Pair", "left right")
    assert as_dict(Pair(Point(1), 2)) == Pair({"x": 1, "y": 0, "label": None}, 2)
    assert as_dict(Pair(Point(1), 2)) == dataclasses.asdict(
        _Holder(Pair(PointDataclass(1), 2)))["value"]


@dataclasses.dataclass
class _Holder:
    value: object
