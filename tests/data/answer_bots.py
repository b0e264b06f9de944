"""Strategies whose fourth answer is wrong in one way each, for
tests/test_referee_fast_paths.py; until then they play the first legal move."""

from simcli.strategy import Strategy


class _Fourth(Strategy):
    wants_view = False
    turns = 0

    def choose(self, view, legal_moves):
        self.turns += 1
        if self.turns == 4:
            return self.wrong()
        return legal_moves[0]


class AnswersNine(_Fourth):
    def wrong(self):
        return 999


class AnswersBool(_Fourth):
    def wrong(self):
        return True


class RaisesValueError(_Fourth):
    def wrong(self):
        raise ValueError("its own")
