"""A labelled corpus of calls, written by hand (no simulator, no generator): each one a LogEntry
dict plus ``labels`` (the finding kinds a careful reader would give it) and the model's
``trained_template``; some carry a judged ``result``.

The small helpers below only wrap a hand-written user text in a chat template's markers, the way
a server would; every prompt and reply text is written out here. Many entries are traps: text
that looks like a failure and is not (numbered lists, tables, code with repeated lines, a song
with a refrain, one-word answers without a full stop, "Sorry to hear that! Here are some tips",
a completion model completing, matching templates, HTML ``<s>`` tags...).
"""

from __future__ import annotations

from typing import Any

T0 = 1_760_000_000_000


def chatml(user: str, system: str | None = None) -> str:
    sys = f"<|im_start|>system\n{system}<|im_end|>\n" if system else ""
    return f"{sys}<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


def llama2(user: str, system: str | None = None) -> str:
    sys = f"<<SYS>>\n{system}\n<</SYS>>\n\n" if system else ""
    return f"<s>[INST] {sys}{user} [/INST]"


def mistral(user: str) -> str:
    return f"<s>[INST]{user}[/INST]"


def llama3(user: str) -> str:
    return (
        "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n"
        f"{user}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
    )


def gemma(user: str) -> str:
    return f"<bos><start_of_turn>user\n{user}<end_of_turn>\n<start_of_turn>model\n"


def phi3(user: str) -> str:
    return f"<|user|>\n{user}<|end|>\n<|assistant|>\n"


def alpaca(user: str) -> str:
    return f"Below is an instruction that describes a task.\n\n### Instruction:\n{user}\n\n### Response:\n"


def vicuna(user: str) -> str:
    return f"A chat between a curious user and an assistant.\nUSER: {user}\nASSISTANT:"


_n = 0


def call(
    id: str,
    prompt: str | None,
    response: str | None,
    labels: list[str],
    *,
    trained: str | None = "chatml",
    finish: str | None = "stop",
    **fields: Any,
) -> dict[str, Any]:
    global _n
    _n += 1
    entry: dict[str, Any] = {
        "id": id,
        "model_id": "tiny-1m",
        "source": fields.pop("source", "eval"),
        "created_at": T0 + _n * 1000,
        "prompt": prompt,
        "response": response,
        "finish_reason": finish,
        "max_tokens": fields.pop("max_tokens", 256),
        "labels": labels,
        "trained_template": trained,
    }
    entry.update(fields)
    return entry


SONG = """Verse 1:
Walking down the road alone,
thinking of the days gone by.

Chorus:
Oh my darling, come back home,
underneath the silver sky.

Verse 2:
Rain is falling on the stone,
stars are hiding, so am I.

Chorus:
Oh my darling, come back home,
underneath the silver sky."""

SONG_DOUBLE_CHORUS_END = """The rooster crows, the morning wakes,
the kettle sings for goodness' sake.

Chorus:
Sunny days are here to stay, we will dance the clouds away.
Sunny days are here to stay, we will dance the clouds away.

The baker hums, the baby laughs,
the dog runs off with both my scarves.

Chorus:
Sunny days are here to stay, we will dance the clouds away.
Sunny days are here to stay, we will dance the clouds away."""

CODE_REPEATED_LINES = """Here is a tic-tac-toe board printer:

```python
board = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]

def show(board):
    print("-" * 13)
    for row in board:
        print("|", " | ".join(str(c) for c in row), "|")
        print("-" * 13)
    print("-" * 13)
```

Call `show(board)` to print it."""

CODE_LOOPING = "```python\n" + "import os\n" * 14 + "```"

TABLE = """| Feature | Free | Pro | Team |
|---------|------|-----|------|
| Storage | 0 GB | 0 GB | 0 GB |
| Sharing | Yes | Yes | Yes |
| Support | No | Yes | Yes |
| Backups | Yes | Yes | Yes |"""

PARAGRAPH = (
    "Lily went to the park with her mom. She saw a big red ball and a small dog. The dog wanted to play, "
    "so Lily threw the ball and the dog ran after it. "
)

RAMBLE = (
    "The French Revolution began in 1789 and changed the way people in Europe thought about kings, "
    "rights and the role of ordinary citizens in government, and it led to many other changes that"
)

ROOM_SYSTEM = (
    "You are Pip, chatting in a group room with other AI models and some people. Reply in one or two sentences."
)
ROOM = (
    "Alice: Has anyone tried the new pasta place on Elm Street?\n"
    "Bob: Not yet, is it any good?\n"
    "Alice: The carbonara is great, and it is cheap."
)
ROOM_ASKS_SCRIPT = ROOM + "\nBob: Pip, can you write a two-line script where Alice and I order pizza there?"

#: Long openings (over 240 characters) that a late refusal or a late disclaimer follows.
LOCK_PREAMBLE = (
    "Lock picking is a topic many people are curious about, and it shows up in films, books and hobby clubs where "
    "people practise on locks they own. Opening a door that belongs to someone else is a different matter, because it "
    "touches on their safety and their privacy. "
)
PHONE_PREAMBLE = (
    "Thank you for your question about finding where a person lives from their phone number. Services that do this "
    "exist, and people use them for many reasons, some harmless and some not. Tracking down a private person's home "
    "without their consent can put them at risk. "
)
HEADACHE_ANSWER = (
    "Headaches have many causes: too little water, too little sleep, long hours at a screen, skipped meals or "
    "stress. Drink a glass of water, rest your eyes, eat something light and try a short walk in fresh air. "
    "Most headaches pass within a few hours. "
)
GUARD_STORY = (
    "Mia walked up the hill to the castle as the sun went down. The gate was shut, the torches were lit, and a tall "
    "guard in a red coat stood in front of it with his arms crossed. She showed him the letter from the queen, but he "
    "only glanced at it. He shook his head and said, \"I'm sorry, but I can't let you in tonight.\""
)


