"""Chat templates' special tokens, written once: every table that names them is made here.

Read by diagnosis (which template a prompt is in, where the user's turn is, what a leak or a
stop token is, the user's next turn in a reply) and by the widgets (template tokens drawn
apart). The simulator keeps its own (it imports no product package: it is the platform).
Until issue 39 these were written in five files (diagnosis/text.py, templates.py,
detectors_leak.py, detectors_continuation.py and the C of diagnosis/_text_scan.c), plus the
widgets' list.
"""

from __future__ import annotations

__all__ = [
    "ALWAYS_LEAK",
    "END_LEAK",
    "END_OF_TURN",
    "NEXT_USER_TURN_PATTERN",
    "STOP_TOKENS",
    "TEMPLATE_MARKERS",
    "TEMPLATE_TOKENS",
    "USER_TURNS",
]

# --------------------------------------------------------------------------- the tokens

# ChatML
IM_START, IM_END = "<|im_start|>", "<|im_end|>"
# Llama 3
BEGIN_OF_TEXT, START_HEADER, END_HEADER, EOT_ID, END_OF_TEXT = (
    "<|begin_of_text|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eot_id|>",
    "<|end_of_text|>",
)
# Gemma
START_OF_TURN, END_OF_TURN_GEMMA, EOS = "<start_of_turn>", "<end_of_turn>", "<eos>"
# Phi-3 (zephyr's role tokens are the same)
PHI_USER, PHI_ASSISTANT, PHI_SYSTEM, PHI_END = "<|user|>", "<|assistant|>", "<|system|>", "<|end|>"
# Llama 2 / Mistral
INST, INST_END, SYS, SYS_END, BOS, EOS_S = "[INST]", "[/INST]", "<<SYS>>", "<</SYS>>", "<s>", "</s>"
# Alpaca
ALPACA_INSTRUCTION, ALPACA_RESPONSE, ALPACA_INPUT = "### Instruction:", "### Response:", "### Input:"
# Vicuna
VICUNA_USER, VICUNA_ASSISTANT = "USER:", "ASSISTANT:"
# GPT-style end of text
ENDOFTEXT = "<|endoftext|>"

# --------------------------------------------------------------------------- the tables

#: End-of-turn / end-of-text tokens: a reply made only of these (and whitespace) is empty.
STOP_TOKENS: tuple[str, ...] = (IM_END, EOT_ID, END_OF_TEXT, ENDOFTEXT, END_OF_TURN_GEMMA, PHI_END, EOS_S, EOS)

#: Where the user's own words sit inside a templated prompt: (start marker, end markers).
USER_TURNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (IM_START + "user", (IM_END, IM_START)),
    (START_HEADER + "user" + END_HEADER, (EOT_ID, START_HEADER)),
    (START_OF_TURN + "user", (END_OF_TURN_GEMMA, START_OF_TURN)),
    (PHI_USER, (PHI_END, PHI_ASSISTANT, EOS_S)),
    (INST, (INST_END,)),
    (ALPACA_INSTRUCTION, (ALPACA_RESPONSE, ALPACA_INPUT)),
    (VICUNA_USER, (VICUNA_ASSISTANT,)),
)

#: The token that ends the assistant's turn in each template (for training-data advice).
END_OF_TURN: dict[str, str] = {
    "chatml": IM_END,
    "llama2": EOS_S,
    "llama3": EOT_ID,
    "alpaca": EOS_S,
    "gemma": END_OF_TURN_GEMMA,
    "phi3": PHI_END,
    "mistral": EOS_S,
    "vicuna": EOS_S,
}

#: (marker, template) that tell which template a prompt is in; "[INST]" is "inst" (llama2 or
#: mistral, decided afterwards). No marker is a prefix of another.
TEMPLATE_MARKERS: tuple[tuple[str, str], ...] = (
    (IM_START, "chatml"),
    (START_HEADER, "llama3"),
    (START_OF_TURN, "gemma"),
    (PHI_USER, "phi3"),
    (PHI_ASSISTANT, "phi3"),
    (PHI_SYSTEM, "phi3"),
    (INST, "inst"),
    (SYS, "llama2"),
    (ALPACA_INSTRUCTION, "alpaca"),
)

#: Tokens that open a turn, name a role or belong to the prompt: in a reply they are always a leak
#: (token: the templates it belongs to, as shown).
ALWAYS_LEAK: dict[str, str] = {
    IM_START: "chatml",
    START_HEADER: "llama3",
    END_HEADER: "llama3",
    BEGIN_OF_TEXT: "llama3",
    START_OF_TURN: "gemma",
    INST: "llama2/mistral",
    INST_END: "llama2/mistral",
    SYS: "llama2",
    SYS_END: "llama2",
    PHI_USER: "phi3",
    PHI_ASSISTANT: "phi3",
    PHI_SYSTEM: "phi3",
    ALPACA_INSTRUCTION: "alpaca",
    ALPACA_RESPONSE: "alpaca",
}
#: Tokens that end the assistant's turn: a leak when text follows them (the server did not stop).
END_LEAK: dict[str, str] = {
    IM_END: "chatml",
    EOT_ID: "llama3",
    END_OF_TEXT: "llama3",
    END_OF_TURN_GEMMA: "gemma",
    PHI_END: "phi3",
    ENDOFTEXT: "gpt",
    EOS_S: "llama2/mistral/alpaca/vicuna",
    EOS: "gemma",
}


def _escaped(token: str) -> str:
    return "".join("\\" + c if c in "|[]" else c for c in token)


#: A template token that opens the user's turn, found in a reply (case-insensitive search): the
#: user's next turn written by the model.
NEXT_USER_TURN_PATTERN = "|".join(
    (
        _escaped(IM_START) + r"[ \t]*user",
        _escaped(START_HEADER) + "user",
        START_OF_TURN + "user",
        _escaped(PHI_USER),
        _escaped(INST),
        ALPACA_INSTRUCTION,
    )
)

#: Every template token the text views draw apart from the text around it.
TEMPLATE_TOKENS: tuple[str, ...] = (
    IM_START,
    IM_END,
    INST,
    INST_END,
    SYS,
    SYS_END,
    EOT_ID,
    START_HEADER,
    END_HEADER,
    BEGIN_OF_TEXT,
    ENDOFTEXT,
    START_OF_TURN,
    END_OF_TURN_GEMMA,
    PHI_USER,
    PHI_ASSISTANT,
    PHI_SYSTEM,
    PHI_END,
    BOS,
    EOS_S,
    ALPACA_INSTRUCTION,
    ALPACA_RESPONSE,
    VICUNA_USER,
    VICUNA_ASSISTANT,
)
