"""The Lens stream's state and rendering, without a platform: what is said for missing
numbers, how far a stream got, and hostile tokens."""

from __future__ import annotations

from api_client.blahdev.shapes import LensBundle, LensEvent
from tui.screens.lens.render import LensRun, bundle_text, layer_row, token_label


def layer(layer: int, position: int, *pairs: tuple[str, float | None]) -> LensEvent:
    return LensEvent(type="layer", layer=layer, position=position, top_k=[{"token": t, "prob": p} for t, p in pairs])


def test_run_accumulates_layers_tokens_and_says_where_it_got() -> None:
    run = LensRun("The capital of France is")
    assert run.where() == "before the first layer arrived"
    run.apply(LensEvent(type="start", layers=8, tokens=["The", " capital"]))
    run.apply(layer(0, 5, (" the", 0.2), (" Paris", 0.1)))
    run.apply(layer(1, 5, (" Paris", 0.4)))
    assert run.where() == "layer 1 (2 of 8 layers received)"
    run.apply(LensEvent(type="token", position=5, token=" Paris"))
    run.apply(layer(0, 6, (",", None)))
    assert run.where() == "layer 0 (1 of 8 layers received), new token 2"
    assert run.steps[6][0][0].prob is None  # a probability the platform did not send stays unknown
    run.apply(LensEvent(type="mystery"))
    run.apply(LensEvent(type="done"))
    assert run.done and run.predicted == {5: " Paris"} and run.unknown_events == 1 and run.positions == [5, 6]


def test_error_event_is_kept() -> None:
    run = LensRun("x")
    run.apply(LensEvent(type="error"))
    assert run.error == "the platform reported an error without a message"


def test_tokens_are_shown_exactly_and_inertly() -> None:
    assert token_label(" Paris").plain == "·Paris"
    assert token_label("\n").plain == "^J"
    assert token_label("\x1b]52;c;aGk=\x07").plain.startswith("^[]52")
    assert token_label("[bold]x[/]").plain == "[bold]x[/]"
    assert token_label("").plain == "∅"
    row = layer_row(5, 2, [], 3)
    assert [c.plain for c in row] == ["5", "2", "", "", ""]


def test_bundle_text_says_what_is_missing() -> None:
    full = bundle_text(
        LensBundle(
            model_id="m",
            available=True,
            version="0.3.1",
            captures=["residual"],
            layers=8,
            template_fingerprint="sha256:ab",
            chat_template="chatml",
        ),
        "m",
    ).plain
    assert full == "m: BLAH Lens bundle 0.3.1 · captures residual · layers 8 · template fingerprint sha256:ab (chatml)"
    sparse = bundle_text(LensBundle(available=True), "m").plain
    assert "(version not given)" in sparse and "captures not listed" in sparse and "layers not given" in sparse
    assert "template fingerprint not given" in sparse
    assert "publishes no BLAH Lens bundle" in bundle_text(LensBundle(available=False), "m\x1b[2J").plain
    assert "\x1b" not in bundle_text(LensBundle(available=False), "m\x1b[2J").plain
