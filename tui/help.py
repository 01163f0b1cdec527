"""What the keys are: every binding of every screen and widget, the keys active on a screen
right now, and the problems of a ``[keymap]`` table (unknown ids, clashing keys).

Pure inspection of ``BINDINGS`` class attributes and ``Screen.active_bindings``: the help
screen (``tui/screens/help/screen.py``), the app (keymap check on start) and the tests use it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import _normalize_key_list, format_key
from textual.screen import Screen
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.app import App

#: The packages whose screens and widgets the catalogue walks.
KEY_PACKAGES = ("tui", "widgets")

#: Keys that mean the same thing on every screen (documented in the help and the README).
CONVENTIONS: tuple[tuple[str, str], ...] = (
    ("?", "this help: the keys of the current screen and what the badges mean"),
    (":  ctrl+p", "command palette: every screen, action and setting; jump to a model, run, call or message"),
    ("/", "search (the screen's own search where it has one, else the palette)"),
    ("j k  ↓ ↑", "move down / up in lists"),
    ("g G", "first / last row"),
    ("esc", "leave the text box (the keys are the screen's again); else back (close the pushed screen or dialog)"),
    (
        "1 … 0",
        (
            "go to an area (its own screen): Logs, Diagnosis, Runs, Leaderboard, "
            "Chatroom, Models, Compare, Health, Playground, Games"
        ),
    ),
    ("q", "quit"),
)


@dataclass(frozen=True)
class BindingInfo:
    """One binding as declared in a class's ``BINDINGS``."""

    owner: str  # "module.Class"
    kind: str  # "app" | "screen" | "widget"
    keys: tuple[str, ...]  # normalised key names, e.g. ("question_mark",)
    action: str
    description: str
    id: str | None
    show: bool
    priority: bool


@dataclass(frozen=True)
class KeyRow:
    """One key active on a screen right now (after the keymap), for the help screen."""

    key: str  # as displayed, e.g. "ctrl+s" or "?"
    description: str
    binding_id: str | None
    where: str  # "app" | "screen" | a widget's class name
    enabled: bool
    shown_in_footer: bool


def _import_all(packages: Iterable[str]) -> list[str]:
    """Import every module of ``packages``; return the names that failed (work in progress)."""
    failed: list[str] = []
    for package_name in packages:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            if info.name.endswith("__main__"):
                continue  # running it would start the CLI
            try:
                importlib.import_module(info.name)
            except Exception:
                failed.append(info.name)
    return failed


def binding_classes(packages: Iterable[str] = KEY_PACKAGES) -> list[type[DOMNode]]:
    """Every App, Screen and Widget class defined in ``packages`` that declares ``BINDINGS``."""
    _import_all(packages)
    prefixes = tuple(f"{name}." for name in packages)
    found: list[type[DOMNode]] = []
    seen: set[type[DOMNode]] = set()
    stack: list[type[DOMNode]] = [DOMNode]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            if sub in seen:
                continue
            seen.add(sub)
            stack.append(sub)
            if sub.__module__.startswith(prefixes) and "BINDINGS" in sub.__dict__:
                found.append(sub)
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


def _kind(cls: type[DOMNode]) -> str:
    if issubclass(cls, Screen):
        return "screen"
    if issubclass(cls, Widget):
        return "widget"
    return "app"


def declared_bindings(cls: type[DOMNode]) -> Iterator[BindingInfo | tuple[object, ...]]:
    """The bindings a class declares itself; a bare tuple (which can carry no id) is yielded as is."""
    owner = f"{cls.__module__}.{cls.__qualname__}"
    for entry in cls.__dict__.get("BINDINGS", []):
        if not isinstance(entry, Binding):
            yield tuple(entry)
            continue
        keys = tuple(k.strip() for k in _normalize_key_list(entry.key).split(",") if k.strip())
        yield BindingInfo(
            owner, _kind(cls), keys, entry.action, entry.description, entry.id, entry.show, entry.priority
        )


def all_bindings(packages: Iterable[str] = KEY_PACKAGES) -> list[BindingInfo]:
    return [b for cls in binding_classes(packages) for b in declared_bindings(cls) if isinstance(b, BindingInfo)]


