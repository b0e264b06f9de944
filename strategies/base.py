"""The strategy base class, for existing strategy code: ``from strategies.base import
Strategy`` keeps working. The contract itself is :mod:`simcli.strategy`."""

from simcli.strategy import Strategy

__all__ = ["Strategy"]
