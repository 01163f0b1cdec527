"""Template detection and where the trained template comes from."""

from __future__ import annotations

import pytest

from api_client.blahdev.shapes import ChatMessage, LensBundle, Model
from diagnosis import detect_template, resolve_trained_template


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", "chatml"),
        ("<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nHi [/INST]", "llama2"),
        ("<s>[INST] Hi [/INST]", "llama2"),
        ("[INST]Hi[/INST]", "mistral"),
        ("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>", "llama3"),
        ("<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n", "gemma"),
        ("<|user|>\nHi<|end|>\n<|assistant|>\n", "phi3"),
        ("Below is an instruction.\n\n### Instruction:\nSay hi.\n\n### Response:\n", "alpaca"),
        ("A chat between a user and an assistant.\nUSER: Hi\nASSISTANT:", "vicuna"),
        ("The capital of France is", "none"),
        ("User: Hi\nAssistant:", "none"),
        ("", "none"),
    ],
)
def test_detects_each_template(prompt: str, expected: str) -> None:
    assert detect_template(prompt) == expected


def test_first_marker_wins_when_the_user_quotes_another_format() -> None:
    prompt = "<|im_start|>user\nWhat does [INST] mean in Llama prompts?<|im_end|>\n<|im_start|>assistant\n"
    assert detect_template(prompt) == "chatml"


def test_none_when_there_is_no_prompt_text() -> None:
    assert detect_template(None) is None
    assert detect_template("", [ChatMessage(role="user", content="Hi")]) is None


def test_trained_template_sources_in_order() -> None:
    model = Model(id="m", chat_template="chatml")
    lens = LensBundle(chat_template="llama3")
    assert resolve_trained_template("Gemma", model, lens) == ("gemma", "config")
    assert resolve_trained_template(None, model, lens) == ("chatml", "platform")
    assert resolve_trained_template("  ", Model(id="m"), lens) == ("llama3", "lens")
    assert resolve_trained_template(None, None, None) == (None, "unknown")
    assert resolve_trained_template("Llama-2", None, None) == ("llama2", "config")
    assert resolve_trained_template("raw", None, None) == ("none", "config")
