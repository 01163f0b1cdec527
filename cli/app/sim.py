"""`blah-tui sim ...`: the local simulators in the foreground (:mod:`simulator.cli` parses its
own command line; the simulator imports no product package, so it is reached only from here)."""

from __future__ import annotations

import argparse

__all__ = ["build_parser", "run"]


def build_parser() -> argparse.ArgumentParser:
    from simulator.cli import build_parser as simulator_parser

    return simulator_parser()


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [--speed X] [--seed N] sim ...` (:mod:`cli.tree`): the options typed before
    `sim` are handed to its parser as typed."""
    from cli.global_options import as_flags
    from simulator.cli import main

    return main([*argv, *as_flags(given)])
