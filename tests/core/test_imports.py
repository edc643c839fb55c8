"""The import rules of docs/engine.md: no cycles anywhere in src/, and each layer imports only what is below it.

Imports are read from the source (ast), so a module need not run to be checked. Every import statement counts,
at module level or inside a function: a lazy import that closes a loop is still a loop in the design. An edge
goes to the module named (`from .view import observe` -> `view`; `from . import text` -> `text`); the parent
packages Python initialises on the way are not edges (every module would otherwise loop with its own package).
"""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py")}


def imported(name: str, path: Path) -> list[tuple[str, int]]:
    """(module, line) of every coliseo module the file imports, its own package's relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.append((target if target in MODULES else base, node.lineno))
    return [(_known(target), line) for target, line in found if target.split(".")[0] == "coliseo"]


def _known(target: str) -> str:
    """The nearest module of src/ that holds `target` (a name can point into a folder of data files)."""
    while target not in MODULES and "." in target:
        target = target.rpartition(".")[0]
    return target


GRAPH = {name: {target for target, _ in imported(name, path) if target != name} for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan), each a set of modules."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_a_function_level_import_is_an_edge_and_a_loop_is_found(tmp_path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from .state import X\n    from . import text\n", encoding="utf-8")
    assert {t for t, _ in imported("coliseo.games.capsule.lazy", lazy)} == {"coliseo.games.capsule.state",
                                                                            "coliseo.games.capsule.text"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_no_module_in_src_imports_itself_round_a_loop():
    found = [sorted(c) for c in cycles(GRAPH)]
    assert not found, f"import cycles: {found}"


def layer(module: str) -> str:
    """core, games.<id>, agents, sim, web, cli, rl, store; the root package `coliseo` (the public facade over
    core: load_game, the errors, the version) counts as core."""
    parts = module.split(".")
    if len(parts) == 1:
        return "core"
    if parts[1] == "games" and len(parts) > 2:
        return f"games.{parts[2]}"
    return parts[1]


def allowed(source: str, target: str) -> bool:
    """docs/engine.md, "Layers": what a module of each layer may import."""
    src_layer, dst_layer = layer(source), layer(target)
    if src_layer == "core":
        return dst_layer == "core"
    if src_layer.startswith("games."):
        return dst_layer in ("core", src_layer)
    if src_layer == "agents":
        # a game only through its evaluation module; the Game contract itself is core's
        return dst_layer in ("core", "agents") or (dst_layer.startswith("games.") and target.endswith(".evaluation"))
    if src_layer in ("sim", "rl", "store"):
        return dst_layer not in ("cli", "web")
    return True


def test_the_layer_rules_refuse_what_they_should():
    assert allowed("coliseo.agents.mcts", "coliseo.games.capsule.evaluation")
    assert not allowed("coliseo.agents.mcts", "coliseo.games.capsule.state")
    assert not allowed("coliseo.agents.value_fit", "coliseo.sim.run")
    assert not allowed("coliseo.core.match", "coliseo.games.capsule")
    assert not allowed("coliseo.games.capsule.state", "coliseo.games.forbidden.content")
    assert not allowed("coliseo.games.capsule.state", "coliseo.agents.base")
    assert allowed("coliseo.games.capsule.view", "coliseo.core.rng")
    assert not allowed("coliseo.sim.run", "coliseo.web.app")
    assert allowed("coliseo.cli.main", "coliseo.web.app")


def test_each_layer_imports_only_the_layers_below_it():
    broken = sorted({f"{path.relative_to(SRC)}:{line} imports {target}"
                     for name, path in MODULES.items() for target, line in imported(name, path)
                     if not allowed(name, target)})
    assert not broken, "\n".join(broken)
