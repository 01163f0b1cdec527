"""What every screen needs to know about the session: the platform, the model, the client.

Built once by the CLI (or a test) and handed to ``create_app``; screens read it through
``BlahScreen.ctx``. No Textual import, so CLI subcommands can build one too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from application.session.settings.typed import Settings

if TYPE_CHECKING:
    from api_client.archives.archive import Archive
    from api_client.blahdev.client import BlahClient


@dataclass
class AppContext:
    """The session: which platform and model, and how to reach them.

    ``client`` is None in offline mode (``blah-tui open FILE.jsonl``): screens that need
    the network say so instead of failing.
    """

    model_id: str
    client: BlahClient | None = None
    platform: str = "blah.dev"
    base_url: str | None = None
    archive: Archive | None = None
    offline_source: Path | None = None
    demo: bool = False
    key_source: str = "none"  # "flag" | "env" | "config" | "keyring" | "demo" | "none": never the key itself
    trained_template: str | None = None  # from the person's config for this model, if set
    settings: Settings = field(default_factory=Settings)
    open_log_id: str | None = None  # `blah-tui --log LOG_ID`: open the inspector on start
    open_bundle: Path | None = None  # `blah-tui open BUNDLE.json`: an evidence bundle re-checked on start
    profile: str = ""  # the profile's name ([profiles.NAME]); "" for today's implicit blah.dev profile
    config_problem: str | None = None  # what was wrong with the config file (said once the app starts)
    key_problem: str | None = None  # why there is no usable API key (stderr is hidden once the app starts)
    blobfish_problem: str | None = None  # why the Blobfish client could not be made (said once the app starts)
    blobfish: Any = None
    """Blobfish SDK evaluations (the Evaluations area) when a Blobfish client is configured: an
    ``application.evaluations.source.EvaluationSource`` (not imported here: every layer imports
    the context, and the source's package would close a cycle)."""
    bench: Any = None
    """Blobfish benchmark runs and the community board (Runs, the run watch, Leaderboard's
    board tab): an ``api_client.blobfish.benchmarks.BenchmarkClient`` on the same origin and key as
    ``blobfish``, or None when Blobfish is not configured."""
    bench_slugs: tuple[str, ...] = ()
    """Blobfish benchmarks the session is told of (the demo's world): listed in Runs beside
    those the person has run or whose board they opened (``application.runs.bench.known``)."""
    errorbar: Any = None
    """The errorbar eval-run queue (Compare's bake-offs): an
    ``api_client.errorbar.ErrorbarClient``, or None when errorbar is not configured."""
    errorbar_problem: str | None = None  # why the errorbar client could not be made (said in the app)

    @property
    def platform_label(self) -> str:
        """The platform as headers name it: with the profile's name when one was chosen."""
        return f"{self.profile} · {self.platform}" if self.profile else self.platform

    def __post_init__(self) -> None:
        # A plain mapping is validated like ``Settings(**mapping)``: a misspelt name still fails.
        if isinstance(self.settings, Mapping):
            self.settings = Settings.model_validate(dict(self.settings))
        elif not isinstance(self.settings, Settings):
            raise TypeError(f"AppContext.settings must be Settings, not {type(self.settings).__name__}")

    @property
    def online(self) -> bool:
        return self.client is not None

    @property
    def has_key(self) -> bool:
        return self.client is not None and self.client.has_key
