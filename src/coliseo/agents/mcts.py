"""`mcts`: information-set Monte Carlo tree search (single-observer ISMCTS) over determinizations.

Every iteration draws a fresh determinization from the seat (hidden cards and future chance
resampled), walks one shared tree keyed by actions, and considers only the children legal in that
world (UCB with availability counts, Cowling et al. 2012). Rewards are per player, so the same
search serves 2-4 player games: each node keeps the reward of the player who chose its action.

Settings: `iterations` (default 400) or `ms` (a time budget, which makes moves depend on the
machine's speed), `rollout` ("random" or "greedy"), `depth` (rollout steps before the evaluation
function scores the position), `c` (UCT exploration), `greedy_sample` (how many actions a
greedy rollout step compares) and `width`: when the seat has more legal actions than that (a
Forbidden play chooses among ~1,600 fusion chains), the root searches only the `width` best by a
one-ply evaluation, as `greedy` would rank them. `evaluations` caps a move's work, deterministically:
no new iteration starts once the move has made that many evaluations (root ranking included).
`horizon` is "game" (search and roll out to the end of the game, or `depth`), "turn" (stop as soon
as another player is to move: the tree plans the mover's whole turn and the evaluation scores the
position the opponent will face) or "reply" (the tree plans the turn as with "turn", and the rollout
then plays the other players' turns, to score the position when the mover is to move again). The last
two are for games of long turns whose opponent moves the tree could only guess at random.
`backup` is "mean" (UCT's average of the rewards below a node) or "best" (see `value_of`), for games
whose turns are long runs of one player's actions. `scale` says how a leaf's evaluation becomes a reward
in [0, 1]: "game" squashes each player's edge (its evaluation minus the others' mean) by the running spread
of the edges this move's search has seen; "move" measures the edge from the root position's own, by the same
spread — where one event swings the evaluation by thousands (a heart in Dungeon Dice), the edges of a move's
options are far from even, and only their differences from the root's tell them apart. "chance" is the win chance
the edge gives by the game's fitted `CHANCE` (the logistic of edge × CHANCE), the same in every search: what the
analysis of games (`agents.analysis`) compares across moves. For the analysis a search also takes actions to `keep`
among the root's (the move played, whatever the root's narrowing), and `grow` searches one of them alone afterwards.

A move is a function of the settings, the seed and the seat alone: the agent holds its settings, checked when
it is made, and each `act` runs a `Search` of its own — its tree, its chance (seeded from the agent's seed and
the seat's observation) and its reward statistics live and die with the move. So the lab's agent, asked move
after move through a game, and the web's, made for one move, play alike.

A game's evaluation module may set `MCTS`, a dict of default settings tuned for that game; settings
given to the agent override them. The search scores positions with the module's `value(state, player)` where it
has one (a Dungeon Dice model of the win chance, fitted on the positions where the player to act changes: where a
`horizon=turn` tree stops), else with its `evaluate`; with its `values(state)` where it has one, every player's
`value` from one call (Dungeon Dice: one side's value is minus the other's). It may also define
`distinct(state, actions)`: the actions without those equivalent to a kept one, which the root ranking and greedy
rollout samples then skip; and
`shortlist(state, actions)`: the actions worth searching at a step, by an estimate cheaper than applying them
(a DDM placing step has ~1,800 nets, too many for the tree to try), kept per tree node.
"""

from __future__ import annotations

import json
import math
import random
import time

from coliseo.agents.base import Agent, Seat
from coliseo.agents.greedy import evaluation_module
from coliseo.core.errors import SetupError
from coliseo.core.rng import seed_from

SETTINGS = {"iterations": int, "ms": float, "rollout": str, "depth": int, "c": float, "greedy_sample": int,
            "width": int, "horizon": str, "evaluations": int, "backup": str, "scale": str}


def _setting(key: str, value):
    kind = SETTINGS[key]
    try:
        return kind(value)
    except ValueError:
        word = {int: "a whole number", float: "a number"}.get(kind, "text")
        raise SetupError(f"mcts setting {key} must be {word}, not {value!r}") from None


