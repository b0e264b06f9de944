# cython: annotation_typing=False
"""Ada's Library's random playout in one loop over plain local data (C arrays on the
compiled path, typed by ``playout.pxd``; lists on the pure one).

:func:`play_out` plays what ``State.playout`` plays (simcli/game.py): on a decision the
move ``legal_moves()[randbelow(n)]``, applied as ``AdasState.apply_trusted`` applies it;
on a chance turn the reshuffle ``AdasState.sample_chance`` draws, from the same stream.
It calls ``randbelow`` with the same ``n`` in the same order, and writes the state back
once, at the end. The plays of a card are counted and numbered in the order of
``legal_moves`` (``rows.move_plays``, ``rows.end_targets``, the Switches', the Reverse's
and the Exchanges' scans): cards in ``CARD_TYPES`` order, each card's plays by position,
``L`` before ``R``, then one discard per card type held.
tests/test_adas_playout.py proves it equal to the reference on a million positions.
"""

from __future__ import annotations

from typing import Any

from simcli.games.adas_library.components import CARD_TYPES
from simcli.games.adas_library.rows import (
    ACTIONS,
    MASTER_PLAYS,
    REVERSE_PLAY,
    ROW_PLAYS,
    SWITCH_PLAYS,
)

#: The kind and the distance of each card type, by its index in ``CARD_TYPES`` (the
#: kernel's card codes).
KINDS = tuple(ACTIONS[card][0] for card in CARD_TYPES)
DISTANCES = tuple(ACTIONS[card][1] for card in CARD_TYPES)
CODES = {card: code for code, card in enumerate(CARD_TYPES)}
#: The kernel's array sizes (written as literals in play_out and its .pxd): the longest
#: row or master order, the most players, the most cards in the game.
MAX_BOOKS = 64
MAX_PLAYERS = 4
MAX_CARDS = 256
#: play codes of the shifting cards: position * 2 + direction
LEFT_CODE, RIGHT_CODE = 0, 1


def run_ends(items, start, size, ends):  # noqa: ANN001,ANN201 - C types: .pxd
    """``ends[i]`` = the last index of the run of equal items starting at ``i``, for
    ``items[start:start + size]`` (``rows.run_ends``)."""
    ends[size - 1] = size - 1
    for i in range(size - 2, -1, -1):
        ends[i] = ends[i + 1] if items[start + i] == items[start + i + 1] else i
    return 0


def shift_play(ends, size, distance, nth):  # noqa: ANN001,ANN201 - C types: .pxd
    """With ``nth`` < 0, how many plays of a shifting card of ``distance`` (0: Move to
    End) change the items whose :func:`run_ends` are ``ends``; else the ``nth`` play's
    code, position * 2 + direction (``rows.move_plays``, ``rows.end_targets``)."""
    found = 0
    last = size - 1
    for p in range(size):
        if distance:
            left = p >= distance and ends[p - distance] < p
            right = p + distance < size and ends[p] < p + distance
        else:
            left = p > 0 and ends[0] < p
            right = p < last and ends[p] < last
        if left:
            if found == nth:
                return p * 2 + LEFT_CODE
            found += 1
        if right:
            if found == nth:
                return p * 2 + RIGHT_CODE
            found += 1
    return found


def pair_play(items, a, b, step, count, nth):  # noqa: ANN001,ANN201 - C types: .pxd
    """With ``nth`` < 0, how many ``i`` in ``range(count)`` have ``items[a + i] !=
    items[b + step * i]``; else the ``nth`` such ``i`` (``rows.differences``,
    ``rows.nth_difference``)."""
    found = 0
    j = b
    for i in range(count):
        if items[a + i] != items[j]:
            if found == nth:
                return i
            found += 1
        j += step
    return found


def shift_item(items, start, p, q):  # noqa: ANN001,ANN201 - C types: .pxd
    """``items.insert(q, items.pop(p))`` on ``items[start:]``."""
    moved = items[start + p]
    if p < q:
        for k in range(start + p, start + q):
            items[k] = items[k + 1]
    else:
        for k in range(start + p, start + q, -1):
            items[k] = items[k - 1]
    items[start + q] = moved
    return 0


def first_sorted_seat(books, rank, players, size, seat):  # noqa: ANN001,ANN201 - C types: .pxd
    """``state.first_sorted`` on the rows of ``books`` (row ``s`` at ``s * 64``)."""
    for k in range(players):
        s = (seat + k) % players
        previous = -1
        base = s * 64
        for i in range(size):
            r = rank[books[base + i]]
            if r < previous:
                break
            previous = r
        else:
            return s
    return -1


