"""A Libraria rules variant: the mouse tile costs 2 books instead of 1 (total control of
a mouse then costs 3). Compare it with the rulebook in examples/libraria-mouse.yaml."""

from simcli.games.libraria import Libraria


class MouseMinusTwo(Libraria):
    # The id stays "libraria": strategies written for Libraria play the variant, and one
    # report compares both. Records of the variant say where it came from (game_source).
    title = "Libraria, mouse worth -2"
    version = "1"

    def new_state(self, players, options, setup):
        state = super().new_state(players, options, setup)  # checks the setup as usual
        state.tiles = tuple(-2 if value < 0 else value for value in state.tiles)
        return state
