"""The plain settings checks (``application.session.settings.fields``) against the pydantic models
(``application.session.settings.validation``), which decide whatever the checks refuse.

The start path reads the config and builds the session's settings without pydantic (issue 30):
that is only right while every value a check accepts is one the model accepts too, stored the
same (an int poll interval becomes a float). These tests hold each field to that, on values at
and past every bound, of every wrong type, and check that what the checks refuse still gets the
model's verdict (coerced, or pydantic's ``ValidationError``)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from application.session.settings.config import Config, make_config
from application.session.settings.fields import REFUSED
from application.session.settings.profile_table import Profile
from application.session.settings.typed import Settings
from application.session.settings.validation import ConfigModel, SettingsModel

SAMPLES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    200,
    299,
    300,
    301,
    500,
    65535,
    65536,
    2**53,
    2**53 + 1,
    10**400,
    0.0,
    0.1,
    0.19999,
    0.2,
    0.25,
    1.5,
    2.0,
    300.0,
    300.0001,
    -0.5,
    math.inf,
    -math.inf,
    math.nan,
    "",
    " ",
    "x",
    "3",
    "3.5",
    "fast",
    "local",
    "UTC",
    "utc",
    "true",
    "blah-dark",
    b"bytes",
    [],
    ["a"],
    {},
    {"a": "b"},
    {"a": ""},
    {"a": " "},
    {"a": 1},
    {1: "a"},
    {"a": None},
]


def _model_verdict(model: Any, name: str, value: Any) -> tuple[bool, Any]:
    try:
        return True, getattr(model.model_validate({name: value}), name)
    except ValidationError:
        return False, None


@pytest.mark.parametrize("plain, model", [(Config, ConfigModel), (Settings, SettingsModel)])
def test_the_same_fields_and_defaults(plain: Any, model: Any) -> None:
    assert list(plain.FIELDS) == list(model.model_fields)
    defaults = model()
    for name, spec in plain.FIELDS.items():
        assert spec.make_default() == getattr(defaults, name), name
        assert spec.check(spec.make_default()) is not REFUSED, name  # a default passes its own check


@pytest.mark.parametrize("plain, model", [(Config, ConfigModel), (Settings, SettingsModel)])
def test_a_value_a_check_accepts_the_model_accepts_and_stores_the_same(plain: Any, model: Any) -> None:
    accepted = 0
    for name in plain.FIELDS:
        for value in SAMPLES:
            values = plain._checked({name: value})  # the field's check and the checks across fields
            if values is None:
                continue
            checked = values[name]
            accepted += 1
            ok, stored = _model_verdict(model, name, value)
            assert ok, f"{name} = {value!r}: the check accepts what the model refuses"
            assert type(checked) is type(stored) and checked == stored, f"{name} = {value!r}: {checked!r} != {stored!r}"
    assert accepted > 2 * len(plain.FIELDS)  # the samples reach every field


def test_what_a_check_refuses_gets_the_models_verdict() -> None:
    assert Settings(poll_interval="3").poll_interval == 3.0  # coerced by pydantic, as before
    assert Settings(logs_initial_limit=5.0).logs_initial_limit == 5
    with pytest.raises(ValidationError, match="poll_interval"):
        Settings(poll_interval=0.1)
    with pytest.raises(ValidationError, match="templates"):
        Config(templates={"m": " "})
    with pytest.raises(ValidationError, match="default_profile"):
        Config(default_profile="nowhere")
    assert Config(default_profile="default").default_profile == "default"


def test_profile_tables_become_profiles_and_pass_on_to_the_session() -> None:
    config = make_config(
        profiles={"work": {"platform": "blah", "base_url": "https://evals.blah.dev"}}, default_profile="work"
    )
    assert isinstance(config.profiles["work"], Profile)
    settings = Settings().with_config(config)
    assert settings.profiles == config.profiles and settings.default_profile == "work"
    assert config.model_dump(exclude_none=True)["profiles"] == {
        "work": {"platform": "blah", "base_url": "https://evals.blah.dev"}
    }
    with pytest.raises(ValidationError, match="profile"):
        Config(profiles={"bad name!": {"platform": "blah"}})


def test_tables_are_copied_so_sessions_never_share_them() -> None:
    keymap = {"mode.runs": "f3"}
    first, second = Settings(keymap=keymap), Settings(keymap=keymap)
    first.keymap["mode.runs"] = "f4"
    assert (keymap, second.keymap) == ({"mode.runs": "f3"}, {"mode.runs": "f3"})


def test_dump_and_fields_set_follow_pydantic() -> None:
    settings = Settings(timezone="UTC", poll_interval=3)
    assert settings.model_fields_set == {"timezone", "poll_interval"}
    assert settings.model_dump(exclude_unset=True) == {"poll_interval": 3.0, "timezone": "UTC"}
    assert settings.model_dump() == SettingsModel(timezone="UTC", poll_interval=3).model_dump()
    settings.logs_plot = False
    assert "logs_plot" in settings.model_fields_set
    assert Settings.model_validate(settings) is settings
    assert Settings(**settings.model_dump()) == settings != Settings()
