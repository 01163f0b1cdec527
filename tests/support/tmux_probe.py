"""Run a program in a real terminal (tmux) and keep every byte it writes to it.

    with TmuxProbe(tmp_path) as probe:
        probe.start([sys.executable, "-m", "cli.main", ...], env={...})
        probe.wait_for_text("Logs")
        probe.send_keys("3")
        raw = probe.raw()          # bytes the program wrote, escape sequences and all
        probe.pane_title()         # what the terminal's title is now

Uses a private tmux server (``-L``, its own socket), so it never touches the person's own
sessions. The program waits for a go-file before it starts, so ``pipe-pane`` is attached
before its first byte: nothing it writes is missed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Self


def tmux_available() -> bool:
    return shutil.which("tmux") is not None


class TmuxProbe:
    def __init__(self, workdir: Path, *, size: tuple[int, int] = (140, 45)) -> None:
        self.workdir = workdir
        self.size = size
        self.socket = f"blah-probe-{uuid.uuid4().hex[:10]}"
        self.session = "probe"
        self.raw_path = workdir / "terminal-output.bin"
        self._go = workdir / "go"
        self._started = False

    # ------------------------------------------------------------------ tmux

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=30, check=check
        )

    def start(self, argv: list[str], *, env: dict[str, str], cwd: Path) -> None:
        """Start ``argv`` in a new detached session (with ``env`` added to a minimal one)."""
        self.raw_path.write_bytes(b"")
        waiter = (
            f"while [ ! -f {shlex.quote(str(self._go))} ]; do sleep 0.05; done; "
            f"cd {shlex.quote(str(cwd))} && exec {shlex.join(argv)}"
        )
        env_args: list[str] = []
        for key, value in {"TERM": "xterm-256color", "LANG": "C.UTF-8", **env}.items():
            env_args += ["-e", f"{key}={value}"]
        width, height = self.size
        self._tmux(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            self.session,
            "-x",
            str(width),
            "-y",
            str(height),
            *env_args,
            "sh",
            "-c",
            waiter,
        )
        self._tmux("set-option", "-t", self.session, "remain-on-exit", "on")
        self._tmux("pipe-pane", "-t", self.session, "-o", f"cat >> {shlex.quote(str(self.raw_path))}")
        self._go.touch()
        self._started = True

    def send_keys(self, *keys: str) -> None:
        for key in keys:
            self._tmux("send-keys", "-t", self.session, key)

    def capture(self) -> str:
        """The screen as text (what a person sees now)."""
        return self._tmux("capture-pane", "-p", "-t", self.session, check=False).stdout

    def pane_title(self) -> str:
        return self._tmux("display-message", "-p", "-t", self.session, "#{pane_title}", check=False).stdout.strip()

    def dead(self) -> bool:
        """True once the program has exited (the pane stays, showing its last screen)."""
        out = self._tmux("display-message", "-p", "-t", self.session, "#{pane_dead}", check=False).stdout.strip()
        return out == "1"

    def raw(self) -> bytes:
        return self.raw_path.read_bytes() if self.raw_path.exists() else b""

    def wait_for_text(self, text: str, timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.capture():
                return True
            if self.dead():
                return text in self.capture()
            time.sleep(0.2)
        return False

    def wait_dead(self, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.dead():
                return True
            time.sleep(0.2)
        return self.dead()

    def close(self) -> None:
        if self._started:
            self._tmux("kill-server", check=False)
            self._started = False

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def base_env() -> dict[str, str]:
    """What the program needs from our environment (PATH, HOME), nothing else."""
    return {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
