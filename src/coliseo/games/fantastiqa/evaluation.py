"""Fantastiqa evaluation: the score race, valued as points won plus the quests a player is on track to complete.

A quest is worth what completing it would add to the score (twice its points if held, since a held quest
is subtracted; its points and +1 token if open), scaled by how much of its requirement the player can
meet now (committed and hand units), how much its whole deck could meet, and how far its Adventurer is
from the quest's Region. Cards count by their symbol units and power; gems by what they can buy.

Uses only what `player` may know: its own hand and the composition of its own draw pile; for the others
only public facts (scores, gems, tokens, commits, positions, and the union of hand and draw pile, which
is deducible from public history), never an opponent's hand or any deck order.
"""

from .board import ADJACENT


def _distances() -> list[list[int]]:
    dist = [[9] * 6 for _ in range(6)]
    for a in range(6):
        dist[a][a], frontier = 0, [a]
        while frontier:
            nxt = []
            for p in frontier:
                for _, q in ADJACENT[p]:
                    if dist[a][q] == 9:
                        dist[a][q] = dist[a][p] + 1
                        nxt.append(q)
            frontier = nxt
    return dist


DIST = _distances()

SCORE = 10.0         # a quest point
NOW = 0.45           # share of a quest's gain credited when its requirement is met now (hand + committed)
DECK = 0.3           # share credited when the player's whole deck could meet it
HAND = 0.8           # a hand unit counts less than a committed one: committing frees the hand for new draws
JUNK = 0.4           # a hand card with no power and no symbol any quest still needs: better discarded
NEAR = 0.6           # each step between the Adventurer and the quest's Region scales the NOW share
UNIT = 0.8           # a symbol unit in the deck
ABILITY = 0.7        # a card with a power
GEM = 0.45           # gems are worth less than the cards they buy, so buying pays
RICH = 8             # nothing costs more than 5 gems: gems beyond this many are worth little
SPARE_GEM = 0.05
CARPET = 0.4
REARRANGE = 0.1
OPPONENT = 0.5       # how much the best opponent's position counts against us

# A turn is many actions (adventure steps, payments, free actions), and the opponent's replies could only be
# guessed at random: the search plans the mover's turn (greedy rollouts finish it) among the 4 best first
# actions, and scores the position the opponent will face. Leaf values differ by little between actions,
# hence a small c. 80 iterations keep a move within 0.2 s of CPU. A turn is a long run of the mover's own
# actions, judged by its best continuation (backup "best"): 61 of 100 against greedy, 44 with the mean.
MCTS = {"horizon": "turn", "rollout": "greedy", "depth": 4, "greedy_sample": 8, "c": 0.05, "width": 4,
        "iterations": 80, "backup": "best"}
# The logit of the win per point of edge (evaluation minus the opponent's) where the player to act changes, as
# `python -m coliseo.agents.value_fit fantastiqa --chance --games 400` fits it on greedy self-play.
CHANCE = 0.0224
# `coliseo analyze` (docs/ai.md, "Analysis"): 300 iterations a decision, 25-50 s of CPU a game; judged with the mean
# backup, whose values are steadier than those of backup "best" (one line of play down to a node tried twice).
ANALYSIS = {"iterations": 300, "backup": "mean"}


def _tally(cards, ids, have: list[int]) -> int:
    """Adds the symbol units of cards `ids` to `have`; returns how many of them have a power."""
    powers = 0
    for c in ids:
        card = cards[c]
        if card.units:
            have[card.sym] += card.units
        if card.ability:
            powers += 1
    return powers


def _units(state, ids) -> list[int]:
    have = [0] * 9
    _tally(state.game.content.cards, ids, have)
    return have


def _met(req: dict, have: list[int]) -> float:
    got = total = 0
    for x, k in req.items():
        got += k if have[x] >= k else have[x]
        total += k
    return got / total


def _quests(state, player: int, own: bool, whole: list[int]) -> float:
    """Every quest's long-run chance (its requirement met by committed cards and the whole deck), plus the
    near chance of the one quest the hand is best spent on (a hand pays for one quest, not for all)."""
    g = state.game
    quests = g.content.quests
    hand = _units(state, state.hand[player]) if own else [0] * 9
    here = state.pos[player]
    held_value, best_open, focus, focus_need = 0.0, 0.0, 0.0, set()
    priv, commits = state.priv[player], state.commits[player]
    for q in priv + [q for q in state.open_q if q is not None]:
        quest = quests[q]
        held = q in priv
        if held:
            gain = quest.points * (2 if g.quest_penalty else 1)
        else:
            gain = quest.points + state.open_bonus[state.open_q.index(q)]
        committed = _units(state, commits[q]) if q in commits else [0] * 9
        could = _met(quest.req, [a + b for a, b in zip(committed, whole)])
        if held:
            held_value += SCORE * gain * DECK * could * could
        else:
            best_open = max(best_open, SCORE * gain * DECK * could * could)
        if not could:
            continue
        now = _met(quest.req, [a + HAND * b for a, b in zip(committed, hand)])
        steps = DIST[here][state.regions.index(quest.region)] if here >= 0 else 3
        near = SCORE * gain * NOW * now * now * could * could * NEAR ** steps   # only a quest the deck can meet
        if near > focus:
            focus, focus_need = near, {x for x, k in quest.req.items() if committed[x] < k}
    value = held_value + best_open + focus
    if own:
        cards = g.content.cards
        value -= JUNK * sum(1 for c in state.hand[player] if not cards[c].ability and cards[c].sym not in focus_need)
    return value


def _gems(gems: int) -> float:
    return GEM * min(gems, RICH) + SPARE_GEM * max(0, gems - RICH)


def _card(card) -> float:
    return UNIT * card.units + (ABILITY if card.ability else 0.0)


def _keep_cost(state, q: str, whole: list[int]) -> float:
    """What holding quest q costs now: its points off the score, less the chance of completing it."""
    quest = state.game.content.quests[q]
    could = _met(quest.req, whole)
    return SCORE * quest.points * (1 - 2 * DECK * could * could)


def _side(state, player: int, own: bool) -> float:
    cards = state.game.content.cards
    gems = state.gems[player]
    value = SCORE * state.score(player) + _gems(gems)
    value += CARPET * state.carpets[player] + REARRANGE * state.rearr[player]
    whole = [0] * 9
    powers = 0
    for pile in (state.hand[player], state.draw[player], state.discard[player], state.play[player]):
        powers += _tally(cards, pile, whole)
    if player == state.cur and state.pending:
        for space, paid in state.pending:        # recruited at stop: paid cards return, the creature joins
            powers += _tally(cards, list(paid) + [state.spaces[space - 1]], whole)
            value += GEM * state.sgems[space - 1]
    value += UNIT * sum(whole) + ABILITY * powers
    if player == state.cur and state.row_kind in ("AT", "BB"):   # the best buy in the row is ours to take
        value += max([_card(cards[c]) - _gems(gems) + _gems(gems - cards[c].cost)
                      for c in state.row if cards[c].cost <= gems] + [0.0])
    if player == state.cur and state.row_kind == "QC" and not state.kept and state.game.quest_penalty:
        value -= min(_keep_cost(state, q, whole) for q in state.row)   # a Quest Chest visit must keep one
    return value + _quests(state, player, own, whole)


def evaluate(state, player: int) -> float:
    mine = _side(state, player, True)
    others = [_side(state, q, False) for q in range(state.n) if q != player]
    return mine - OPPONENT * max(others) if others else mine
