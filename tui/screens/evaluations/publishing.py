"""``P`` on the Evaluations list: publish the evaluation's job to Blobfish, built in the app.

The envelope comes from the evidence the screen already read
(``application.evaluations.publish.plan_publication``): nobody cuts ``envelope`` out of
`show --json`. The person is asked first (a confirmation naming the job, taskset, model, rollout
and trace counts, size and where it goes), the request is sent once (``tui.send_once``), and
the answer stays on the screen's outcome line: the evaluation id and dashboard URL, or why not,
in one sentence. A lost answer is "outcome unknown" until the list has been read. The bytes made
for a job are kept for the screen's life, so publishing it again resends them verbatim.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.screen import Screen

from api_client.blobfish.errors import PublishRefusedLocally
from api_client.blobfish.publication import Publication
from application.evaluations.listing import EvaluationRow
from application.evaluations.publish import Publisher, PublishPlan, plan_publication, publish_once
from tui.send_once import SendOnce
from widgets.safe_text import one_line, one_line_text

__all__ = ["EvaluationPublisher", "confirmation_body"]

NO_CLIENT = "Publishing needs a Blobfish client with a key (BLOBFISH_API_KEY, or `blah-tui --demo`); none is connected."

Say = Callable[[str, bool], None]


def confirmation_body(plan: PublishPlan, origin: str | None) -> Text:
    """What will be published and where: every value from the platform made inert, on one line each
    (short enough that the dialog's buttons stay on an 80x24 screen; the screen above it already
    says what a published job is: ``PROVENANCE``)."""
    body = Text()
    for label, value in plan.facts():
        body.append(f"{label:<11}", style="bold")
        body.append_text(one_line_text(value, 90))
        body.append("\n")
    body.append(f"{'to':<11}", style="bold")
    body.append_text(one_line_text(origin or "the connected Blobfish account", 90))
    body.append("\n\n")
    body.append(
        "Built here from the evidence as Blobfish sent it. Identical evidence: the same evaluation; "
        "changed evidence under this job id: refused.",
        style="dim",
    )
    return body


class EvaluationPublisher:
    """The one publish write of an Evaluations screen."""

    def __init__(self, screen: Screen[Any], client: Callable[[], Publisher | None], say: Say) -> None:
        self._screen = screen
        self._client = client
        self._say = say
        self.write = SendOnce(
            screen, group="evaluations-publish", busy_note="A publication is already being confirmed or sent."
        )
        self.made: dict[str, Publication] = {}
        """Job id -> the bytes made for it (resent verbatim by a later ``P``)."""

    def _refuse(self, message: str) -> None:
        self._say(message, True)
        self._screen.notify(one_line(message, max_len=600), severity="warning", markup=False)

    def start(self, row: EvaluationRow | None) -> None:
        """``P`` on ``row``: say why it cannot be published, or ask and send."""
        if row is None:
            return
        client = self._client()
        if client is None:
            self._refuse(NO_CLIENT)
            return
        if row.evaluation is None:
            why = (
                f"its evidence could not be read ({row.problem})" if row.problem else "its evidence is still being read"
            )
            self._refuse(f"Evaluation {row.evaluation_id} cannot be published yet: {why}.")
            return
        job_id = row.evaluation.summary.job_id or ""
        try:
            plan = plan_publication(row.evaluation, self.made.get(job_id))
        except PublishRefusedLocally as refused:
            self._refuse(refused.message)
            return
        self.made[plan.job_id] = plan.publication
        self.write.start(lambda: self._flow(client, plan))

    async def _flow(self, client: Publisher, plan: PublishPlan) -> None:
        origin = getattr(client, "base_url", None)
        title = Text("Publish job ")
        title.append_text(one_line_text(plan.job_id, 60))
        title.append(" to Blobfish?")
        if not await self.write.confirm(title, confirmation_body(plan, origin), label="Publish"):
            self._say(f"Not published: job {plan.job_id} was not sent.", False)
            return
        self._say(f"Publishing job {plan.job_id}…", False)
        outcome = await self.write.send(lambda: publish_once(client, plan))
        self._say(outcome.message, outcome.error)
        self._screen.notify(
            one_line(outcome.message, max_len=600),
            title="Publish",
            markup=False,
            timeout=10,
            severity="error" if outcome.error else "information",
        )
