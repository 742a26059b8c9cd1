"""DESIGN.md's layering, read from the source: engines never reach Discord or the bot, the
shared core and the table service never reach a game, a game never reaches another, and no
module-level import
cycle exists anywhere (imports inside functions or ``if TYPE_CHECKING:`` are not followed)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def top_level_imports(path: Path) -> Iterator[str]:
    """Modules imported when ``path`` is imported (not under TYPE_CHECKING, not in defs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path.parent)

    def walk(nodes: list[ast.stmt]) -> Iterator[str]:
        for node in nodes:
            if isinstance(node, ast.Import):
                yield from (a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                yield base
                yield from (f"{base}.{a.name}" for a in node.names)
            elif isinstance(node, ast.If):
                test = ast.unparse(node.test)
                if "TYPE_CHECKING" not in test:
                    yield from walk(node.body)
                yield from walk(node.orelse)
            elif isinstance(node, ast.Try):
                yield from walk(node.body)

    yield from walk(tree.body)


def graph() -> dict[str, set[str]]:
    paths = [*ROOT.joinpath("tamalou").rglob("*.py"), *ROOT.joinpath("bot").rglob("*.py")]
    modules = {module_name(p): p for p in paths}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        # a module's own parent packages are imported first by Python itself: not an edge
        edges[name] = {
            m
            for m in top_level_imports(path)
            if m in modules and m != name and not name.startswith(m + ".")
        }
    return edges


def test_engines_never_import_the_bot_or_discord() -> None:
    for name, deps in graph().items():
        if name.startswith("tamalou"):
            assert not [d for d in deps if d.startswith("bot")], name
    for path in ROOT.joinpath("tamalou").rglob("*.py"):
        assert not [m for m in top_level_imports(path) if m.split(".")[0] == "discord"], path


def test_the_core_never_imports_a_game_and_games_never_import_each_other() -> None:
    for name, deps in graph().items():
        if name.startswith("tamalou.core"):
            assert not [d for d in deps if d.startswith("tamalou.games")], name
        if name.startswith("tamalou.games."):
            game = name.split(".")[2]
            others = [d for d in deps if d.startswith("tamalou.games.") and d.split(".")[2] != game]
            assert not others, name
        if name.startswith("bot.games."):
            game = name.split(".")[2]
            others = [d for d in deps if d.startswith("bot.games.") and d.split(".")[2] != game]
            assert not others, name


def test_the_table_service_and_the_shared_ui_never_import_a_game() -> None:
    """bot/tables reaches a game only through what the bot injects (``load_game``,
    ``rules_for``); bot/ui, bot/storage and bot/seasons through the plugin registry."""
    for name, deps in graph().items():
        if name.startswith("bot.tables"):
            assert not [d for d in deps if d.startswith(("tamalou.games", "bot.games"))], name
        if name.startswith(("bot.ui", "bot.storage", "bot.seasons", "bot.tables")):
            games = [d for d in deps if d.startswith(("tamalou.games.", "bot.games."))]
            assert not games, name


def test_no_module_level_import_cycle() -> None:
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert cycles == []