def bindings_without_id(packages: Iterable[str] = KEY_PACKAGES) -> list[str]:
    """``owner: key -> action`` for every binding a keymap cannot reach (no id, or a tuple)."""
    offenders: list[str] = []
    for cls in binding_classes(packages):
        owner = f"{cls.__module__}.{cls.__qualname__}"
        for binding in declared_bindings(cls):
            if isinstance(binding, BindingInfo):
                if not binding.id:
                    offenders.append(f"{owner}: {','.join(binding.keys)} -> {binding.action}")
            else:
                offenders.append(f"{owner}: {binding!r} (a tuple: give it a Binding with an id)")
    return offenders


def _effective_keys(binding: BindingInfo, keymap: Mapping[str, str]) -> set[str]:
    if binding.id and binding.id in keymap:
        return {k.strip() for k in keymap[binding.id].split(",") if k.strip()}
    return set(binding.keys)


def _short_owner(owner: str) -> str:
    return owner.rsplit(".", 1)[-1]


def keymap_problems(keymap: Mapping[str, str], bindings: list[BindingInfo] | None = None) -> list[str]:
    """Human sentences about a ``[keymap]`` table: ids no binding has, remapped keys that clash
    with another binding of the same screen, and remapped keys that a screen's own key shadows
    (or that shadow a key meant to work everywhere). Only clashes involving a remapped binding
    are reported: the defaults were chosen together."""
    normalised = {binding_id: _normalize_key_list(keys) for binding_id, keys in keymap.items()}
    bindings = all_bindings() if bindings is None else bindings
    known = {b.id for b in bindings if b.id}
    problems = [f"keymap: no key has the id {binding_id!r}" for binding_id in normalised if binding_id not in known]
    same_place: dict[tuple[str, str, str], None] = {}
    # (key, the binding that works everywhere) -> "id on Screen" of the local keys that win there
    shadowed: dict[tuple[str, str], dict[str, None]] = {}
    for moved in (b for b in bindings if b.id in normalised):
        moved_keys = _effective_keys(moved, normalised)
        for other in bindings:
            if other is moved or other.id == moved.id:
                continue
            shared = moved_keys & _effective_keys(other, normalised)
            if not shared:
                continue
            other_name = other.id or other.action
            for key in sorted(shared):
                if other.owner == moved.owner:
                    first, second = sorted((moved.id or "", other_name))
                    same_place[(key, first, f"{second!r} on {_short_owner(other.owner)}")] = None
                elif "app" in (other.kind, moved.kind) and other.kind != moved.kind:
                    local, everywhere = (other, moved) if moved.kind == "app" else (moved, other)
                    local_name = f"{local.id or local.action!r} on {_short_owner(local.owner)}"
                    shadowed.setdefault((key, everywhere.id or everywhere.action), {})[local_name] = None
    for key, first, second in same_place:
        problems.append(f"keymap: {format_key(key)!r} is both {first!r} and {second}: only one can work")
    for (key, global_name), locals_ in shadowed.items():
        problems.append(
            f"keymap: {format_key(key)!r} is {global_name!r} everywhere except where the screen's own "
            f"{format_key(key)!r} wins: {', '.join(locals_)}"
        )
    return problems


_WHERE_ORDER = {"screen": 0, "app": 2}


def active_key_rows(screen: Screen[object]) -> list[KeyRow]:
    """The keys that work on ``screen`` now, as the footer and the keymap see them: the
    screen's first, then the focused widget's, then those of the whole app. Textual's own
    unnamed keys (arrows, page up, tab...) are left out unless the footer shows them: they
    work as everywhere and would drown the keys that are particular to the screen."""
    app: App[object] = screen.app
    rows: list[KeyRow] = []
    for active in screen.active_bindings.values():
        binding = active.binding
        if binding.system or not (binding.id or binding.show):
            continue
        description = binding.description or binding.tooltip
        if not description:
            continue
        node = active.node
        if node is app:
            where = "app"
        elif node is screen:
            where = "screen"
        else:
            where = type(node).__name__
        rows.append(
            KeyRow(
                key=app.get_key_display(binding),
                description=description,
                binding_id=binding.id,
                where=where,
                enabled=active.enabled,
                shown_in_footer=binding.show,
            )
        )
    rows.sort(key=lambda row: _WHERE_ORDER.get(row.where, 1))  # stable: keeps the chain's order within
    return rows
