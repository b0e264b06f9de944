"""The designer's answer: seat balance up a ladder of skill (``simcli balance``).

A balance run is ordinary runs underneath: each rung, skill check, tuning probe and
confirmation is a *segment*, a self-play (or rung-against-rung) schedule played by the
runner with a stopping rule; their records are joined in order into one ``games.jsonl``.
Every decision (where a rung stops, where the tuner probes next) depends only on the
records already played, so :func:`simcli.balancing.plan.replan` recomputes the whole
balance from the log."""
