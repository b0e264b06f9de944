"""How much an Ada's Library deal decides the game: ``adas_heuristic`` against itself,
each deal played twice with other tie-break seeds; counts the deals whose two games the
same seat won (2 players: each seat draws every other card of a pile fixed at the deal).

    python studies/deal-luck/adas_deal_luck.py [--deals 150] [--seed 555000]
"""

from __future__ import annotations

import argparse
import random

from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli_strategies.adas_heuristic import AdasHeuristic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=555000)
    args = parser.parse_args()
    game = get_game("adas_library")
    opts = game.resolve_options({})
    same = seat0 = 0
    for d in range(args.deals):
        winners = []
        for replay in range(2):
            rng = random.Random(args.seed + d)
            state = game.new_state(2, opts, game.sample_setup(2, opts, rng))
            players = []
            for s in range(2):
                h = AdasHeuristic()
                h.start_game(game, s, random.Random(d * 10 + s + 2 * replay))
                players.append(h)
            while state.current_player != TERMINAL:
                seat = state.current_player
                if seat == CHANCE:
                    state.apply(state.sample_chance(rng))
                    continue
                state.apply(players[seat].choose(state.view(seat), state.legal_moves()))
            winners.append(state.winner)
        same += winners[0] == winners[1]
        seat0 += winners.count(0)
    print(
        f"{args.deals} deals: the same seat won both games of {same} "
        f"({100 * same / args.deals:.0f}%); seat 0 won {seat0} of {2 * args.deals} games"
    )


if __name__ == "__main__":
    main()
