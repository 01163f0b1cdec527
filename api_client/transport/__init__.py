"""The shared transport under every platform's client: ``HttpCore`` (``http``), the clients'
common base (``platform_client``: how a client is told to reach its platform, the core, base
URL, closing), what an answer or a failure becomes (``responses``, ``failures``), the retry
policy (``retry``), where a key may go (``origin``, ``secret``, ``tls``), safe request paths
(``url_paths``) and the members a request sends (``request_members``: an optional one left out
is absent, never null), offset paging and the polling rules (``polling``), the base of the
shapes read leniently (``lenient``). No platform's wire shapes here.
"""
