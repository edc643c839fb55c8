"""A game in the terminal: people type actions, agents answer, the record is never lost."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from coliseo.agents import Seat, make_agent
from coliseo.core.errors import ColiseoError
from coliseo.core.i18n import player_name, result_words
from coliseo.core.match import Command, Match, save_record

from .paths import records_dir
from .words import words

RESIGNED_SEAT_AGENT = "greedy"


class Session:
    """One game with some seats played by people at this terminal and the others by agents."""

    def __init__(self, match: Match, agents: dict, lang: str, console: Console,
                 read: Callable[[str], str]):
        self.match = match
        self.agents = agents                   # player -> Agent, for the seats people do not play
        self.lang = lang
        self.console = console
        self.read = read
        self.rng = random.Random(match.seed ^ 0x5EA7)
        self.shown = 0                         # events already narrated
        self.interrupted = False               # stopped by Ctrl-C

    def say(self, key: str, **fields) -> None:
        self.console.print(words(key, self.lang, **fields))

    def show(self, picture: str) -> None:
        """A game's picture, as plain text: its brackets are never read as rich markup."""
        self.console.print(Panel(Text(picture), title=self.match.game.name(self.lang)))

    def narrate(self, viewer: int | None) -> None:
        events = self.match.events_for(viewer)
        for event in events[self.shown:]:
            self.console.print(Text(f"  · {self.match.game.render(event, self.lang)}"))
        self.shown = len(events)

    def viewer(self) -> int | None:
        """Whose eyes the terminal shows: the person to move, else the only person, else a spectator."""
        people = [p for p in self.match.state.players if p not in self.agents]
        state = self.match.state
        if state.current_player in people:
            return state.current_player
        return people[0] if len(people) == 1 else None

    def run(self) -> dict:
        try:
            self.play()
        except KeyboardInterrupt:       # Ctrl-C at the prompt or while an agent thinks: the game so far is kept
            self.interrupted = True
            self.console.print()
            self.say("interrupted")
        self.narrate(self.viewer())
        return self.finish()

    def play(self) -> None:
        game = self.match.game
        while not self.match.is_over:
            state = self.match.state
            player = state.current_player
            if player in self.agents:
                agent = self.agents[player]
                action = agent.act(Seat(state, player, self.rng))
                self.match.play(action)
                self.narrate(self.viewer())
                continue
            self.narrate(player)
            legal = state.legal_actions()
            self.show(game.render_text(state.observation(player), self.lang, legal))
            if prompt := game.prompt(state, self.lang):
                self.say("may", player=player_name(player, self.lang), what=prompt)
            try:
                text = self.read(words("prompt", self.lang, player=player_name(player, self.lang)))
            except EOFError:
                text = "quit"
            if not self.command(text.strip(), player):
                break

    def command(self, text: str, player: int) -> bool:
        """Handle one line typed by a person; False to stop playing."""
        words = text.split(maxsplit=1)
        if not words:
            return True
        if words[0] == "help":
            self.say("help")
        elif words[0] == "quit":
            self.say("quit")
            return False
        elif words == ["resign"]:
            if self.confirm("confirm_resign"):
                self.resign(player)
        elif words[0] == "undo":
            if not self.match.can_undo(player):
                self.warn("no_undo")
                return True
            self.match.undo(player)
            self.shown = len(self.match.events_for(player))
            self.say("undone")
        elif words[0] == "save":
            self.save(words[1] if len(words) == 2 else "")
        else:
            try:
                self.match.play(self.match.game.parse_action(self.match.state, text, self.lang))
            except ColiseoError as e:
                self.console.print(Text(e.text(self.lang), style="red"))
        return True

    def resign(self, player: int) -> None:
        """Resign: a game of two ends; in a bigger game the AI takes the seat over (docs/rules/fantastiqa.md)."""
        self.match.play(Command("resign", player))
        self.narrate(player)
        if player in self.match.resigned:
            self.agents[player] = make_agent(RESIGNED_SEAT_AGENT, self.match.game, seed=self.match.seed + player)
            self.say("handed", player=player_name(player, self.lang), agent=RESIGNED_SEAT_AGENT)

    def confirm(self, key: str) -> bool:
        """Ask a yes/no question; anything but yes (or the end of input) is no."""
        try:
            answer = self.read(words(key, self.lang))
        except EOFError:
            return False
        return answer.strip().lower() in words("yes", self.lang).split("/")

    def warn(self, key: str, **fields) -> None:
        self.console.print(Text(words(key, self.lang, **fields), style="red"))

    def save(self, name: str) -> None:
        """Write the record to the file `name`; a bad name or path is reported and the game goes on."""
        if not name.strip():
            self.warn("save_name")
            return
        path = Path(name.strip()).expanduser()
        if path.is_dir():
            self.warn("save_dir", path=path)
            return
        try:
            save_record(self.match.record(reveal_seed=True), path)
        except OSError as e:
            self.warn("save_failed", path=path, error=e.strerror or e)
            return
        self.say("saved", path=path)

    def finish(self) -> dict:
        """Show the end and keep the record; an unfinished game is kept too, to be resumed."""
        state = self.match.state
        game = self.match.game
        viewer = self.viewer()
        self.show(game.render_text(state.observation(viewer), self.lang))
        if self.match.result:
            self.say("result", result=result_words(game, self.match.result, self.lang))
            detail = game.result_detail(state.observation(viewer), self.lang)
            if detail:
                self.console.print(Text(detail))
        if not self.match.steps:
            self.say("no_record")
            return self.match.record()
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = records_dir() / f"{game.id}-{stamp}-{self.match.seed}.json"
        save_record(self.match.record(reveal_seed=True), path)
        self.console.print(words("record", self.lang, path=path), soft_wrap=True)
        return self.match.record()
