"""The clients of the three platforms the app talks to, and what they share.

- ``transport/``: the shared HTTP machinery (``HttpCore``, retries, the origin a key may go to,
  TLS, paging by offset, the polling rules) under every platform's client;
- ``errors``: the one error hierarchy every client raises (``BlahError`` and its kinds);
- ``blahdev/``: blah.dev's client (``BlahClient``), its wire shapes (``shapes``), the live tail
  and the history of a model's calls;
- ``blobfish/``: Blobfish's client (SDK evaluations, benchmark runs, the community board);
- ``errorbar/``: the errorbar eval-run queue's client (bake-offs, the gate);
- ``archives/``: the local SQLite archive of a model's calls, its full-text index and the sync
  that keeps it in step with blah.dev.

Each platform package holds its client, its wire shapes in ``shapes`` (the contract's ASSUMED
shapes marked there), its errors and its key check. No Textual import anywhere in this package.
"""

import sys as _sys


class _HttpxWithoutItsCommandLine:
    """httpx is imported without ``httpx._main``, the module of httpx's own command-line client.

    ``httpx/__init__`` imports it whenever click is installed (it is, for other tools), and
    with it click, pygments, ``rich.console``, ``rich.progress`` and ``rich.syntax``: 40-80 ms
    of CPU in every blah-tui process that talks to a platform (``python -X importtime``), for a
    client none of our code runs. This finder refuses that one import while httpx's package is
    still loading (httpx then keeps its own fallback ``httpx.main``, which says the CLI's
    dependencies are missing), and removes itself at its first use: an explicit ``import
    httpx._main`` afterwards works as usual. Nothing is imported here (httpx stays lazy where
    it was), and the installed ``httpx`` command, another process, is untouched.

    A plain class with ``find_spec`` (all the import system asks of a finder), not a subclass of
    ``importlib.abc.MetaPathFinder``: that module brings ``importlib.resources`` with it, ~1-3 ms
    of every process's start that nothing else on the app's way to its first frame imports."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name != "httpx._main":
            return None
        if self in _sys.meta_path:
            _sys.meta_path.remove(self)
        package = _sys.modules.get("httpx")
        if package is not None and getattr(package.__spec__, "_initializing", False):
            raise ModuleNotFoundError("httpx's command-line client is not loaded by blah-tui", name=name)
        return None


if "httpx" not in _sys.modules and not any(isinstance(f, _HttpxWithoutItsCommandLine) for f in _sys.meta_path):
    _sys.meta_path.insert(0, _HttpxWithoutItsCommandLine())
