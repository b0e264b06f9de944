"""A Libraria variant whose game class, not its state, changes what a strategy does: its
``evaluate`` is the rulebook's negated, so ``greedy`` plays its worst move. A strategy
process that loaded the rulebook instead would play other moves."""

from simcli.games.libraria import Libraria


class Contrary(Libraria):
    title = "Libraria, evaluated backwards"

    def evaluate(self, state, seat):
        return -super().evaluate(state, seat)
