"""Every message the terminal itself prints, keyed, in English and Spanish (the games bring their own text)."""

MESSAGES = {
    # --- the game session ---------------------------------------------------------------------------------------
    "prompt": {"en": "{player}, your action (help for commands)", "es": "{player}, tu acción (help: comandos)"},
    "may": {"en": "{player} may {what}.", "es": "{player} puede {what}."},
    "help": {"en": "Type an action in notation (listed above), or: undo · resign · save FILE · quit",
             "es": "Escribe una acción en notación (arriba), o: undo · resign (rendirse) · save FICHERO · quit"},
    "handed": {"en": "{player} resigned: the AI ({agent}) plays their seat to the end.",
               "es": "{player} se rindió: la IA ({agent}) juega su asiento hasta el final."},
    "result": {"en": "Result: {result}", "es": "Resultado: {result}"},
    "saved": {"en": "Saved to {path}", "es": "Guardado en {path}"},
    "save_name": {"en": "save needs a file name: save FILE", "es": "save necesita un fichero: save FICHERO"},
    "save_dir": {"en": "{path} is a folder: name a file in it, e.g. save {path}/game.json",
                 "es": "{path} es una carpeta: nombra un fichero dentro, p. ej. save {path}/partida.json"},
    "save_failed": {"en": "Cannot save to {path}: {error}. The game goes on.",
                    "es": "No se puede guardar en {path}: {error}. La partida sigue."},
    "no_undo": {"en": "Nothing to undo: only your own last action in your current turn can be taken back, "
                      "and never one that revealed something or drew on chance.",
                "es": "No hay nada que deshacer: solo tu última acción de tu turno actual, y nunca una que "
                      "revelara algo o dependiera del azar."},
    "undone": {"en": "Undone.", "es": "Deshecho."},
    "quit": {"en": "Game left unfinished.", "es": "Partida abandonada sin terminar."},
    "record": {"en": "The record is in {path} (coliseo replay / verify).",
               "es": "El registro está en {path} (coliseo replay / verify)."},
    "no_record": {"en": "No action was played, so no record is kept.",
                  "es": "No se jugó ninguna acción, así que no se guarda registro."},
    "interrupted": {"en": "Interrupted (Ctrl-C).", "es": "Interrumpido (Ctrl-C)."},
    "confirm_resign": {"en": "Resign this game? (y/N)", "es": "¿Rendirte en esta partida? (s/N)"},
    "yes": {"en": "y/yes", "es": "s/si/sí"},
    "plays": {"en": "{player} ({agent}) plays {action}", "es": "{player} ({agent}) juega {action}"},
    # --- replay ------------------------------------------------------------------------------------------------
    "the_start": {"en": "the start", "es": "el inicio"},
    "step_keys": {"en": "Enter/→ next · b/← back · q quit: ", "es": "Enter/→ siguiente · b/← atrás · q salir: "},
    "replayed": {"en": "Replayed {n} actions: {outcome}.", "es": "Reproducidas {n} acciones: {outcome}."},
    "same_record": {"en": "the same result as the record", "es": "el mismo resultado que el registro"},
    "other_record": {"en": "a different result from the record", "es": "un resultado distinto del registro"},
    "same_run": {"en": "the same result as the run file", "es": "el mismo resultado que el fichero de la simulación"},
    "other_run": {"en": "a different result from the run file",
                  "es": "un resultado distinto del fichero de la simulación"},
    # --- errors of the commands ---------------------------------------------------------------------------------
    "unknown_game": {"en": "unknown game {game!r}; the games are: {games}",
                     "es": "juego desconocido {game!r}; los juegos son: {games}"},
    "no_option": {"en": "{game} has no option {name!r}", "es": "{game} no tiene la opción {name!r}"},
    "no_guide": {"en": "{game} has no player's guide yet; see docs/rules/{game}.md",
                 "es": "{game} aún no tiene guía del jugador; mira docs/rules/{game}.md"},
    "no_cards": {"en": "{game} cannot list its cards yet", "es": "{game} aún no puede listar sus cartas"},
    "filter_form": {"en": "filter {item!r} must be FIELD=VALUE", "es": "el filtro {item!r} debe ser CAMPO=VALOR"},
    "no_field": {"en": "no field {field!r}; fields: {fields}", "es": "no hay ningún campo {field!r}; campos: {fields}"},
    "filter_number": {"en": "filter {item!r} needs a number", "es": "el filtro {item!r} necesita un número"},
    "no_file": {"en": "{path}: no such file", "es": "{path}: no existe ese fichero"},
    "is_folder": {"en": "{path} is a folder, not a file", "es": "{path} es una carpeta, no un fichero"},
    "unreadable": {"en": "cannot read {path}: {error}", "es": "no se puede leer {path}: {error}"},
    "not_json": {"en": "{path} is not JSON: {error}", "es": "{path} no es JSON: {error}"},
    "bad_record": {"en": "{path} is not a record Coliseo can replay: {error}",
                   "es": "{path} no es un registro que Coliseo pueda reproducir: {error}"},
    "other_game": {"en": "{path} is a record of {game}, not {wanted}: play {game} --load {path}",
                   "es": "{path} es un registro de {game}, no de {wanted}: play {game} --load {path}"},
    "finished": {"en": "{path} is a finished game ({result}): see it with coliseo replay {path}",
                 "es": "{path} es una partida terminada ({result}): mírala con coliseo replay {path}"},
    "seat_range": {"en": "--seat must be 1..{n}", "es": "--seat debe ser 1..{n}"},
    "vs_count": {"en": "--vs names {agents} agents for {seats} AI seats",
                 "es": "--vs nombra {agents} agentes para {seats} asientos de la IA"},
    "unknown_agent": {"en": "unknown agent {name!r} for {game}; the agents are: {agents}",
                      "es": "agente desconocido {name!r} para {game}; los agentes son: {agents}"},
    "run_needs_game": {"en": "{path} is a simulation run, not a record: name one of its games, e.g. "
                             "coliseo {command} {path} --game 0",
                       "es": "{path} es una simulación, no un registro: nombra una de sus partidas, p. ej. "
                             "coliseo {command} {path} --game 0"},
    "view": {"en": "--view must be a seat number or spectator",
             "es": "--view debe ser un número de asiento o spectator"},
}


def words(key: str, lang: str, **fields) -> str:
    """The message `key` in `lang`, its fields filled in."""
    return MESSAGES[key][lang].format(**fields)
