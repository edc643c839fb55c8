"""`coliseo report`: one HTML page (PNG plots embedded) from a simulation file.

Win rates with intervals, the game-length histogram, first-player advantage, how games end, and
the balance insight: the win-rate lift of each setup item (monster, card, die, King...) so a
designer sees what is too strong.
"""

from __future__ import annotations

import base64
import html
import io

from coliseo.core.reasons import reason_words
from coliseo.core.registry import game_class

from .run import RunConfig
from .stats import item_lifts, summarize


def plt_figure(width: float, height: float):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, height))


def _png(fig) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def _interval_plot(labels: list[str], rates: list[dict], title: str, reference: float | None = None) -> str:
    fig, ax = plt_figure(6.5, 0.6 + 0.45 * len(labels))
    y = list(range(len(labels)))[::-1]
    ax.errorbar([r["rate"] for r in rates], y,
                xerr=[[max(0.0, r["rate"] - r["low"]) for r in rates],
                      [max(0.0, r["high"] - r["rate"]) for r in rates]],
                fmt="o", capsize=4)
    if reference is not None:
        ax.axvline(reference, color="grey", linestyle=":")
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("rate (95% Wilson interval)")
    ax.set_title(title)
    return _png(fig)


def _length_histogram(rows: list[dict]) -> str:
    fig, ax = plt_figure(6.5, 3)
    ax.hist([r["length"] for r in rows], bins=30)
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    return _png(fig)


def _lift_plot(lifts: list[dict]) -> str:
    fig, ax = plt_figure(6.5, 0.6 + 0.3 * len(lifts))
    y = list(range(len(lifts)))[::-1]
    ax.errorbar([r["lift"] for r in lifts], y,
                xerr=[[max(0.0, r["lift"] - r["lift_low"]) for r in lifts],
                      [max(0.0, r["lift_high"] - r["lift"]) for r in lifts]],
                fmt="o", capsize=3)
    ax.axvline(0, color="grey", linestyle=":")
    ax.set_yticks(y, [r["item"] for r in lifts])
    ax.set_xlabel("win-rate lift over all sides (95% interval)")
    ax.set_title("Setup items")
    return _png(fig)


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}–{100 * r['high']:.1f}]"


