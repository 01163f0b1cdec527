"""Settings held in plain objects, checked without pydantic (the start path builds no model).

Each field has a default and a *check*: a hand-written test that returns the value as the
pydantic model (``application.session.settings.validation``) would store it, or ``REFUSED``. The
checks are strict on purpose: they accept only what is plainly right (a float field takes an
int or a float, never a bool or a string), and a value they refuse is handed to the pydantic
model, which either coerces it as it always did (``poll_interval = "3"``) or raises its own
``ValidationError``. So the verdicts and messages are pydantic's; the checks only spare the
start-up its import and model builds (~60-90 ms of the Logs screen's first frame, issue 30).
``tests/application/session/test_settings_fields.py`` holds every check to the model.

Kept as a second implementation for that measured saving (issue 39; tests/bench/bench_scans.py
``--settings``): building the session's ``Settings`` in a fresh process takes 36 ms of CPU this
way against 125 ms through ``settings_model`` (pydantic's import, the models' builds and the
validation; min of 8 alternating launches each, load ~15), ~90 ms on every start, whose whole
budget is 1.5x a Textual hello world (247 against 179 ms); nothing else on the start path imports
pydantic.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = [
    "REFUSED",
    "Check",
    "FieldSpec",
    "PlainModel",
    "boolean",
    "choice",
    "number",
    "optional",
    "profile_tables",
    "string",
    "string_table",
    "whole_number",
]

REFUSED: Any = type("Refused", (), {"__repr__": lambda self: "REFUSED"})()
"""What a check returns for a value it does not accept (pydantic then decides)."""

Check = Callable[[Any], Any]

_EXACT_FLOAT = 2**53  # beyond it an int is not exactly a float: left to pydantic


def string(value: Any) -> Any:
    return value if type(value) is str else REFUSED


def boolean(value: Any) -> Any:
    return value if type(value) is bool else REFUSED


def optional(check: Check) -> Check:
    return lambda value: None if value is None else check(value)


def choice(*allowed: str) -> Check:
    return lambda value: value if type(value) is str and value in allowed else REFUSED


def number(
    *, gt: float | None = None, ge: float | None = None, lt: float | None = None, le: float | None = None
) -> Check:
    """A float field (pydantic stores an int as a float); finite and within the bounds."""

    def check(value: Any) -> Any:
        if type(value) is int and -_EXACT_FLOAT <= value <= _EXACT_FLOAT:
            value = float(value)
        if type(value) is not float or not math.isfinite(value):
            return REFUSED
        if (
            (gt is not None and not value > gt)
            or (ge is not None and not value >= ge)
            or (lt is not None and not value < lt)
            or (le is not None and not value <= le)
        ):
            return REFUSED
        return value

    return check


def whole_number(*, gt: int | None = None, ge: int | None = None, lt: int | None = None) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not int:
            return REFUSED
        if (
            (gt is not None and not value > gt)
            or (ge is not None and not value >= ge)
            or (lt is not None and not value < lt)
        ):
            return REFUSED
        return value

    return check


def string_table(value_check: Check = string) -> Check:
    """``dict[str, X]``: a new dict (as pydantic makes), every key a string, every value checked."""

    def check(value: Any) -> Any:
        if type(value) is not dict:
            return REFUSED
        out: dict[str, Any] = {}
        for key, item in value.items():
            if type(key) is not str:
                return REFUSED
            checked = value_check(item)
            if checked is REFUSED:
                return REFUSED
            out[key] = checked
        return out

    return check


def profile_tables(name_problem: Callable[[str], str | None]) -> Check:
    """``profiles``: empty, or tables already validated into ``Profile`` models (a config
    passed on to the session). A table still to validate (the file's) goes to pydantic."""

    def check(value: Any) -> Any:
        if type(value) is not dict:
            return REFUSED
        if not value:
            return {}
        table = sys.modules.get("application.session.settings.profile_table")  # no Profile exists before it is imported
        if table is None:
            return REFUSED
        if any(
            type(key) is not str or name_problem(key) or type(item) is not table.Profile for key, item in value.items()
        ):
            return REFUSED
        return dict(value)

    return check


@dataclass(frozen=True, slots=True)
class FieldSpec:
    check: Check
    default: Any = None
    factory: Callable[[], Any] | None = None

    def make_default(self) -> Any:
        return self.factory() if self.factory is not None else self.default


class _ModelFields:
    """``Cls.model_fields``: the pydantic model's fields (imports it: for editing, tests)."""

    def __get__(self, instance: Any, owner: type[PlainModel]) -> Any:
        return owner.pydantic_model().model_fields


class PlainModel:
    """A settings object with the parts of pydantic's ``BaseModel`` the app uses
    (``model_validate``, ``model_dump``, ``model_fields``, ``model_fields_set``, assignment
    checked like ``validate_assignment``), holding values the checks accepted or the
    pydantic model validated."""

    FIELDS: ClassVar[dict[str, FieldSpec]]
    EXTRA_FORBIDDEN: ClassVar[bool] = False
    CHECK_ASSIGNMENT: ClassVar[bool] = False
    model_fields: ClassVar[Any] = _ModelFields()
    _fields_set: set[str]  # the fields given or assigned (pydantic's model_fields_set)

    def __init__(self, **data: Any) -> None:
        values = self._checked(data)
        if values is None:
            from application.session.settings.validation import values_of

            values = values_of(self.pydantic_model().model_validate(data))  # raises ValidationError
        fields_set = {name for name in data if name in self.FIELDS}
        object.__setattr__(self, "_fields_set", fields_set)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @classmethod
    def pydantic_model(cls) -> Any:
        """The pydantic model that decides what the checks refuse."""
        raise NotImplementedError

    @classmethod
    def _checked(cls, data: Mapping[str, Any]) -> dict[str, Any] | None:
        """Every field's value, when the checks accept all of ``data``; else None."""
        if cls.EXTRA_FORBIDDEN and any(name not in cls.FIELDS for name in data):
            return None
        values: dict[str, Any] = {}
        for name, spec in cls.FIELDS.items():
            value = spec.check(data[name]) if name in data else spec.make_default()
            if value is REFUSED:
                return None
            values[name] = value
        return values if cls._whole_ok(values) else None

    @classmethod
    def _whole_ok(cls, values: dict[str, Any]) -> bool:
        """Checks across fields (the model's ``model_validator``s): False hands to pydantic."""
        return True

    @classmethod
    def model_validate(cls, data: Any) -> Any:
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            cls.pydantic_model().model_validate(data)  # raises pydantic's error
        return cls(**dict(data))

    @property
    def model_fields_set(self) -> set[str]:
        return set(self._fields_set)

    def model_dump(
        self, *, include: set[str] | None = None, exclude_none: bool = False, exclude_unset: bool = False
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.FIELDS:
            if (include is not None and name not in include) or (exclude_unset and name not in self._fields_set):
                continue
            value = getattr(self, name)
            if exclude_none and value is None:
                continue
            out[name] = _dumped(value, exclude_none)
        return out

    def __setattr__(self, name: str, value: Any) -> None:
        spec = self.FIELDS.get(name)
        if spec is None:
            raise ValueError(f'"{type(self).__name__}" object has no field "{name}"')
        if self.CHECK_ASSIGNMENT:
            checked = spec.check(value)
            values = {**{n: getattr(self, n) for n in self.FIELDS}, name: value}
            if checked is REFUSED or not self._whole_ok({**values, name: checked}):
                from application.session.settings.validation import values_of

                checked = values_of(self.pydantic_model().model_validate(values))[name]  # raises ValidationError
            value = checked
        object.__setattr__(self, name, value)
        self._fields_set.add(name)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable, like a pydantic model

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.FIELDS)})"


def _dumped(value: Any, exclude_none: bool) -> Any:
    """As ``model_dump`` gives it: tables copied, nested models as dicts."""
    if isinstance(value, dict):
        return {key: _dumped(item, exclude_none) for key, item in value.items()}
    dump = getattr(value, "model_dump", None)
    return dump(exclude_none=exclude_none) if callable(dump) else value