def keyed_pile(pile, count, keys, first, pile_keys, order, out):  # noqa: ANN001,ANN201 - C types: .pxd
    """``out[:count]`` = ``pile[:count]`` in the order of ``chance.keyed_order``: card
    ``k`` of the pile is copy ``j`` of its type (the ``j``-th of that type in the pile),
    numbered ``first[type] + j`` in the universe, and sorted by its key, stably."""
    seen = [0] * 13
    for k in range(count):
        c = pile[k]
        pile_keys[k] = keys[first[c] + seen[c]]
        seen[c] += 1
        j = k - 1
        while j >= 0 and pile_keys[k] < pile_keys[order[j]]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = k
    for k in range(count):
        out[k] = pile[order[k]]
    return 0


def card_codes(cards, out, start, counts, copies):  # noqa: ANN001,ANN201 - C types: .pxd
    """The codes of ``cards`` into ``out[start:]``, counted in ``counts``; False when a
    card is unknown ("?") or the cards of a type outnumber its ``copies``."""
    n = len(cards)
    for k in range(n):
        code = CODES.get(cards[k], -1)
        if code < 0:
            return False
        counts[code] += 1
        if counts[code] > copies[code]:
            return False
        out[start + k] = code
    return True


def play_out(state, rng, randbelow, limit):  # noqa: ANN001,ANN201,C901,PLR0912,PLR0915 - C types: .pxd
    """Play ``state`` (an ``AdasState``) at random as ``State.playout`` does, until the
    game ends or ``limit`` turns (decisions and chance turns) have been played
    (``limit`` < 0: no limit). Returns the number of turns played, or -1, touching
    nothing, for a state it does not take (a view's unknown cards, a row longer than 64
    books, more than 256 cards): the caller then plays the contract's loop."""
    books = [0] * 256  # row s at s * 64
    master = [0] * 64
    rank = [0] * 64
    ends = [0] * 64
    master_ends = [0] * 64
    hands = [0] * 1024  # hand s at s * 256
    held = [0] * 4  # cards in each hand
    partners = [0] * 4
    draw = [0] * 256
    pile = [0] * 256  # the discard pile, oldest first
    keys = [0.0] * 256
    pile_keys = [0.0] * 256
    order = [0] * 256
    first = [0] * 13
    copies = [0] * 13
    counts = [0] * 13
    kinds = [0] * 13
    distances = [0] * 13
    players = state.players
    rows = state.rows
    colours = len(state.master)
    size = len(rows[0])
    universe, first_copy = state.comp.universe
    if players > 4 or colours > 64 or not 2 <= size <= 64 or len(universe) > 256:
        return -1
    for c in range(13):
        name = CARD_TYPES[c]
        first[c] = first_copy.get(name, 0)
        copies[c] = state.comp.deck_counts.get(name, 0)
        counts[c] = 0
        kinds[c] = KINDS[c]
        distances[c] = DISTANCES[c]
    for s in range(players):
        row = rows[s]
        if len(row) != size:
            return -1
        for i in range(size):
            colour = row[i]
            if not 0 <= colour < colours:
                return -1
            books[s * 64 + i] = colour
        hand = state.hands[s]
        if len(hand) > 256 or not card_codes(hand, hands, s * 256, counts, copies):
            return -1
        held[s] = len(hand)
        partners[s] = state.partners[s]
    top = 0
    bottom = len(state.draw)
    discarded = len(state.discard)
    if not (
        card_codes(state.draw, draw, 0, counts, copies)
        and card_codes(state.discard, pile, 0, counts, copies)
    ):
        return -1
    for i in range(colours):
        colour = state.master[i]
        if not 0 <= colour < colours:
            return -1
        master[i] = colour
        rank[colour] = i
    mirrored = state.mirrored
    turns = state.turns
    max_turns = state.max_turns
    winner = -1 if state.winner is None else state.winner
    reshuffle = state.reshuffle
    master_moved = False
    chance = state.chance
    played = 0
    while played != limit and winner < 0:
        if reshuffle:  # sample_chance, then _reshuffled
            random_key = chance.random(rng, "reshuffle").random
            for u in range(len(universe)):
                keys[u] = random_key()
            keyed_pile(pile, discarded, keys, first, pile_keys, order, draw)
            top = 0
            bottom = discarded
            discarded = 0
            reshuffle = False
            chance.happened("reshuffle")
        else:
            if turns >= max_turns:
                break
            seat = turns % players
            base = seat * 64
            hand_at = seat * 256
            cards = 0  # bit c: the hand holds card type c
            for k in range(held[seat]):
                cards |= 1 << hands[hand_at + k]
            other = partners[seat] * 64
            start = other + size - 1 if mirrored else other
            step = -1 if mirrored else 1
            if cards & 0x1F:  # a move or Move to End card: the row's runs
                run_ends(books, base, size, ends)
            if cards & 0xC00:  # a master card: the master order's runs
                run_ends(master, 0, colours, master_ends)
            total = 0
            types = 0
            for c in range(13):
                counts[c] = 0
                if cards >> c & 1:
                    types += 1
                    kind = kinds[c]
                    n = distances[c]
                    if kind == ROW_PLAYS:
                        counts[c] = shift_play(ends, size, n, -1)
                    elif kind == MASTER_PLAYS:
                        counts[c] = shift_play(master_ends, colours, n, -1)
                    elif kind == SWITCH_PLAYS:
                        counts[c] = pair_play(books, base, base + n, 1, size - n, -1)
                    elif kind == REVERSE_PLAY:
                        counts[c] = 1 if books[base] != books[base + size - 1] else 0
                    else:
                        counts[c] = pair_play(books, base, start, step, size, -1)
                    total += counts[c]
            nth = randbelow(total + types)
            if not 0 <= nth < total + types:
                raise ValueError(f"randbelow({total + types}) gave {nth}")
            card = -1
            for c in range(13):
                if nth < counts[c]:
                    card = c
                    break
                nth -= counts[c]
            if card >= 0:  # a play, then the end check
                kind = kinds[card]
                n = distances[card]
                if kind == ROW_PLAYS or kind == MASTER_PLAYS:
                    if kind == ROW_PLAYS:
                        code = shift_play(ends, size, n, nth)
                        items = books
                        at = base
                        length = size
                    else:
                        code = shift_play(master_ends, colours, n, nth)
                        items = master
                        at = 0
                        length = colours
                    p = code >> 1
                    if n == 0:  # Move to End
                        q = 0 if code & 1 == LEFT_CODE else length - 1
                    else:
                        q = p - n if code & 1 == LEFT_CODE else p + n
                    shift_item(items, at, p, q)
                    if kind == MASTER_PLAYS:
                        for i in range(colours):
                            rank[master[i]] = i
                        master_moved = True
                else:
                    if kind == SWITCH_PLAYS:
                        i = base + pair_play(books, base, base + n, 1, size - n, nth)
                        j = i + n
                    elif kind == REVERSE_PLAY:
                        i = base
                        j = base + size - 1
                    else:
                        i = pair_play(books, base, start, step, size, nth)
                        j = start + step * i
                        i += base
                    books[i], books[j] = books[j], books[i]
                winner = first_sorted_seat(books, rank, players, size, seat)
            else:  # a discard: the nth card type held
                for c in range(13):
                    if cards >> c & 1:
                        if nth == 0:
                            card = c
                            break
                        nth -= 1
            count = held[seat]  # hand.remove(card), discard.append(card)
            k = hand_at
            while hands[k] != card:
                k += 1
            for j in range(k, hand_at + count - 1):
                hands[j] = hands[j + 1]
            held[seat] = count - 1
            pile[discarded] = card
            discarded += 1
            if winner >= 0:
                played += 1
                break
        # the draw of the turn: apply_trusted's, or _reshuffled's after a reshuffle
        seat = turns % players
        if top < bottom:
            hands[seat * 256 + held[seat]] = draw[top]
            held[seat] += 1
            top += 1
            turns += 1
        else:
            reshuffle = True
        played += 1
    write_back(state, books, master, hands, held, draw, top, bottom, pile, discarded)
    state.turns = turns
    state.winner = None if winner < 0 else winner
    state.reshuffle = reshuffle
    if master_moved:
        state.rank = [rank[i] for i in range(colours)]
    return played


def write_back(state, books, master, hands, held, draw, top, bottom, pile, discarded):  # noqa: ANN001,ANN201,PLR0913 - C types: .pxd
    """The kernel's rows, master order, hands and piles into ``state``'s lists."""
    cards: Any = CARD_TYPES
    size = len(state.rows[0])
    for s in range(state.players):
        row = state.rows[s]
        for i in range(size):
            row[i] = books[s * 64 + i]
        state.hands[s][:] = [cards[hands[s * 256 + k]] for k in range(held[s])]
    master_list = state.master
    for i in range(len(master_list)):
        master_list[i] = master[i]
    state.draw = [cards[draw[k]] for k in range(top, bottom)]
    state.discard = [cards[pile[k]] for k in range(discarded)]
    return 0
