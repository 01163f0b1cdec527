"""What the command line and the screens share, with no Textual: one package per area of the
UI (logs, inspector, diagnosis, runs, bakeoffs, compare, leaderboard, evaluations, chatroom,
webhooks, training, models, health), each holding every platform's part of it, plus ``session``
(settings, credentials, profiles, paths). Loose: the one poll loop (``poller``), how an error reads
(``error_text``) and which chat template a model was trained with (``chat_template``).
"""
