"""Built-in strategies and the loader for user strategy modules.

``use:`` in a config accepts a built-in name (see :data:`BUILTIN`), ``package.module:Class``
or ``path/to/file.py:Class``.
"""

from __future__ import annotations

from strategies.base import Strategy

#: Built-in strategies: name -> "module:Class".
BUILTIN: dict[str, str] = {
    "random": "strategies.random_play:RandomStrategy",
    "greedy": "strategies.greedy:GreedyStrategy",
    "mcts": "strategies.mcts:MCTSStrategy",
    "ismcts": "strategies.ismcts:ISMCTSStrategy",
    "libraria_solver": "strategies.libraria_solver:LibrariaSolver",
    "ex_libris_heuristic": "strategies.ex_libris_heuristic:ExLibrisHeuristic",
    "bibliogamo_planner": "strategies.bibliogamo_planner:BibliogamoPlanner",
    "adas_heuristic": "strategies.adas_heuristic:AdasHeuristic",
    "library_heuristic": "strategies.library_heuristic:LibraryHeuristicStrategy",
}

__all__ = ["BUILTIN", "Strategy"]
