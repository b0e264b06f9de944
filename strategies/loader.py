"""The strategy loader, for existing code: it lives in :mod:`simcli.strategy`."""

from simcli.strategy import check_params, load_strategy_class

__all__ = ["check_params", "load_strategy_class"]