class Node:
    __slots__ = ("mover", "children", "visits", "available", "reward", "shortlist", "narrowed")

    def __init__(self, mover: int | None):
        self.mover = mover        # the player whose action leads here
        self.children: dict = {}
        self.visits = 0
        self.available = 0        # iterations in which this node's action was legal at its parent
        self.reward = 0.0         # sum of `mover`'s rewards
        self.shortlist = None     # the module's shortlist of the actions here (a set), once visited
        self.narrowed = None      # (a legal list met here, its actions on the shortlist), the last one met

    def narrow(self, legal: list) -> list:
        """The actions of `legal` on the shortlist (all of them if none is); the same list of thousands of nets
        comes back in world after world, so the last answer is kept."""
        if self.narrowed is None or self.narrowed[0] != legal:
            self.narrowed = (legal, [a for a in legal if a in self.shortlist] or legal)
        return self.narrowed[1]


class MctsAgent(Agent):
    """Checked settings; each move is searched by a `Search` of its own (see the module's docstring)."""

    name = "mcts"

    def effective_settings(self) -> dict:
        return {k: getattr(self, k) for k in SETTINGS}

    def __init__(self, game, seed: int = 0, **settings):
        module = evaluation_module(game.id)
        settings = {**getattr(module, "MCTS", {}), **settings}
        unknown = set(settings) - set(SETTINGS)
        if unknown:
            raise SetupError(f"mcts has no setting {', '.join(sorted(unknown))}; its settings are: "
                             f"{', '.join(SETTINGS)}")
        settings = {k: _setting(k, v) for k, v in settings.items() if v is not None}   # None: unset, even the game's
        super().__init__(game, seed, **settings)
        self.seed = seed
        self.iterations = settings.get("iterations", 400 if "ms" not in settings else None)
        self.ms = settings.get("ms")
        self.rollout = settings.get("rollout", "random")
        self.depth = settings.get("depth", 8)
        self.c = settings.get("c", 0.7)
        self.greedy_sample = settings.get("greedy_sample", 6)
        self.width = settings.get("width", 8)
        self.horizon = settings.get("horizon", "game")
        self.evaluations = settings.get("evaluations")
        self.backup = settings.get("backup", "mean")
        self.scale = settings.get("scale", "game")
        if self.scale not in ("game", "move", "chance"):
            raise SetupError(f"mcts scale must be 'game', 'move' or 'chance', got {self.scale!r}")
        self.chance = getattr(module, "CHANCE", None)
        if self.scale == "chance" and self.chance is None:
            raise SetupError(f"mcts scale 'chance' needs the win chance of an edge, which {game.id}'s evaluation "
                             "does not give (its CHANCE)")
        if self.backup not in ("mean", "best"):
            raise SetupError(f"mcts backup must be 'mean' or 'best', got {self.backup!r}")
        if self.horizon not in ("game", "turn", "reply"):
            raise SetupError(f"mcts horizon must be 'game', 'turn' or 'reply', got {self.horizon!r}")
        if self.rollout not in ("random", "greedy"):
            raise SetupError(f"mcts rollout must be 'random' or 'greedy', got {self.rollout!r}")
        for key in ("iterations", "ms", "greedy_sample", "width", "evaluations"):
            value = getattr(self, key)
            if value is not None and value <= 0:
                raise SetupError(f"mcts setting {key} must be positive, got {value}")
        if self.depth < 0:
            raise SetupError(f"mcts setting depth must be 0 or more, got {self.depth}")
        self.evaluate = getattr(module, "value", module.evaluate)
        self.values = getattr(module, "values", None) if hasattr(module, "value") else None
        self.distinct = getattr(module, "distinct", None)
        self.shortlist = getattr(module, "shortlist", None)
        self.last: Search | None = None     # the last move's search: what it did, for benches and tests

    def act(self, seat: Seat):
        if len(seat.legal_actions) == 1:
            self.last = None
            return seat.legal_actions[0]
        self.last = Search(self, seat)
        return self.last.run()

    def value_of(self, node: Node) -> float:
        """The node's mean reward; with backup "best", a node followed by more actions of the same player
        is worth its most visited such child (tried twice or more): a run of one player's actions is a plan,
        judged by its best continuation rather than by the average of the random ones tried under it."""
        if self.backup == "best":
            plans = [child for child in node.children.values() if child.mover == node.mover and child.visits > 1]
            if plans:
                return self.value_of(max(plans, key=lambda child: (child.visits, child.reward)))
        return node.reward / node.visits