def _table(headers: list[str], body: list[list]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><tr>{head}</tr>{rows}</table>"


def run_reason_words(game_id: str, code: str) -> str:
    """How a run row's end code reads for a person: the game's words for it (core/reasons.py), or the run's own
    `unfinished`."""
    if code == "unfinished":
        return "unfinished (the step limit was reached)"
    return reason_words(game_class(game_id), code, "en")


def _pairing_section(pairings: list[dict]) -> list[str]:
    """Each match-up of sides with every seat's win rate, when the run played more than one."""
    if len(pairings) < 2:
        return []
    players = len(pairings[0]["seats"])
    labels = [" vs ".join(r["sides"]) for r in pairings]
    plot = _interval_plot(labels, [r["seats"][0] for r in pairings], "Player 1 wins per match-up", 1 / players)
    return ["<h2>Match-ups</h2>",
            f"<p>Fair: each seat within 5 points of {100 / players:.0f}% and its interval holding it.</p>",
            _table(["sides, in seat order", "games", *(f"player {p + 1} wins" for p in range(players)),
                    "first mover wins", "fair"],
                   [[label, r["games"], *(_pct(s) for s in r["seats"]), _pct(r["first_player"]),
                     "yes" if r["fair"] else "no"] for label, r in zip(labels, pairings)]),
            f'<img src="{plot}">']


def _settings_text(settings: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items()) or "no settings"


def build_report(config: RunConfig, rows: list[dict], max_items: int = 30, header: dict | None = None) -> str:
    """The report page as HTML text; `header` (the run file's) adds the engine version and agent settings."""
    if not rows:
        from coliseo.core.errors import SetupError

        raise SetupError("the run file has no finished game to report on")
    header = header or {}
    settings = header.get("agent_settings") or {}
    summary = summarize(rows)
    agents = summary["agents"]
    seats = summary["seats"]
    lifts = item_lifts(rows)
    half = max_items // 2
    shown = lifts if len(lifts) <= max_items else lifts[:half] + lifts[-half:]   # the strongest and weakest
    seat_plot = _interval_plot([f"player {p + 1}" for p in seats], [s["win"] for s in seats.values()],
                               "Win rate per seat", 1 / len(config.agents))
    if len(agents) > 1:
        agent_plot = _interval_plot(list(agents), [s["win"] for s in agents.values()], "Win rate per agent")
        agent_part = [_table(["agent", "games", "win", "draw", "mean length", "median length"],
                             [[a, s["games"], _pct(s["win"]), _pct(s["draw"]), f"{s['mean_length']:.1f}",
                               s["median_length"]] for a, s in agents.items()]),
                      f'<img src="{agent_plot}">']
    else:   # every seat counts the one agent once per game: its rate would be 1 / players whatever happened
        agent_part = [f"<p>Self-play: {html.escape(next(iter(agents)))} plays every seat, so there is no win rate "
                      "per agent; the seats, the first mover and the match-ups below are what the run measures.</p>"]
    parts = [
        f"<h1>{html.escape(config.game)}: {summary['games']} games</h1>",
        f"<p>agents {html.escape(', '.join(config.agents))}; seed {config.seed}; "
        f"options {html.escape(str(config.options or 'default'))}; "
        f"setups: {len(config.setups) if config.setups else 'the default'}; "
        f"engine version {html.escape(header.get('engine') or 'not recorded')}</p>",
        _table(["agent", "settings in full"],
               [[spec, _settings_text(settings[spec]) if spec in settings else "not recorded"]
                for spec in dict.fromkeys(config.agents)]),
        "<h2>Win rates</h2>",
        *agent_part,
        "<h2>Seats and first-player advantage</h2>",
        _table(["seat", "games", "win", "draw"],
               [[f"player {p + 1}", s["games"], _pct(s["win"]), _pct(s["draw"])] for p, s in seats.items()]),
        f"<p>The player who took the first turn won {_pct(summary['first_player'])} of the games "
        f"(fair: {100 / len(config.agents):.0f}%).</p>",
        f'<img src="{seat_plot}">',
        *_pairing_section(summary["pairings"]),
        "<h2>Game length and how games end</h2>",
        f"<p>mean {summary['mean_length']:.1f} actions, median {summary['median_length']}</p>",
        f'<img src="{_length_histogram(rows)}">',
        _table(["reason", "games", "share"],
               [[run_reason_words(config.game, r), n, f"{100 * n / summary['games']:.1f}%"]
                for r, n in sorted(summary["reasons"].items())]),
        "<h2>Balance: setup items in winning sides</h2>",
    ]
    if shown:
        parts += ["<p>Lift = win rate of the sides that had the item minus the win rate of all sides. "
                  "An interval wholly above zero points at an item that is likely too strong; wholly below "
                  "zero, too weak.</p>",
                  _table(["item", "sides", "win rate", "lift [95%]"],
                         [[r["item"], r["sides"], f"{100 * r['win_rate']:.1f}%",
                           f"{100 * r['lift']:+.1f} [{100 * r['lift_low']:+.1f}, {100 * r['lift_high']:+.1f}]"]
                          for r in shown]),
                  f'<img src="{_lift_plot(shown)}">']
    else:
        parts.append("<p>Every side had the same setup items (or none were named), so there is nothing to "
                     "compare. Run with <code>--setup</code> naming a list of varied setups.</p>")
    style = ("body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}img{max-width:100%}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Coliseo report: {html.escape(config.game)}"
            f"</title><style>{style}</style></head><body>{''.join(parts)}</body></html>")
