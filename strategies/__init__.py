"""The built-in strategies (one module each), installed under the import name
``simcli_strategies`` (the folder ``strategies/`` mapped by ``package-dir`` in
``pyproject.toml``, so that it cannot collide with another package called
``strategies``). The contract they implement (base class, registry of built-in names,
loader) is :mod:`simcli.strategy`; the search core they share (tree search, the
comparison of candidates on sampled deals, continuations) is
:mod:`simcli_strategies.search`.

``use:`` in a config accepts a built-in name (see :data:`simcli.strategy.BUILTIN`),
``package.module:Class`` or ``path/to/file.py:Class``.
"""
