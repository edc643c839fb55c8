"""Fantastiqa evaluation for the greedy agent: score race, gems, deck strength and quest progress.

Uses only what `player` may know: its own cards (hand, draw pile, discard), and the public state of
the others (scores, gems, tokens, discard piles); never an opponent's hand or any deck order.
"""

SCORE = 12.0         # a quest point is the game
GEM = 0.9
CARPET = 0.5
REARRANGE = 0.2
UNIT = 0.6           # a symbol unit in the deck
ABILITY = 0.8        # a card with a power
HELD_QUEST = 0.7     # a held quest's points are not all lost: it can still be completed
PROGRESS = 5.0       # per point of a quest, scaled by the share of its symbols already in reach
PENDING = 2.5        # a creature subdued this adventure (recruited at stop)
OPPONENT = 0.6       # how much the best opponent's position counts against us
IN_HAND = 0.15       # a card still in hand can be used this turn
ON_REGION = 1.2      # per point of a quest whose Region the Adventurer stands on, scaled by reach


def _quest_reach(state, player: int, q: str, own: bool) -> float:
    """The share of quest q's required units `player` holds: committed units, plus hand units if `own`."""
    cards = state.game.content.cards
    quest = state.game.content.quests[q]
    have = [0] * 9
    for c in state.commits[player].get(q, ()):
        have[cards[c].sym] += cards[c].units
    if own:
        for c in state.hand[player]:
            card = cards[c]
            if card.units:
                have[card.sym] += card.units
    need = sum(quest.req.values())
    got = sum(min(k, have[x]) for x, k in quest.req.items())
    return got / need


def _side(state, player: int, own: bool) -> float:
    g = state.game
    cards, quests = g.content.cards, g.content.quests
    value = SCORE * state.score(player) + GEM * min(state.gems[player], 8) + 0.3 * max(0, state.gems[player] - 8)
    value += CARPET * state.carpets[player] + REARRANGE * state.rearr[player]
    value += HELD_QUEST * sum(quests[q].points for q in state.priv[player])
    if own:
        deck = state.hand[player] + state.draw[player] + state.discard[player] + state.play[player]
    else:
        deck = state.discard[player]           # the only cards of another player shown by identity
    for c in deck:
        card = cards[c]
        value += UNIT * card.units + (ABILITY if card.ability else 0.0)
    if own:
        value += IN_HAND * sum(1 for c in state.hand[player] if cards[c].units or cards[c].ability)
    here = state.regions[state.pos[player]] if state.pos[player] >= 0 else None
    for q in list(state.priv[player]) + [q for q in state.open_q if q is not None]:
        quest = quests[q]
        reach = _quest_reach(state, player, q, own)
        if q in state.priv[player] or q in state.commits[player]:
            value += PROGRESS * quest.points * reach ** 2
        if quest.region == here:
            value += ON_REGION * quest.points * reach
    if player == state.cur and state.pending:
        value += sum(PENDING + state.sgems[space - 1] * GEM for space, _ in state.pending)
    return value


def evaluate(state, player: int) -> float:
    mine = _side(state, player, True)
    others = [_side(state, q, False) for q in range(state.n) if q != player]
    return mine - OPPONENT * max(others) if others else mine