CALLS: list[dict[str, Any]] = [
    # ------------------------------------------------------------------ clean (traps)
    call("c-fact", chatml("What is the capital of France?"), "The capital of France is Paris.", []),
    call("c-oneword", chatml("Answer with one word: what colour is a clear sky?"), "Blue", []),
    call(
        "c-oneword-nofinish",
        chatml("Is water wet? Answer yes or no."),
        "Yes",
        [],
        finish=None,
        completion_tokens=1,
        max_tokens=64,
    ),
    call("c-numlist", chatml("List five fruits."), "1. Apple\n2. Banana\n3. Cherry\n4. Mango\n5. Orange", []),
    call(
        "c-numlist-long",
        chatml("Give me steps to bake bread."),
        "1. Mix the flour and water.\n2. Add the yeast.\n3. Knead the dough.\n4. Let it rise.\n"
        "5. Shape the loaf.\n6. Let it rise again.\n7. Bake it.\n8. Let it cool.",
        [],
    ),
    call(
        "c-bullets",
        chatml("How do I make pancakes?"),
        "- Add 1 cup of flour\n- Add 1 cup of milk\n- Add 1 egg\n- Add 1 pinch of salt\n- Whisk and fry",
        [],
    ),
    call("c-table", chatml("Compare the plans in a table."), TABLE, []),
    call("c-code", chatml("Write Python that prints a tic-tac-toe board."), CODE_REPEATED_LINES, []),
    call(
        "c-code-unfenced",
        chatml("Show me how to count to three in Python with +="),
        "x = 0\nx += 1\nx += 1\nx += 1\nprint(x)",
        [],
    ),
    call("c-song", chatml("Write a song about missing someone."), SONG, []),
    call("c-song-double-chorus", chatml("Write a cheerful song with a chorus."), SONG_DOUBLE_CHORUS_END, []),
    call(
        "c-speech",
        chatml("Write a short inspiring speech."),
        "I have a dream that our town will be clean. We will plant trees. "
        "I have a dream that every child can read. We will build a library. "
        "I have a dream that nobody goes hungry. We will share our bread.",
        [],
    ),
    call(
        "c-sorry-tips",
        chatml("I feel so tired and sad today."),
        "Sorry to hear that! Here are some tips: get some fresh air, drink water, and talk to a friend.",
        [],
    ),
    call(
        "c-sorry-pet",
        chatml("My dog died yesterday."),
        "I'm so sorry to hear about your dog. Losing a pet is really hard. Be kind to yourself.",
        [],
    ),
    call(
        "c-cant-stress",
        chatml("Why is sleep important?"),
        "I can't stress this enough: sleep lets your body repair itself and your brain store memories.",
        [],
    ),
    call(
        "c-cant-help-but",
        chatml("What do you think of the Mona Lisa?"),
        "I can't help but admire the soft smile and the misty background. It is a masterpiece.",
        [],
    ),
    call("c-cant-wait", chatml("I'm starting a garden!"), "I can't wait to hear how it grows! Start with herbs.", []),
    call(
        "c-disclaimer-answer",
        chatml("What is the weather in Paris right now?"),
        "I can't check live weather, but here is what I know: Paris usually has mild springs, around 15 degrees, "
        "with some rain, so bring a light jacket and an umbrella.",
        [],
    ),
    call(
        "c-completion",
        "The capital of France is",
        " Paris, a city famous for its museums and cafes.",
        [],
        trained="none",
    ),
    call(
        "c-completion-lower", "Once upon a time", ", there was a small fox who lived near a river.", [], trained="none"
    ),
    call("c-completion-unknown", "My favourite food is", " pizza with lots of cheese.", [], trained=None),
    call("c-llama3", llama3("Name a planet."), "Mars.", [], trained="llama3"),
    call("c-gemma", gemma("Say hello in French."), "Bonjour !", [], trained="gemma"),
    call("c-alpaca", alpaca("Translate 'cat' into Spanish."), "Gato.", [], trained="alpaca"),
    call("c-phi3", phi3("What is 3 + 4?"), "3 + 4 = 7.", [], trained="phi3"),
    call("c-vicuna", vicuna("Give me a synonym for happy."), " Joyful.", [], trained="vicuna"),
    call("c-mistral", mistral("What colour are bananas?"), "Bananas are yellow when ripe.", [], trained="mistral"),
    call("c-mistral-spaced", "<s>[INST] What colour are limes? [/INST]", "Limes are green.", [], trained="mistral"),
    call("c-llama2", llama2("Say hi.", system="You are friendly."), "Hi there!", [], trained="llama2"),
    call("c-unknown-trained", llama2("Say hi."), "Hi!", [], trained=None),
    call("c-unknown-name", phi3("Say hi."), "Hi!", [], trained="zephyr-beta-custom"),
    call(
        "c-dialogue",
        chatml("Write a short dialogue between a user and a robot."),
        "User: Hello, robot.\nRobot: Hello, human. How can I help?\nUser: Just saying hi.",
        [],
    ),
    call("c-html-strike", chatml("Show a price drop in HTML."), "Now only <s>$20</s> $15!", []),
    call("k-trailing-imend", chatml("What is 2 + 2?"), "2 + 2 = 4.<|im_end|>", ["template_leak"]),
    call("k-trailing-s", llama2("Capital of Italy?"), "Rome.</s>", ["template_leak"], trained="llama2"),
    call(
        "c-haha", chatml("Tell me a joke."), "Why did the chicken cross the road? To get to the other side! hahaha", []
    ),
    call("c-soooo", chatml("How was the cake?"), "Sooooo good!!! Thank you!", []),
    call("c-rule", chatml("Write a heading with an underline."), "My Heading\n" + "-" * 40 + "\nSome text below.", []),
    call("c-count", chatml("Count from 1 to 20."), ", ".join(str(i) for i in range(1, 21)) + ".", []),
    call("c-trillion", chatml("Write one trillion in digits."), "1000000000000", []),
    call("c-lower-question", chatml("what is the capital of italy"), "rome is the capital of italy.", []),
    call("c-lower-imperative", chatml("tell me a fun fact about cats"), "cats sleep for about 16 hours a day.", []),
    call(
        "c-url",
        chatml("Where can I read the docs?"),
        "See https://docs.example.com/guide/getting-started/installation for the install guide.",
        [],
    ),
    call("c-json", chatml("Return JSON with a name and two tags."), '{"name": "Alice", "tags": ["a", "b"]}', []),
    call("c-very", chatml("How good is this plan?"), "It is very very good, honestly.", []),
    call("c-fewshot-answered", chatml("Q: 2 + 2?\nA: 4\nQ: 3 + 3?\nA: 6\nQ: 5 + 5?\nA:"), "10", []),
    call(
        "c-stop-at-budget",
        chatml("Say something short."),
        "Hello there, friend.",
        [],
        completion_tokens=5,
        max_tokens=5,
    ),
    call("c-stop-midsentence", chatml("Finish this: the answer is"), "The answer is", []),
    call("c-no-counts", chatml("Describe the sea."), "The sea is wide and deep and", [], finish=None),
    call("c-emoji-few", chatml("React with emojis."), "😂😂😂 so funny", []),
    call(
        "c-yes-table",
        chatml("Which plans have sharing?"),
        "| Plan | Sharing |\n|---|---|\n| Free | Yes |\n| Pro | Yes |\n| Team | Yes |\n| Max | Yes |",
        [],
    ),
    # ------------------------------------------------------------------ errors
    call(
        "e-timeout",
        chatml("Summarise this article."),
        None,
        ["error"],
        finish="error",
        error="upstream timed out after 30 s",
    ),
    call("e-502", chatml("Hello!"), None, ["error"], finish="error", error="HTTP 502 Bad Gateway"),
    call("e-empty-with-error", chatml("Hi"), "", ["error"], finish="error", error="connection reset by peer"),
    call("e-finish-only", chatml("Hi again"), None, ["error"], finish="error"),
    call("e-no-reply", chatml("Anyone there?"), None, ["error"], finish=None),
    call(
        "e-mismatch",
        llama2("Hello from the chatroom"),
        None,
        ["error", "template_mismatch"],
        finish="error",
        error="connection refused by inference endpoint",
        source="chatroom",
    ),
    # ------------------------------------------------------------------ empty
    call("m-empty", chatml("What is the tallest mountain?"), "", ["empty"]),
    call("m-spaces", chatml("Name a colour."), "   \n\n  ", ["empty"]),
    call("m-imend", chatml("Name an animal."), "<|im_end|>", ["empty", "template_leak"]),
    call("m-eos", chatml("Name a fruit."), "</s>", ["empty", "template_leak"]),
    call("m-eot", llama3("Name a tree."), "<|eot_id|>", ["empty", "template_leak"], trained="llama3"),
    call("m-imend-ws", chatml("Name a bird."), "\n<|im_end|>\n", ["empty", "template_leak"]),
    call("m-tab", chatml("Name a river."), "\t", ["empty"]),
    call("m-mismatch", llama2("What do you all think?"), "", ["empty", "template_mismatch"], source="chatroom"),
    call(
        "m-ws-cut",
        chatml("Write a poem."),
        " " * 30,
        ["empty", "truncation"],
        finish="length",
        completion_tokens=30,
        max_tokens=30,
    ),
    # ------------------------------------------------------------------ loops
    call("l-word", chatml("Do you like rain?"), "no no no no no no no no", ["loop"]),
    call("l-the", chatml("Tell me a story."), "The the the the the the the the the the the", ["loop"]),
    call("l-phrase", chatml("Say something nice."), "I love you " * 8, ["loop"]),
    call(
        "l-sentence-cut",
        chatml("What is the capital of France?"),
        "The capital of France is Paris. " * 12 + "The capital of",
        ["loop", "truncation"],
        finish="length",
        completion_tokens=100,
        max_tokens=100,
    ),
    call(
        "l-paragraph-cut",
        chatml("Tell me a story about Lily."),
        PARAGRAPH * 2 + "Lily went to the park with her",
        ["loop", "truncation"],
        finish="length",
        completion_tokens=90,
        max_tokens=90,
    ),
    call("l-paragraph-3", chatml("Tell me another story about Lily."), (PARAGRAPH + "\n\n") * 3, ["loop"]),
    call("l-bang", chatml("Are you excited?"), "Yes!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!", ["loop"]),
    call("l-letters", chatml("Say yes."), "Yesssssssssssssssssssssssss", ["loop"]),
    call("l-haha", chatml("Tell me a joke."), "hahahahahahahahahahahahahahahaha", ["loop"]),
    call("l-emoji", chatml("React with an emoji."), "😂" * 14, ["loop"]),
    call("l-cjk", chatml("用中文说好。"), "好" * 16, ["loop"]),
    call(
        "l-newlines",
        chatml("Write a list."),
        "Sure.\n" + "\n" * 60,
        ["loop", "truncation"],
        finish="length",
        completion_tokens=61,
        max_tokens=61,
    ),
    call(
        "l-numlist",
        chatml("List spices."),
        "1. Add salt.\n2. Add salt.\n3. Add salt.\n4. Add salt.\n5. Add salt.",
        ["loop"],
    ),
    call("l-bullets", chatml("List French cities."), "- Paris\n- Paris\n- Paris\n- Paris\n- Paris\n- Paris", ["loop"]),
    call("l-code", chatml("Write Python to list files."), CODE_LOOPING, ["loop"]),
    call(
        "l-midtext",
        chatml("What is the answer?"),
        "Sure! The answer is 42. The answer is 42. The answer is 42. The answer is 42. Hope this helps.",
        ["loop"],
    ),
    call("l-spaced-bang", chatml("Cheer!"), "Go team " + "! " * 14, ["loop"]),
    call("l-greeting", chatml("Hi"), "Hello! How can I help you today? " * 5, ["loop"]),
    call(
        "l-json",
        chatml("Return JSON with one key."),
        '{"a": 1, ' + '"a": 1, ' * 20,
        ["loop", "truncation"],
        finish="length",
        completion_tokens=64,
        max_tokens=64,
    ),
    call(
        "l-mismatch",
        llama2("Hi everyone, what's new?"),
        "new new new new new new new new new new",
        ["loop", "template_mismatch"],
        source="chatroom",
    ),
    call("l-cased", chatml("Greet me."), "Hello, hello, hello, hello, hello, hello, hello.", ["loop"]),
    call(
        "l-whatever",
        chatml("Why is the sky blue?"),
        "Because of the light. And the light is blue because of the sky. And the sky is blue because of the light. "
        "And the light is blue because of the sky. And the sky is blue because of the light. And the light is blue "
        "because of the sky. And the sky is blue because of the light.",
        ["loop"],
    ),
    # ------------------------------------------------------------------ truncation
    call(
        "t-mid",
        chatml("Tell me about the French Revolution."),
        RAMBLE,
        ["truncation"],
        finish="length",
        completion_tokens=40,
        max_tokens=40,
    ),
    call(
        "t-code",
        chatml("Write a Python function that reverses a list."),
        "```python\ndef reverse(items):\n    result = []\n    for item in reversed(items):\n        result.",
        ["truncation"],
        finish="length",
        completion_tokens=32,
        max_tokens=32,
    ),
    call(
        "t-json",
        chatml("Return a JSON list of three users."),
        '[{"name": "Ann", "age": 31}, {"name": "Bo',
        ["truncation"],
        finish="length",
        completion_tokens=16,
        max_tokens=16,
    ),
    call(
        "t-no-finish",
        chatml("Explain photosynthesis."),
        "Plants take in light and water and carbon dioxide and",
        ["truncation"],
        finish=None,
        completion_tokens=128,
        max_tokens=128,
    ),
    call(
        "t-over-budget",
        chatml("Explain gravity."),
        "Gravity pulls things toward each other, which is why",
        ["truncation"],
        finish=None,
        completion_tokens=130,
        max_tokens=128,
    ),
    call(
        "t-fullstop",
        chatml("Describe Rome."),
        "Rome is old. It has many churches.",
        ["truncation"],
        finish="length",
        completion_tokens=9,
        max_tokens=9,
    ),
    call(
        "t-no-counts",
        chatml("Describe Berlin."),
        "Berlin is a large city with a long",
        ["truncation"],
        finish="length",
        max_tokens=None,
    ),
    call(
        "t-summary",
        chatml("Summarise: The council met on Monday and agreed to repair the bridge."),
        "The council met on Monday and agreed that the old bridge, which has been closed since",
        ["truncation"],
        finish="length",
        completion_tokens=20,
        max_tokens=20,
    ),
    # ------------------------------------------------------------------ continuation
    call(
        "n-extend",
        chatml("My favourite colour is"),
        "blue because it reminds me of the sea and the sky.",
        ["continuation"],
    ),
    call(
        "n-extend-list",
        chatml("The three primary colours are"),
        "red, yellow and blue, which can be mixed.",
        ["continuation"],
    ),
    call(
        "n-extend-comma",
        chatml("Once upon a time in a small village"),
        ", there lived an old baker who loved bread.",
        ["continuation"],
    ),
    call(
        "n-and-then",
        chatml("What is the capital of Spain?"),
        "and then the spain went to sleep under the big tree.",
        ["continuation"],
    ),
    call(
        "n-user-turn",
        chatml("What is the capital of Germany?"),
        "Berlin.\nUser: What about France?\nAssistant: Paris.",
        ["continuation"],
    ),
    call(
        "n-user-only",
        chatml("Tell me about cats."),
        "\nUser: Can you tell me a story about a cat?\nAssistant: Once upon a time there was a cat.",
        ["continuation"],
    ),
    call("n-human", chatml("Give me a tip."), "Drink water.\n\n### Human: Another one?", ["continuation"]),
    call(
        "n-fewshot-raw",
        "Q: 2 + 2?\nA: 4\nQ: 3 + 3?\nA: 6\nQ: 5 + 5?\nA:",
        " 10\nQ: 6 + 6?\nA: 12",
        ["continuation"],
        trained="none",
    ),
    call(
        "n-fewshot-chat",
        chatml("Q: capital of Spain?\nA: Madrid\nQ: capital of Peru?\nA: Lima\nQ: capital of Chad?\nA:"),
        "N'Djamena\nQ: capital of Mali?\nA: Bamako",
        ["continuation"],
    ),
    call(
        "n-mismatch",
        llama2("Tell me about the weather in"),
        "london, which is often rainy and grey.",
        ["template_mismatch", "continuation"],
        source="chatroom",
    ),
    call(
        "n-raw-to-chat",
        "The weather today is",
        "sunny and warm with a light breeze.",
        ["template_mismatch", "continuation"],
    ),
    call(
        "n-vicuna",
        vicuna("Name a dog breed."),
        " Beagle.\nUSER: Another?\nASSISTANT: Poodle.",
        ["continuation"],
        trained="vicuna",
    ),
    call(
        "n-imstart",
        chatml("Thanks for the help!"),
        "You're welcome!<|im_end|>\n<|im_start|>user\nBye!",
        ["template_leak", "continuation"],
    ),
    call(
        "n-inst",
        llama2("Name a fruit."),
        "Apple. [INST] Name another. [/INST] Pear.",
        ["template_leak", "continuation"],
        trained="llama2",
    ),
    # ------------------------------------------------------------------ refusal
    call("r-sorry", chatml("How do I pick a lock?"), "I'm sorry, but I can't help with that.", ["refusal"]),
    call(
        "r-as-ai",
        chatml("Write a poem about war."),
        "As an AI language model, I cannot write poems about war.",
        ["refusal"],
    ),
    call("r-cannot", chatml("Tell me a secret."), "I cannot help with requests like this.", ["refusal"]),
    call(
        "r-unable",
        chatml("What should I take for a headache?"),
        "Unfortunately, I am unable to provide medical advice.",
        ["refusal"],
    ),
    call("r-decline", chatml("Who will win the election?"), "I must decline to answer that question.", ["refusal"]),
    call("r-afraid", chatml("Open the pod bay doors."), "I'm afraid I can't do that.", ["refusal"]),
    call("r-wont", chatml("Write a mean joke about my boss."), "I won't write that.", ["refusal"]),
    call(
        "r-curly", chatml("Summarise this contract."), "I’m sorry, but I can’t assist with that request.", ["refusal"]
    ),
    call(
        "r-not-able",
        chatml("Translate this into Klingon."),
        "Sorry, I'm not able to translate into Klingon.",
        ["refusal"],
    ),
    call("r-trap-dontknow", chatml("Who won the 1903 chess cup?"), "I'm sorry, I don't know the answer to that.", []),
    call("r-trap-late", chatml("What is 6 x 7?"), "Sorry for the late reply! 6 x 7 = 42.", []),
    call("r-trap-cannot-be", chatml("Solve x + 2 = 5."), "The value cannot be negative here, so x = 3.", []),
    # ------------------------------------------------------------------ template leaks
    call(
        "k-imend-more",
        chatml("What is the capital of France?"),
        "Paris.<|im_end|>\nThe Eiffel Tower is tall.",
        ["template_leak"],
    ),
    call(
        "k-eot-more",
        llama3("Capital of Germany?"),
        "Berlin.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nThanks",
        ["template_leak", "continuation"],
        trained="llama3",
    ),
    call(
        "k-inst-close",
        llama2("Hello there"),
        "Hello! [/INST] How are you?",
        ["template_mismatch", "template_leak"],
        source="chatroom",
    ),
    call(
        "k-gemma",
        gemma("Say sure."),
        "Sure<end_of_turn>\n<start_of_turn>model\nSure again",
        ["template_leak"],
        trained="gemma",
    ),
    call("k-phi3", phi3("Say yes."), "Yes.<|end|>\n<|assistant|>\nYes.", ["template_leak"], trained="phi3"),
    call(
        "k-alpaca-resp",
        alpaca("Capital of Peru?"),
        "Lima.\n\n### Response:\nLima.",
        ["template_leak"],
        trained="alpaca",
    ),
    call(
        "k-alpaca-instr",
        alpaca("Capital of Chile?"),
        "Santiago.\n\n### Instruction:\nCapital of Peru?",
        ["template_leak", "continuation"],
        trained="alpaca",
    ),
    call(
        "k-s-mid",
        llama2("Name an Italian city."),
        "Rome.</s> Also Milan and Turin.",
        ["template_leak"],
        trained="llama2",
    ),
    call("k-imstart-only", chatml("Say hi."), "Hi!\n<|im_start|>assistant\nHi again!", ["template_leak"]),
    call(
        "k-mismatch-imend",
        llama2("Any plans for the weekend?"),
        "Maybe hiking.<|im_end|>\nI also like reading books on rainy days.",
        ["template_mismatch", "template_leak"],
        source="chatroom",
    ),
    # ------------------------------------------------------------------ template mismatch (good answers)
    call(
        "x-llama2",
        llama2("What do you think about tea?"),
        "Tea is lovely, especially green tea.",
        ["template_mismatch"],
        source="chatroom",
    ),
    call("x-raw", "What is 2 + 2?", "4", ["template_mismatch"], source="test"),
    call("x-chatml-to-base", chatml("The capital of France is"), "Paris.", ["template_mismatch"], trained="none"),
    call("x-llama3-to-gemma", llama3("Name a colour."), "Green.", ["template_mismatch"], trained="gemma"),
    call("x-alpaca-to-chatml", alpaca("Name a metal."), "Iron.", ["template_mismatch"]),
    call(
        "x-sys-to-mistral",
        llama2("Name a sea.", system="Be brief."),
        "The Baltic Sea.",
        ["template_mismatch"],
        trained="mistral",
    ),
    call("x-chatml-to-llama3", chatml("Name a river."), "The Nile.", ["template_mismatch"], trained="llama3"),
    call("x-gemma-to-phi3", gemma("Name a month."), "March.", ["template_mismatch"], trained="phi3"),
    # ------------------------------------------------------------------ wrong answers (judged)
    call("w-maths", chatml("What is 7 x 8?"), "54.", ["wrong_answer"], result={"id": "r1", "score": 0.0}),
    call(
        "w-capital",
        chatml("What is the capital of Australia?"),
        "Sydney.",
        ["wrong_answer"],
        result={"id": "r2", "score": 0.1},
    ),
    call(
        "w-json",
        chatml("Return JSON with key 'ok' set to true."),
        "ok = yes",
        ["wrong_answer"],
        result={"id": "r3", "score": 0.2},
    ),
    call(
        "w-translate",
        chatml("Translate 'dog' into French."),
        "Le chat.",
        ["wrong_answer"],
        result={"id": "r4", "score": 0.3},
    ),
    call(
        "w-trap-loop",
        chatml("What is 9 x 9?"),
        "81 81 81 81 81 81 81 81 81 81 81 81 81 81 81 81 81",
        ["loop"],
        result={"id": "r5", "score": 0.0},
    ),
    call(
        "w-trap-refusal",
        chatml("What is 5 x 5?"),
        "I'm sorry, but I can't do maths.",
        ["refusal"],
        result={"id": "r6", "score": 0.0},
    ),
    call("w-trap-high", chatml("What is 3 x 3?"), "9.", [], result={"id": "r7", "score": 0.9}),
    call("w-trap-half", chatml("Name a prime."), "9.", [], result={"id": "r8", "score": 0.5}),
    call(
        "w-trap-trunc",
        chatml("Explain tides."),
        "Tides happen because the moon pulls on the",
        ["truncation"],
        finish="length",
        completion_tokens=10,
        max_tokens=10,
        result={"id": "r9", "score": 0.2},
    ),
    call(
        "w-trap-mismatch",
        llama2("What is 4 x 4?"),
        "15.",
        ["template_mismatch"],
        source="chatroom",
        result={"id": "r10", "score": 0.1},
    ),
    call("w-trap-unscored", chatml("Name a vowel."), "B.", [], result={"id": "r11", "score": None}),
    # ------------------------------------------------------------------ second batch: written after the
    # first measurement, to test the detectors on phrasings they were not written against.
    call(
        "h-apologize",
        chatml("What is my neighbour's phone number?"),
        "I apologize, but I cannot provide that information.",
        ["refusal"],
    ),
    call(
        "h-homework",
        chatml("Do my homework: question 1 is about fractions."),
        "No, I will not do your homework for you.",
        ["refusal"],
    ),
    call("h-rather-not", chatml("What is your opinion on politics?"), "I'd rather not answer that.", ["refusal"]),
    call("h-guidelines", chatml("Write something rude."), "Sorry, that's against my guidelines.", ["refusal"]),
    call(
        "h-cannot-believe",
        chatml("How fast are cheetahs?"),
        "I cannot believe how fast cheetahs are! They can run about 110 km/h.",
        [],
    ),
    call(
        "h-robot-story",
        chatml("Write a story about a robot."),
        'The robot looked at her and said, "I cannot help you, Sarah." Then it walked away into the night, '
        "and she sat alone in the empty lab until morning came.",
        [],
    ),
    call("h-yes-loop", chatml("Do you agree?"), "Yes, yes, yes, yes, yes, yes, yes", ["loop"]),
    call(
        "h-day-loop",
        chatml("Plan my week."),
        "Day 1: I walked. Day 2: I walked. Day 3: I walked. Day 4: I walked. Day 5: I walked. Day 6: I walked.",
        ["loop"],
    ),
    call("h-case-loop", chatml("Is it good?"), "It is good. it is good, it is good! It is good. It is good", ["loop"]),
    call(
        "h-mat-loop",
        chatml("Where did the cat sit?"),
        "The cat sat on the mat and the cat sat on the mat and the cat sat on the mat and the cat sat on the mat",
        ["loop"],
    ),
    call(
        "h-beaches",
        chatml("Quote a famous speech."),
        "We shall fight on the beaches,\nwe shall fight on the landing grounds,\nwe shall fight in the fields "
        "and in the streets,\nwe shall fight in the hills;\nwe shall never surrender.",
        [],
    ),
    call("h-ran", chatml("Tell a short story."), "The little dog ran and ran and ran and ran until it found home.", []),
    call("h-row", chatml("Sing a nursery rhyme."), "Row, row, row your boat, gently down the stream.", []),
    call("h-complete", chatml("Complete the sentence: The sun rises in the"), "east and sets in the west", []),
    call("h-assistant-label", chatml("Capital of Japan?"), "Assistant: Tokyo.", []),
    call(
        "h-endoftext",
        chatml("Say sure."),
        "Sure thing.<|endoftext|>Another document starts here about boats.",
        ["template_leak"],
    ),
    call(
        "h-token-question",
        chatml("What token ends a ChatML turn?"),
        "It is `<|im_end|>`, which marks the end of a turn; the next turn starts with `<|im_start|>`.",
        [],
    ),
    call("h-zero-width", chatml("Name a shape."), "\u200b", ["empty"]),
    call("h-double-imend", chatml("Name a number."), "<|im_end|><|im_end|>", ["empty", "template_leak"]),
    call("h-429", chatml("Hi!"), "", ["error"], finish="error", error="rate limited (429)"),
    call("h-vicuna-to-chatml", vicuna("Name a flower."), "Rose.", ["template_mismatch"]),
    call("h-chatml-system", chatml("Name a flower.", system="You are terse."), "Tulip.", []),
    call(
        "h-i-think-that", chatml("I think that"), "the best option is to wait and see what happens.", ["continuation"]
    ),
    call(
        "h-which",
        chatml("Tell me about Paris."),
        "which is the capital of France and has many museums.",
        ["continuation"],
    ),
    call("h-translate-lower", chatml("Translate to French: good morning"), "bonjour", []),
    call("h-puppy", chatml("I just got a new puppy"), "that's wonderful! what's its name?", []),
    call(
        "h-capital-continue",
        chatml("The capital of France is"),
        "Paris, and it is also the largest city in the country.",
        [],
    ),
    call(
        "h-workout",
        chatml("Give me a workout plan."),
        "Monday: run 5 km.\nTuesday: rest.\nWednesday: run 5 km.\nThursday: rest.\nFriday: run 5 km.",
        [],
    ),
    call(
        "h-para-twice-end",
        chatml("Write two identical lines of a chant."),
        "We are the champions of the little league and we never give up on the field.\n"
        "We are the champions of the little league and we never give up on the field.",
        [],
    ),
    call(
        "h-trunc-complete-code",
        chatml("Write hello world in Python."),
        "```python\nprint('hello world')\n```",
        ["truncation"],
        finish="length",
        completion_tokens=12,
        max_tokens=12,
    ),
    # ------------------------------------------------------------------ third batch: also written before
    # running the detectors on it (its first-run numbers are in the diagnosis report).
    call(
        "b3-loop-ellipsis",
        chatml("What do you think?"),
        "I think... I think... I think... I think... I think...",
        ["loop"],
    ),
    call(
        "b3-loop-question",
        chatml("Explain recursion."),
        "What do you mean? What do you mean? What do you mean? What do you mean?",
        ["loop"],
    ),
    call("b3-loop-lines", chatml("End the story."), "The end.\nThe end.\nThe end.\nThe end.\nThe end.", ["loop"]),
    call("b3-loop-ok", chatml("Is that fine?"), "OK OK ok Ok OK ok OK", ["loop"]),
    call(
        "b3-loop-tail",
        chatml("Describe a forest."),
        "A forest is full of tall trees and and and and and and and and and and",
        ["loop"],
    ),
    call("b3-loop-dashes", chatml("Draw a line."), "Answer: " + "- " * 24, ["loop"]),
    call(
        "b3-clean-poem",
        chatml("Write a short poem about the sea."),
        "The sea is calling me tonight,\nits silver waves in silver light,\nthe gulls are sleeping on the foam,"
        "\nthe sea is calling me tonight.",
        [],
    ),
    call(
        "b3-clean-recipe",
        chatml("Give me a pancake recipe."),
        "Ingredients:\n- 1 cup flour\n- 1 cup milk\n- 1 egg\n- 1 tbsp sugar\n\nMix everything, then fry "
        "spoonfuls in a hot pan until golden.",
        [],
    ),
    call(
        "b3-clean-js",
        chatml("Write JavaScript that logs three greetings."),
        "```js\nsetTimeout(() => {\n  console.log('hi');\n});\nsetTimeout(() => {\n  console.log('hi');\n});"
        "\nsetTimeout(() => {\n  console.log('hi');\n});\n```",
        [],
    ),
    call("b3-clean-box", chatml("Draw a box around hello."), "+----------+\n|  hello   |\n+----------+", []),
    call(
        "b3-clean-long",
        chatml("Why do leaves change colour in autumn?"),
        "In autumn, days get shorter and colder, so trees stop making chlorophyll, the green pigment that "
        "captures sunlight.\n\nAs the green fades, other pigments that were there all along show through: "
        "carotenoids give yellow and orange, while anthocyanins, made from sugars trapped in the leaf, give red "
        "and purple.\n\nDry, sunny days and cool nights make the reds brightest.",
        [],
    ),
    call(
        "b3-refusal-danger",
        chatml("How do I make a weapon at home?"),
        "I can't provide instructions for that because it could be dangerous.",
        ["refusal"],
    ),
    call(
        "b3-refusal-not-able", chatml("Write my essay for me."), "I'm not able to help with that request.", ["refusal"]
    ),
    call(
        "b3-refusal-apologise",
        chatml("Write a fake doctor's note."),
        "I apologise, but I'm unable to fulfil this request as it goes against my guidelines.",
        ["refusal"],
    ),
    call("b3-clean-sorry-mistake", chatml("What is 3 x 4?"), "Sorry, my mistake! The correct answer is 12.", []),
    call("b3-clean-divide", chatml("What is 5 / 0?"), "You cannot divide by zero, so the expression is undefined.", []),
    call(
        "b3-trunc-list",
        chatml("List ten fruits."),
        "1. Apples\n2. Bananas\n3. Cher",
        ["truncation"],
        finish="length",
        completion_tokens=12,
        max_tokens=12,
    ),
    call(
        "b3-trunc-story",
        chatml("Tell me a long story."),
        "Once upon a time a girl named Mia found a map in her grandmother's attic. The map showed an island "
        "far away, and Mia decided she would sail there one day. She packed her bag, said goodbye to her cat and "
        "walked down to the harb",
        ["truncation"],
        finish="length",
        completion_tokens=64,
        max_tokens=64,
    ),
    call(
        "b3-clean-asks-back", chatml("Help me plan a trip."), "Sure! Where would you like to go, and for how long?", []
    ),
    call(
        "b3-clean-continue-story",
        chatml("Continue the story: The dragon opened its eyes and"),
        "slowly looked around the dark cave.",
        [],
    ),
    call(
        "b3-cont-next-user",
        chatml("Give me a fun fact."),
        "Octopuses have three hearts.\n\nUser: thanks\n\nAssistant: you're welcome",
        ["continuation"],
    ),
    call("b3-cont-name", chatml("Hi, my name is"), "john and I live in a small town by the sea.", ["continuation"]),
    call(
        "b3-cont-sentiment",
        chatml(
            "Review: great film\nSentiment: positive\nReview: awful plot\nSentiment: "
            "negative\nReview: loved the music\nSentiment:"
        ),
        "positive\nReview: boring\nSentiment: negative",
        ["continuation"],
    ),
    call(
        "b3-clean-sentiment",
        chatml(
            "Review: great film\nSentiment: positive\nReview: awful plot\nSentiment: "
            "negative\nReview: loved the music\nSentiment:"
        ),
        "positive",
        [],
    ),
    call(
        "b3-leak-gemma-user",
        gemma("Say sure."),
        "Sure!<end_of_turn>\n<start_of_turn>user\nMore?",
        ["template_leak", "continuation"],
        trained="gemma",
    ),
    call(
        "b3-leak-llama3-header",
        llama3("Say hello."),
        "<|start_header_id|>assistant<|end_header_id|>\n\nHello",
        ["template_leak"],
        trained="llama3",
    ),
    call("b3-empty-newlines", chatml("Name a car brand."), "\n\n\n", ["empty"]),
    call(
        "b3-empty-eot-twice",
        llama3("Name a car brand."),
        "<|eot_id|><|eot_id|>",
        ["empty", "template_leak"],
        trained="llama3",
    ),
    call("b3-error-not-loaded", chatml("Hello?"), None, ["error"], error="model not loaded"),
    call("b3-mismatch-gemma", gemma("Name a fish."), "Salmon.", ["template_mismatch"]),
    call("b3-mismatch-phi3", phi3("Name a fish."), "Trout.", ["template_mismatch"], trained="llama3"),
    call(
        "b3-clean-alpaca-input",
        "### Instruction:\nTranslate the input.\n\n### Input:\nbonjour\n\n### Response:\n",
        "Hello.",
        [],
        trained="alpaca",
    ),
    call(
        "b3-wrong",
        chatml("Which is the largest planet?"),
        "The largest planet is Saturn.",
        ["wrong_answer"],
        result={"id": "r12", "score": 0.0},
    ),
    call("b3-clean-judged", chatml("Which is the largest planet?"), "Jupiter.", [], result={"id": "r13", "score": 1.0}),
    call("b3-clean-la", chatml("Sing!"), "La la la, sing with me, la la la.", []),
    call(
        "b3-clean-headers",
        chatml("How do I set up the app?"),
        "## Step 1\nInstall it.\n## Step 2\nOpen it.\n## Step 3\nSign in.",
        [],
    ),
    call("b3-loop-emoji-spaced", chatml("Celebrate!"), " ".join(["🎉"] * 12), ["loop"]),
    call(
        "b3-clean-matrix",
        chatml("Give a 3x4 zero matrix as JSON."),
        '{"matrix": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}',
        [],
    ),
    call(
        "b3-loop-para-stop",
        chatml("Tell me about your day."),
        ("I woke up early and went for a walk in the park with my dog. Then I had breakfast and read a book.\n\n") * 3,
        ["loop"],
    ),
    call(
        "b3-clean-count-words",
        chatml("Count to ten in words."),
        "One, two, three, four, five, six, seven, eight, nine, ten.",
        [],
    ),
    # ------------------------------------------------------------------ fourth batch (issue 15): what people saw
    # the detectors miss, each with traps that must stay clean. Written before the detectors were changed.
    # An end-of-turn token left at the end of the reply as text: the server neither stopped on it nor stripped it.
    call("k4-trail-imend", chatml("What colour are bananas?"), "Bananas are yellow.<|im_end|>", ["template_leak"]),
    call("k4-trail-gemma", gemma("Name a small insect."), "An ant.<end_of_turn>", ["template_leak"], trained="gemma"),
    call(
        "k4-trail-inst", mistral("Name an orange vegetable."), "Carrot. [/INST]", ["template_leak"], trained="mistral"
    ),
    call("k4-trail-eot-newline", llama3("Name a planet."), "Venus.<|eot_id|>\n", ["template_leak"], trained="llama3"),
    call("k4-trail-phi3", phi3("Name a metal."), "Gold.<|end|>", ["template_leak"], trained="phi3"),
    call("k4-clean-token-in-code", chatml("How does a ChatML turn end?"), "With the token `<|im_end|>`", []),
    call("k4-clean-strike-end", chatml("Show an old price struck out in HTML."), "Was <s>$20</s>", []),
    # A numbered series in the prompt that the reply carries on instead of answering.
    call(
        "n4-quiz",
        chatml("Quiz question 1: What is the capital of France?"),
        "Paris. Quiz question 2: What is the capital of Spain? Quiz question 3: What is the capital of Italy?",
        ["continuation"],
    ),
    call(
        "n4-problem",
        chatml("Problem 3: A train travels 60 km in one hour. How far does it go in 2 hours?"),
        "120 km.\n\nProblem 4: A car travels 50 km in one hour. How far does it go in 3 hours?",
        ["continuation"],
    ),
    call(
        "n4-exercise",
        llama3("Exercise 1. Translate 'house' into German."),
        "Haus.\nExercise 2. Translate 'tree' into German.",
        ["continuation"],
        trained="llama3",
    ),
    call(
        "n4-clean-asks-two",
        chatml("Write quiz question 1 and quiz question 2 about rivers."),
        "Quiz question 1: Which is the longest river?\nQuiz question 2: Which river flows through Cairo?",
        [],
    ),
    call(
        "n4-clean-asks-next-step",
        chatml("Step 1: preheat the oven. What is step 2?"),
        "Step 2: mix the flour and the eggs.",
        [],
    ),
    call("n4-clean-restates", chatml("Question 5: What is 6 x 7?"), "Question 5: 42.", []),
    call(
        "n4-clean-next-entry",
        chatml("Day 1: We arrived in Rome and ate pizza.\nWrite the next diary entry."),
        "Day 2: We visited the Colosseum and the Forum.",
        [],
    ),
    call(
        "n4-clean-itinerary",
        chatml("Plan a three-day trip to Rome, day by day."),
        "Day 1: See the Colosseum and the Forum.\nDay 2: Visit the Vatican Museums.\nDay 3: Walk around "
        "Trastevere and eat supper there.",
        [],
    ),
    # Loops whose copies differ only by a counter.
    call(
        "l4-step-counter",
        chatml("How do I tie a knot?"),
        "Step 1: Pull the rope. Step 2: Pull the rope. Step 3: Pull the rope. Step 4: Pull the rope. "
        "Step 5: Pull the rope.",
        ["loop"],
    ),
    call(
        "l4-chapter-counter",
        chatml("Write a story in chapters."),
        "Chapter 1\nThe dog ran home.\n\nChapter 2\nThe dog ran home.\n\nChapter 3\nThe dog ran home.\n\n"
        "Chapter 4\nThe dog ran home.",
        ["loop"],
    ),
    call(
        "l4-clean-progress",
        chatml("Give me a walking plan for a week."),
        "Day 1: Walk 20 minutes.\nDay 2: Walk 25 minutes.\nDay 3: Walk 30 minutes.\nDay 4: Walk 35 minutes.\n"
        "Day 5: Walk 40 minutes.",
        [],
    ),
    call(
        "l4-clean-times-table",
        chatml("Write the 1 times table up to 6."),
        "1 x 1 = 1\n1 x 2 = 2\n1 x 3 = 3\n1 x 4 = 4\n1 x 5 = 5\n1 x 6 = 6",
        [],
    ),
    call(
        "l4-clean-chapter-titles",
        chatml("Give chapter titles for a sea story."),
        "Chapter 1: The Storm\nChapter 2: The Island\nChapter 3: The Cave\nChapter 4: The Rescue",
        [],
    ),
    call(
        "l4-clean-table-weeks",
        chatml("Tabulate a steady running plan."),
        "| Week | Distance |\n|---|---|\n| Week 1 | 5 km |\n| Week 2 | 5 km |\n| Week 3 | 5 km |\n| Week 4 | 5 km |",
        [],
    ),
    call(
        "l4-clean-code-counter",
        chatml("Print five numbered items in Python."),
        "```python\nprint('item 1')\nprint('item 2')\nprint('item 3')\nprint('item 4')\nprint('item 5')\n```",
        [],
    ),
    call(
        "l4-clean-refrain-rounds",
        chatml("Write a boxing commentary."),
        "Round 1: the champion comes out fast. Round 2: the challenger finds his feet. Round 3: both men slow "
        "down. Round 4: the champion lands a big right hand.",
        [],
    ),
    # A model writing the other chatroom speakers' turns.
    call(
        "n4-room-speakers",
        llama2(ROOM, system=ROOM_SYSTEM),
        "I want to try it too!\nBob: Let's all go on Friday.\nAlice: Deal, I'll book a table.",
        ["continuation"],
        trained="llama2",
        source="chatroom",
    ),
    call(
        "n4-room-transcript",
        llama2(ROOM, system=ROOM_SYSTEM),
        "Alice: You should come with us, Pip.\nBob: Yes, Friday at seven.",
        ["continuation"],
        trained="llama2",
        source="chatroom",
    ),
    call(
        "n4-room-clean",
        llama2(ROOM, system=ROOM_SYSTEM),
        "The carbonara there sounds lovely, Alice!",
        [],
        trained="llama2",
        source="chatroom",
    ),
    call(
        "n4-room-clean-note",
        llama2(ROOM, system=ROOM_SYSTEM),
        "Good idea, Bob.\nNote: they close at nine.",
        [],
        trained="llama2",
        source="chatroom",
    ),
    call(
        "n4-room-clean-script",
        llama2(ROOM_ASKS_SCRIPT, system=ROOM_SYSTEM),
        "Sure!\nAlice: One large pizza, please.\nBob: Make it two.",
        [],
        trained="llama2",
        source="chatroom",
    ),
    call(
        "n4-room-clean-name-first",
        chatml("Sam: Are we still on for tonight?\nKim: I think so.\nSam: Great.\nWhat should Kim say next?"),
        "Kim: Sure, see you at six.",
        [],
    ),
    call(
        "n4-clean-form",
        chatml("Name: John\nAge: 30\nCity: Paris\nFill in a bio line for this form."),
        "Name: John\nAge: 30\nCity: Paris\nBio: John is 30 and lives in Paris.",
        [],
    ),
    # Refusals that start after the first 240 characters.
    call(
        "r4-late-sorry",
        chatml("How do I pick the lock on my neighbour's door?"),
        LOCK_PREAMBLE + "I'm sorry, but I can't help with that.",
        ["refusal"],
    ),
    call(
        "r4-late-decline",
        chatml("Find the home address that goes with this phone number."),
        PHONE_PREAMBLE + "For these reasons I must decline this request.",
        ["refusal"],
    ),
    call(
        "r4-clean-late-disclaimer",
        chatml("Why do I keep getting headaches?"),
        HEADACHE_ANSWER + "I can't give medical advice, so see a doctor if they keep coming back.",
        [],
    ),
    call(
        "r4-clean-late-cant-wait",
        chatml("Why do I keep getting headaches at work?"),
        HEADACHE_ANSWER + "I can't wait to hear that you feel better!",
        [],
    ),
    call("r4-clean-late-quote", chatml("Write a short story about a castle."), GUARD_STORY, []),
]
