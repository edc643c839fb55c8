"""Every Coliseo game as an OpenSpiel Python game named `coliseo_<id>`.

    import coliseo.rl.openspiel_adapter  # registers the games (or call register_openspiel_games())
    game = pyspiel.load_game("coliseo_capsule", {"width": 6})

- Chance: the game's seed is one explicit chance node at the root, `seeds` equally likely outcomes
  (parameter, default 65536). Every later shuffle and roll follows from the seed, so a history
  (seed, actions) determines the state, as OpenSpiel expects.
- Players' actions are indices in the game's fixed action space (`game.action_index`).
- Observation and information state (string and tensor) are both built from `observation(player)`:
  the string is its JSON, the tensor its encoder vector. The games' observations already carry what
  a player remembers, so the information state is not a perfect-recall history of observations.
- `resample_from_infostate(player, sampler)` is `determinize(player, rng)`, with the rng seeded
  from the sampler: what OpenSpiel's Python IS-MCTS bot calls.
- Returns: +1 per winner, -1 for the others, 0 in a draw or when `max_game_length` actions pass.
- Parameters: the game's options whose values are numbers, booleans or text, plus `seeds` and
  `max_game_length`.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel

import coliseo

from .common import legal_by_index, player_count, rewards
from .encoding import encoder_for

SEEDS = 65536
MAX_GAME_LENGTH = 10_000
_ADAPTER_PARAMETERS = {"seeds": SEEDS, "max_game_length": MAX_GAME_LENGTH}


class _Held:
    """The Coliseo state and the game: OpenSpiel clones Python states by deepcopy of their attributes,
    and this turns that into `clone()` of the state and a shared game."""

    __slots__ = ("game", "state", "_legal")

    def __init__(self, game, state):
        self.game = game
        self.state = state
        self._legal = None

    def __deepcopy__(self, memo):
        return _Held(self.game, None if self.state is None else self.state.clone())

    def legal(self) -> dict:
        """Legal actions by index, kept until the next apply (OpenSpiel names each legal action)."""
        if self._legal is None:
            self._legal = legal_by_index(self.state)
        return self._legal

    def apply(self, index: int) -> None:
        action = self.legal()[index]
        self._legal = None
        self.state.apply(action)


def _scalar_options(coliseo_game) -> dict:
    """The options OpenSpiel can carry: numbers, booleans, and text that cannot be read as a number
    (OpenSpiel's game strings would turn a text option set to "1" into the number 1)."""
    schema = {option.name: option for option in coliseo_game.options_schema}
    carried = {}
    for name, value in coliseo_game.options.items():
        if isinstance(value, str):
            texts = [value, *(str(c) for c in schema[name].choices)] if name in schema else [value]
            if any(_numeric(text) for text in texts):
                continue
        if isinstance(value, bool | int | float | str):
            carried[name] = value
    return carried


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _game_type(game_id: str) -> pyspiel.GameType:
    default = coliseo.load_game(game_id)
    general = default.max_players > 2
    return pyspiel.GameType(
        short_name=f"coliseo_{game_id}",
        long_name=f"Coliseo {default.name('en')}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM if general else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=default.max_players,
        min_num_players=default.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**_scalar_options(default), **_ADAPTER_PARAMETERS},
    )


class ColiseoSpielGame(pyspiel.Game):
    """One subclass per game, made by `register_openspiel_games`, sets `game_id` and `game_type`."""

    game_id: str
    game_type: pyspiel.GameType

    def __init__(self, params: dict | None = None):
        game_type, game_id = self.game_type, self.game_id
        params = dict(params or {})
        self.seeds = int(params.pop("seeds", SEEDS))
        self.max_length = int(params.pop("max_game_length", MAX_GAME_LENGTH))
        if self.seeds < 1 or self.max_length < 1:
            raise ValueError("parameters 'seeds' and 'max_game_length' must be at least 1")
        defaults = _scalar_options(coliseo.load_game(game_id))
        self.coliseo = coliseo.load_game(game_id, **{k: v for k, v in params.items() if v != defaults.get(k)})
        self.encoder = encoder_for(self.coliseo)
        self.players = player_count(self.coliseo)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.coliseo.num_distinct_actions,
            max_chance_outcomes=self.seeds,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None if game_type.utility == pyspiel.GameType.Utility.GENERAL_SUM else 0.0,
            max_game_length=self.max_length,
        )
        super().__init__(game_type, info, {**params, "seeds": self.seeds, "max_game_length": self.max_length})

    def new_initial_state(self):
        return ColiseoSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("Coliseo observers give one player's own view (private_info=SINGLE_PLAYER) only")
        return ColiseoObserver(self)


