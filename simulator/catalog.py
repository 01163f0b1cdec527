"""The fixed catalogue of the seeded world: models and evals (with items and reference answers).

Only the dynamic parts (logs, scores, chat, timings) depend on the seed; the catalogue is
the same in every world so that ids are stable across runs and seeds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ModelSpec:
    id: str
    name: str
    description: str
    inference_uri: str
    chat_template: str | None
    is_official: bool
    submitted_by: str
    skill: float
    """Probability of a correct answer on an eval item for peers (the small model uses small_model)."""


@dataclass(frozen=True)
class Item:
    id: str
    prompt: str
    reference: str
    wrong: str
    history: tuple[tuple[str, str], ...] = ()
    """Earlier (role, content) turns for multi-turn items."""


@dataclass(frozen=True)
class EvalSpec:
    id: str
    name: str
    subject: str
    instruction_type: str
    eval_type: str
    description: str
    expected_behavior: str
    criteria: dict[str, str]
    max_tokens: int
    items: tuple[Item, ...] = field(default_factory=tuple)

    @property
    def eval_criteria(self) -> str:
        return json.dumps({"criteria": self.criteria}, sort_keys=True)


PERSON_MODEL_ID = "tinystories-chat-1m"

MODELS: tuple[ModelSpec, ...] = (
    ModelSpec(PERSON_MODEL_ID, "TinyStories Chat 1M",
              "A 1M-parameter chat model fine-tuned from TinyStories on chatml conversations.",
              "openai-compatible:https://gpu-box.example.test/v1#tinystories-chat-1m", "chatml",
              False, "demo-person", 0.0),
    ModelSpec("llama-3.1-8b-instruct", "Llama 3.1 8B Instruct", "Meta's 8B instruction-tuned model.",
              "meta-llama/llama-3.1-8b-instruct", "llama3", True, "blah", 0.86),
    ModelSpec("mistral-7b-instruct", "Mistral 7B Instruct v0.3", "Mistral's 7B instruct model.",
              "mistralai/mistral-7b-instruct", "mistral", True, "blah", 0.8),
    ModelSpec("gemma-2-9b-it", "Gemma 2 9B IT", "Google's Gemma 2 9B instruction-tuned.",
              "google/gemma-2-9b-it", "gemma", True, "blah", 0.84),
    ModelSpec("gpt2-base", "GPT-2 (base)", "Completion-only base model, no chat template.",
              "https://infer.example.test/gpt2", "none", False, "retro-fan", 0.35),
    ModelSpec("mystery-13b", "Mystery 13B", "Community upload; its template was never stated.",
              "openai-compatible:https://mystery.example.test/v1#m13b", None, False, "anon-17", 0.7),
)

_LONG_PASSAGE = (
    "The town council met on Tuesday evening to discuss the future of the old railway station. "
    "Some residents want the building turned into a library, arguing that the town has had no "
    "public library since the fire of 1998 and that children now travel forty minutes to borrow "
    "books. Others would prefer a covered market, which they say would bring visitors on weekends "
    "and support the farms around the town. The council's budget allows for only one project this "
    "decade. After three hours of debate, the council voted to hold a public consultation in the "
    "spring and to publish the costs of both plans before then, so that everyone can compare them."
)
_LONG_STORY = (
    "Mia found a small bird with a hurt wing under the big oak tree behind her school. She carried "
    "it home in her hat and made a bed for it from an old shoebox and some soft socks. Every morning "
    "she gave it water and seeds, and every evening she told it a story about the sky. After two "
    "weeks the bird could hop, and after three it could flap. One sunny day Mia opened the window. "
    "The bird sat on the sill for a long time, looked back at her, and then flew to the oak tree, "
    "where it sang until the sun went down."
)


def _ev(eid: str, name: str, subject: str, itype: str, etype: str, desc: str, expected: str,
        criteria: dict[str, str], max_tokens: int, *items: Item) -> EvalSpec:
    return EvalSpec(eid, name, subject, itype, etype, desc, expected, criteria, max_tokens, items)


EVALS: tuple[EvalSpec, ...] = (
    _ev("ev-capitals", "World capitals", "geography", "factual_qa", "semantic",
        "Short factual questions about capital cities.", "Names the correct capital, briefly.",
        {"accuracy": "the capital named is correct", "brevity": "one short sentence"}, 32,
        Item("ev-capitals-1", "What is the capital of France?", "The capital of France is Paris.",
             "The capital of France is Lyon."),
        Item("ev-capitals-2", "What is the capital of Japan?", "The capital of Japan is Tokyo.",
             "The capital of Japan is Kyoto."),
        Item("ev-capitals-3", "What is the capital of Australia?", "The capital of Australia is Canberra.",
             "The capital of Australia is Sydney."),
        Item("ev-capitals-4", "What is the capital of Canada?", "The capital of Canada is Ottawa.",
             "The capital of Canada is Toronto.")),
    _ev("ev-science", "Everyday science", "science", "factual_qa", "semantic",
        "Simple science questions a child might ask.", "A correct, simple explanation.",
        {"accuracy": "the explanation is correct", "clarity": "a child could follow it"}, 64,
        Item("ev-science-1", "Which planet is known as the Red Planet?", "Mars is known as the Red Planet.",
             "Jupiter is known as the Red Planet."),
        Item("ev-science-2", "What do plants need to make their food?",
             "Plants need sunlight, water and carbon dioxide to make their food.",
             "Plants need darkness and salt to make their food."),
        Item("ev-science-3", "At what temperature does water boil at sea level, in Celsius?",
             "Water boils at 100 degrees Celsius at sea level.", "Water boils at 50 degrees Celsius.")),
    _ev("ev-summarise", "Summarise a passage", "news", "summarise", "rubric",
        "Summarise a long passage in one or two sentences.", "A faithful summary of one or two sentences.",
        {"faithfulness": "no invented facts", "length": "at most two sentences"}, 48,
        Item("ev-summarise-1", f"Summarise this passage in one sentence:\n\n{_LONG_PASSAGE}",
             "The council could not choose between a library and a market for the old station, so it "
             "will consult the public in spring after publishing both plans' costs.",
             "The council decided to build a new railway station."),
        Item("ev-summarise-2", f"Summarise this story in two sentences:\n\n{_LONG_STORY}",
             "Mia looked after a bird with a hurt wing until it could fly. When it was well she let it "
             "go, and it sang in the oak tree.", "Mia bought a new bird from a shop."),
        Item("ev-summarise-3", "Summarise in one sentence: The bakery on Elm Street will close for two "
             "weeks in August while its ovens are replaced, and will reopen with a longer menu.",
             "The Elm Street bakery closes for two weeks in August to replace its ovens and will reopen "
             "with more on the menu.", "The bakery is closing forever.")),
    _ev("ev-translate", "Translate to French", "language", "translate", "semantic",
        "Translate short English sentences into French.", "A correct French translation.",
        {"accuracy": "meaning preserved", "fluency": "natural French"}, 32,
        Item("ev-translate-1", "Translate to French: The cat is sleeping.", "Le chat dort.", "Le chien dort."),
        Item("ev-translate-2", "Translate to French: I like apples.", "J'aime les pommes.",
             "Je mange des oranges."),
        Item("ev-translate-3", "Translate to French: Where is the station?", "Où est la gare ?",
             "Qui est la gare ?")),
    _ev("ev-sentiment", "Sentiment classification", "reviews", "classify", "semantic",
        "Label a product review as positive or negative.", "Exactly one word: positive or negative.",
        {"label": "correct label", "format": "one word only"}, 8,
        Item("ev-sentiment-1", "Classify the sentiment of this review as positive or negative. Review: "
             "\"The blender broke after two days and support never answered.\"", "negative", "positive"),
        Item("ev-sentiment-2", "Classify the sentiment of this review as positive or negative. Review: "
             "\"Comfortable shoes, I wear them every day.\"", "positive", "negative"),
        Item("ev-sentiment-3", "Classify the sentiment of this review as positive or negative. Review: "
             "\"Arrived late, but it works perfectly and my kids love it.\"", "positive", "negative")),
    _ev("ev-code", "Small Python functions", "programming", "code", "rubric",
        "Write a short Python function.", "Correct, runnable Python.",
        {"correctness": "the function does what is asked", "format": "code only"}, 96,
        Item("ev-code-1", "Write a Python function that returns the sum of a list of numbers.",
             "def total(numbers):\n    return sum(numbers)", "def total(numbers):\n    return len(numbers)"),
        Item("ev-code-2", "Write a Python function that reverses a string.",
             "def reverse(text):\n    return text[::-1]", "def reverse(text):\n    return text.upper()"),
        Item("ev-code-3", "Write a Python function that checks whether a number is even.",
             "def is_even(n):\n    return n % 2 == 0", "def is_even(n):\n    return n % 2 == 1")),
    _ev("ev-arithmetic", "Arithmetic", "maths", "maths", "semantic",
        "Mental arithmetic and one-step word problems.", "The correct number.",
        {"accuracy": "the final number is correct"}, 32,
        Item("ev-arithmetic-1", "What is 17 + 25?", "17 + 25 = 42.", "17 + 25 = 43."),
        Item("ev-arithmetic-2", "What is 12 * 11?", "12 * 11 = 132.", "12 * 11 = 121."),
        Item("ev-arithmetic-3", "A train travels 60 km in 1.5 hours. What is its average speed in km/h?",
             "Its average speed is 40 km/h.", "Its average speed is 90 km/h."),
        Item("ev-arithmetic-4", "Tom has 3 bags with 4 apples each. He eats 2 apples. How many are left?",
             "Tom has 10 apples left.", "Tom has 12 apples left.")),
    _ev("ev-story", "Tiny stories", "creative", "creative_writing", "rubric",
        "Write a very short story on a given theme.", "A coherent two-sentence story on the theme.",
        {"on_topic": "follows the theme", "coherence": "makes sense", "length": "two sentences"}, 64,
        Item("ev-story-1", "Write a two-sentence story about a dragon who is afraid of the dark.",
             "Ember the dragon always slept with her own flame lit, because the dark scared her. One night "
             "the fireflies came to glow beside her, and she finally let her fire go out.",
             "The car drove down the road. It was blue."),
        Item("ev-story-2", "Write a two-sentence story about a lost red balloon.",
             "A red balloon slipped from Sam's hand and floated over the town. It landed in a garden where "
             "a little girl tied it to her swing and waved at the sky.",
             "Balloons are made of rubber. They are sold in shops."),
        Item("ev-story-3", "Write a two-sentence story about a robot learning to bake.",
             "Bolt the robot burned his first cake to a crisp. On the tenth try he added a pinch of patience, "
             "and the whole kitchen smelled of vanilla.", "The robot was a robot. The end.")),
    _ev("ev-json", "Strict JSON output", "data", "json_output", "rubric",
        "Extract fields and answer with JSON only.", "A single valid JSON object, no prose.",
        {"valid_json": "parses as JSON", "fields": "the requested keys with correct values",
         "no_prose": "nothing outside the JSON"}, 48,
        Item("ev-json-1", "Return only JSON with keys \"name\" and \"age\" for: Alice is 30 years old.",
             "{\"name\": \"Alice\", \"age\": 30}", "Sure! Here it is: {name: Alice, age: 30}"),
        Item("ev-json-2", "Return only JSON with keys \"city\" and \"country\" for: Lisbon is in Portugal.",
             "{\"city\": \"Lisbon\", \"country\": \"Portugal\"}", "{\"city\": \"Lisbon\", \"country\": "),
        Item("ev-json-3", "Return only a JSON list of the colours in: the flag is red, white and blue.",
             "[\"red\", \"white\", \"blue\"]", "The colours are red, white and blue.")),
    _ev("ev-multiturn", "Multi-turn memory", "conversation", "multi_turn_chat", "semantic",
        "Answer using something said earlier in the conversation.", "Uses the earlier turn correctly.",
        {"memory": "recalls the earlier fact", "tone": "friendly"}, 32,
        Item("ev-multiturn-1", "What is my name?", "Your name is Sam.", "Your name is Max.",
             (("user", "Hi! My name is Sam."), ("assistant", "Nice to meet you, Sam!"))),
        Item("ev-multiturn-2", "What colour is my bike?", "Your bike is green.", "Your bike is red.",
             (("user", "I just painted my bike green."), ("assistant", "That sounds lovely!"))),
        Item("ev-multiturn-3", "How old will my dog be next year?", "Your dog will be 5 next year.",
             "Your dog will be 4 next year.",
             (("user", "My dog Rex turned 4 today."), ("assistant", "Happy birthday to Rex!")))),
    _ev("ev-grammar", "Fix the grammar", "language", "rewrite", "semantic",
        "Correct the grammar of one sentence.", "The corrected sentence only.",
        {"correctness": "grammar fixed", "minimal": "meaning unchanged"}, 32,
        Item("ev-grammar-1", "Correct the grammar: She don't like apples.", "She doesn't like apples.",
             "She don't likes apples."),
        Item("ev-grammar-2", "Correct the grammar: They was going to the park.", "They were going to the park.",
             "They is going to the park."),
        Item("ev-grammar-3", "Correct the grammar: Me and him goes to school.", "He and I go to school.",
             "Me and him go to school.")),
    _ev("ev-instructions", "Follow a format", "instructions", "instruction_following", "rubric",
        "Follow a simple output-format instruction.", "Exactly the requested format.",
        {"format": "exactly as asked", "content": "sensible items"}, 32,
        Item("ev-instructions-1", "List three colours, one per line, nothing else.", "red\ngreen\nblue",
             "Colours are nice. I like red."),
        Item("ev-instructions-2", "Answer with yes or no only: Is the sun a star?", "yes",
             "The sun is very hot and bright."),
        Item("ev-instructions-3", "Reply with the single word OK.", "OK", "Okay, I will reply with OK!")),
)

EVALS_BY_ID: dict[str, EvalSpec] = {e.id: e for e in EVALS}
ITEMS_BY_ID: dict[str, tuple[EvalSpec, Item]] = {i.id: (e, i) for e in EVALS for i in e.items}
ALL_ITEMS: tuple[tuple[EvalSpec, Item], ...] = tuple((e, i) for e in EVALS for i in e.items)
