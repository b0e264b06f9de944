"""The search core that the built-in searches share.

* :mod:`.common`: parameter checks, move keys and the per-seat rewards of finished and
  cut games;
* :mod:`.continuation`: the one continuation routine (finish a game, or a part of it,
  with a policy and score it) and the rollout policies;
* :mod:`.compare`: the one routine that compares candidate moves on sampled deals with
  shared random numbers, its pluggable pick rules, and :class:`SampledSearch`, the base
  of the searches built on it (``rollout_search``, ``ex_libris_endgame``,
  ``bibliogamo_search``, ``bibliogamo_endgame``, ``adas_race``, ``adas_reply``): a
  game-specific search supplies its candidates and the value of a candidate on a sample
  (usually a continuation by its policy) through public hooks;
* :mod:`.tree`: tree search, MCTS (UCT with proven values and tree reuse) and ISMCTS,
  run by ``mcts`` and ``ismcts``.

Everything random draws from the generator the caller hands in (a strategy's own
``self.rng``, or generators seeded from it): never the game's RNG and never the
``random`` module's global generator.
"""
