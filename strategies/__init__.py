"""The built-in strategies (one module each). The contract they implement (base class,
registry of built-in names, loader) is :mod:`simcli.strategy`.

``use:`` in a config accepts a built-in name (see :data:`simcli.strategy.BUILTIN`),
``package.module:Class`` or ``path/to/file.py:Class``.
"""

from simcli.strategy import BUILTIN, Strategy

__all__ = ["BUILTIN", "Strategy"]
