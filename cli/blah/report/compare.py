"""`blah-tui report MODEL_ID --compare OTHER_MODEL_ID [--json] [--limit N]`.

Did the new checkpoint get better? MODEL_ID is the new checkpoint (B, after), OTHER_MODEL_ID
the one it is compared with (A, before): the ``--limit`` most recent calls of each are read
and classified, then compared per failure kind and per eval (``diagnosis.checkpoint`` has the
method). Prints the table the Compare screen's
Checkpoints view shows, as plain text, or JSON with ``--json``.

Exit codes as ``blah-tui report`` (:class:`cli.exit_codes.ExitCode`). Output is inert for a terminal. No Textual import.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from api_client.blahdev.client import BlahClient
from api_client.errors import BlahError, NotFoundError, UnreachableError
from application.compare.checkpoint import CheckpointComparison, compare_models
from application.compare.checkpoint_format import (
    COLUMNS,
    METHOD,
    row_cells,
    side_line,
    to_json,
)
from cli.blah.report.output import fail, write_inert
from cli.errors import exit_for
from cli.exit_codes import ExitCode
from common.safe_strings import one_line

__all__ = ["compare_main", "render_table"]


def render_table(comparison: CheckpointComparison) -> str:
    """The comparison as a plain-text table, with the two sides and the method above it."""
    lines = [
        "Did the new checkpoint get better? (A before, B after)",
        side_line("A", comparison.a),
        side_line("B", comparison.b),
        f"Method: {METHOD}.",
        "",
    ]
    table: list[Sequence[str]] = [COLUMNS, *(row_cells(row) for row in comparison.rows)]
    widths = [max(len(cells[i]) for cells in table) for i in range(len(COLUMNS))]
    for n, cells in enumerate(table):
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines) + "\n"


async def _compare(
    model_a: str, model_b: str, *, base_url: str, api_key: str | None, limit: int
) -> CheckpointComparison:
    from application.session.settings.config import load_config

    templates = dict(load_config().config.templates)
    async with BlahClient(base_url, api_key=api_key) as client:
        for model_id in (model_a, model_b):  # an unknown model fails fast, named, before any call is read
            try:
                await client.get_model(model_id)
            except NotFoundError as error:
                raise NotFoundError(f"the platform at {base_url} does not know model {model_id!r}") from error
        return await compare_models(client, model_a, model_b, templates=templates, limit=limit)


def compare_main(
    model_id: str,
    other_id: str,
    *,
    base_url: str,
    api_key: str | None,
    as_json: bool,
    limit: int,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if limit < 1:
        return fail(f"--limit must be at least 1 (got {limit})", ExitCode.USAGE, err)
    if not model_id.strip() or not other_id.strip():
        return fail("a model id is empty", ExitCode.USAGE, err)
    if model_id == other_id:
        return fail("--compare names the same model: choose another model to compare with", ExitCode.USAGE, err)
    try:  # the other model is "before" (A), MODEL_ID "after" (B)
        comparison = asyncio.run(_compare(other_id, model_id, base_url=base_url, api_key=api_key, limit=limit))
    except NotFoundError as error:
        return fail(one_line(error.message, max_len=300), ExitCode.NOT_FOUND, err)
    except UnreachableError as error:
        return fail(
            f"cannot reach the platform at {base_url}: {one_line(error.message, max_len=200)}",
            ExitCode.UNREACHABLE,
            err,
        )
    except BlahError as error:
        return fail(one_line(error.message, max_len=300), exit_for(error), err)
    except KeyboardInterrupt:
        return fail("interrupted", ExitCode.INTERRUPTED, err)
    if as_json:
        text = json.dumps(to_json(comparison), ensure_ascii=True, indent=2) + "\n"
    else:
        text = render_table(comparison)
    write_inert(out, text)
    return ExitCode.OK