class ColiseoSpielState(pyspiel.State):
    def __init__(self, game: ColiseoSpielGame):
        super().__init__(game)
        self._held = _Held(game, None)  # no state until the chance node picks the seed
        self._length = 0

    @property
    def coliseo_state(self):
        return self._held.state

    def current_player(self):
        state = self._held.state
        if state is None:
            return pyspiel.PlayerId.CHANCE
        if state.is_over or self._length >= self._held.game.max_length:
            return pyspiel.PlayerId.TERMINAL
        return state.current_player

    def _legal_actions(self, player):
        return sorted(self._held.legal())

    def chance_outcomes(self):
        probability = 1.0 / self._held.game.seeds
        return [(seed, probability) for seed in range(self._held.game.seeds)]

    def _apply_action(self, action):
        if self._held.state is None:
            self._held = _Held(self._held.game, self._held.game.coliseo.new_state(seed=int(action)))
            return
        self._held.apply(action)
        self._length += 1

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        legal = self._held.legal() if self._held.state is not None else {}
        return self._held.game.coliseo.format_action(legal[action]) if action in legal else f"action {action}"

    def is_terminal(self):
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def returns(self):
        state = self._held.state
        if state is None or not state.is_over:
            return [0.0] * self._held.game.players
        return rewards(state.result, self._held.game.players)

    def resample_from_infostate(self, player, probability_sampler):
        """A state `player` cannot tell from this one (Coliseo's determinize), for IS-MCTS."""
        rng = random.Random(int(probability_sampler() * 2**53))
        other = self.clone()
        other._held = _Held(self._held.game, self._held.state.determinize(player, rng))
        return other

    def __str__(self):
        state = self._held.state
        return "chance: seed" if state is None else json.dumps(state.observation(None), sort_keys=True)


class ColiseoObserver:
    """Observation = information state: the encoder vector and the JSON of `observation(player)`."""

    def __init__(self, game: ColiseoSpielGame):
        self.encoder = game.encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {}
        for name, (start, shape) in self.encoder.parts.items():
            self.dict[name] = self.tensor[start:start + int(np.prod(shape))].reshape(shape)

    def set_from(self, state: ColiseoSpielState, player: int) -> None:
        inner = state.coliseo_state
        if inner is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.encoder.encode(inner.observation(player), player)

    def string_from(self, state: ColiseoSpielState, player: int) -> str:
        inner = state.coliseo_state
        if inner is None:
            return "before the deal"
        return json.dumps(inner.observation(player), sort_keys=True, separators=(",", ":"))


def register_openspiel_games() -> list[str]:
    """Register `coliseo_<id>` for every game in `coliseo.list_games()`; safe to call twice."""
    registered = set(pyspiel.registered_names())
    names = []
    for game_id in coliseo.list_games():
        name = f"coliseo_{game_id}"
        if name not in registered:
            game_type = _game_type(game_id)
            # a class, not a closure: pyspiel keeps the factory until the interpreter is gone
            cls = type(f"Coliseo_{game_id}", (ColiseoSpielGame,), {"game_id": game_id, "game_type": game_type})
            globals()[cls.__name__] = cls  # found by name, so pickle (and OpenSpiel's serialization) can use it
            pyspiel.register_game(game_type, cls)
        names.append(name)
    return names


register_openspiel_games()