class Search:
    """One move's search: the agent's settings, and a tree, chance and reward statistics of its own."""

    def __init__(self, agent: MctsAgent, seat: Seat, keep: tuple = ()):
        for key in SETTINGS:
            setattr(self, key, getattr(agent, key))
        self.evaluate, self.values, self.value_of = agent.evaluate, agent.values, agent.value_of
        self.chance = agent.chance
        self.distinct, self.shortlist = agent.distinct, agent.shortlist
        self.seat = seat
        self.mover = seat.player
        self.rng = random.Random(seed_from(agent.seed, json.dumps(seat.observation, sort_keys=True)))
        self.spent = 0            # evaluations made (the `evaluations` budget)
        self.done = 0             # iterations run
        self.root_actions = None  # the `width` actions the root searches, when it has more
        self.keep = set(keep)     # actions the root searches whatever its narrowing (analysis: the move played)
        self.only = None          # while `grow` runs: the one action the root searches
        self.root: Node | None = None
        # Leaf evaluations are squashed to [0, 1] by the running spread of this search's edges, so one search
        # works for every game's evaluation scale.
        self._n, self._mean, self._m2 = 0, 0.0, 0.0
        self.base: dict = {}      # each player's edge at the root (scale "move"), else none

    def run(self):
        """The action the search chooses."""
        seat = self.seat
        root = self.root = Node(None)
        if self.scale == "move":
            self.base = self.edges(seat.determinize(self.rng))
        if len(seat.legal_actions) > self.width:
            self.root_actions = self.candidates(seat) | self.keep
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else None
        while True:
            done = self.done
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if self.evaluations is not None and done > 0 and self.spent >= self.evaluations:
                break
            self.iterate(root, seat.determinize(self.rng))
            self.done += 1
        legal = set(seat.legal_actions)
        best = max((n.visits, n.reward, -i, a) for i, (a, n) in enumerate(root.children.items()) if a in legal)
        return best[3]

    def grow(self, action, visits: int) -> Node:
        """The root's node of `action` after iterations through it alone, until it has `visits` visits (analysis:
        the move played searched as deeply as the search's choice, so that their values compare)."""
        self.only = action
        try:
            while (node := self.root.children.get(action)) is None or node.visits < visits:
                self.iterate(self.root, self.seat.determinize(self.rng))
                self.done += 1
        finally:
            self.only = None
        return node

    # --- one iteration ------------------------------------------------------------------------------
    def iterate(self, root: Node, world) -> None:
        node, path = root, [root]
        while not self.stops(world):
            legal = world.legal_actions()
            if node is root and self.only is not None:
                legal = [self.only]
            elif node is root and self.root_actions is not None:
                legal = [a for a in legal if a in self.root_actions] or legal
            elif self.shortlist is not None:
                if node.shortlist is None:
                    node.shortlist = set(self.shortlist(world, legal)) | (self.keep if node is root else set())
                if len(node.shortlist) < len(legal):
                    legal = node.narrow(legal)
            untried = [a for a in legal if a not in node.children]
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = self.rng.choice(untried)
                child = node.children[action] = Node(world.current_player)
                child.available += 1
                world.apply(action)
                path.append(child)
                break
            action = self.select(node, legal)
            node = node.children[action]
            world.apply(action)
            path.append(node)
        rewards = self.simulate(world)
        for n in path:
            n.visits += 1
            if n.mover is not None:
                n.reward += rewards[n.mover]

    def stops(self, world) -> bool:
        """The tree goes no further: the game is over, or (horizon "turn", "reply") the mover's turn has passed."""
        return world.is_over or (self.horizon != "game" and world.current_player != self.mover)

    def select(self, node: Node, legal: list):
        c, children = self.c, node.children
        best, best_value = None, -math.inf
        for action in legal:
            child = children[action]
            value = self.value_of(child) + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = action, value
        return best

    def candidates(self, seat: Seat) -> set:
        """The `width` legal actions that look best one ply ahead on one determinization."""
        world = seat.determinize(self.rng)
        actions = self.shortlist(world, seat.legal_actions) if self.shortlist is not None else seat.legal_actions
        actions = self.distinct(world, actions) if self.distinct else actions
        scored = []
        for i, action in enumerate(actions):
            after = world.clone()
            after.apply(action)
            if after.is_over:
                value = math.inf if seat.player in after.result["winners"] else -math.inf
            else:
                value = self.evaluated(after, seat.player)
            scored.append((value, -i, action))
        scored.sort(key=lambda t: t[:2], reverse=True)
        return {action for _, _, action in scored[:self.width]}

    # --- rollout and leaf value ---------------------------------------------------------------------
    def simulate(self, world) -> dict[int, float]:
        rng = self.rng
        replied = False   # horizon "reply": another player has moved in this rollout
        for _ in range(self.depth):
            if world.is_over:
                break
            if self.horizon != "game" and world.current_player != self.mover:
                if self.horizon == "turn":
                    break
                replied = True
            elif replied:
                break
            legal = world.legal_actions()
            if self.rollout == "greedy" and len(legal) > 1:
                world.apply(self.greedy_step(world, legal))
            else:
                world.apply(legal[rng.randrange(len(legal))])
        if world.is_over:
            return outcome(world)
        return self.heuristic(world)

    def greedy_step(self, world, legal: list):
        player = world.current_player
        if self.shortlist is not None:
            legal = self.shortlist(world, legal)
        if self.distinct and len(legal) > self.greedy_sample:
            legal = self.distinct(world, legal)
        options = legal if len(legal) <= self.greedy_sample else self.rng.sample(legal, self.greedy_sample)
        best, best_value = options[0], -math.inf
        for action in options:
            after = world.clone()
            after.apply(action)
            if after.is_over:
                value = math.inf if player in after.result["winners"] else -math.inf
            else:
                value = self.evaluated(after, player)
            if value > best_value:
                best, best_value = action, value
        return best

    def evaluated(self, world, player: int) -> float:
        """The evaluation of `world` for `player`, counted against the `evaluations` budget."""
        self.spent += 1
        return self.evaluate(world, player)

    def heuristic(self, world) -> dict[int, float]:
        rewards = {}
        for p, edge in self.edges(world).items():
            if self.scale == "chance":
                logit = edge * self.chance
            else:
                edge -= self.base.get(p, 0.0)
                logit = edge / self.spread(edge)
            rewards[p] = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
        return rewards

    def edges(self, world) -> dict[int, float]:
        """Each player's evaluation minus the mean of the others'."""
        players = world.players
        if self.values is not None:
            self.spent += len(players)
            values = self.values(world)
        else:
            values = {p: self.evaluated(world, p) for p in players}
        return edges_of(values)

    def spread(self, x: float) -> float:
        """Running standard deviation of the evaluation edges seen so far (Welford)."""
        self._n += 1
        delta = x - self._mean
        self._mean += delta / self._n
        self._m2 += delta * (x - self._mean)
        return math.sqrt(self._m2 / self._n) if self._n > 1 and self._m2 > 0 else 1.0


def edges_of(values: dict[int, float]) -> dict[int, float]:
    """Each player's value minus the mean of the others'."""
    return {p: v - sum(w for q, w in values.items() if q != p) / (len(values) - 1) for p, v in values.items()}


def outcome(world) -> dict[int, float]:
    """1 for a sole winner, shared among several winners, 0 for the others; a no-winner end is 1/n each."""
    winners = world.result["winners"]
    players = world.players
    if not winners:
        return {p: 1.0 / len(players) for p in players}
    share = 1.0 / len(winners)
    return {p: (share if p in winners else 0.0) for p in players}
