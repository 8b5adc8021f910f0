"""No import cycles in bot/ and engine/, counting every import the way a reader must: at module
level, under ``TYPE_CHECKING`` and inside functions. import-linter's layers see only whole
packages, and a cycle hidden in a function or a type-only import still ties two modules into
one: neither can be understood, tested or moved without the other."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("bot", "engine")


def module_files() -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its ``__init__``)."""
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported(
    name: str, source: str, modules: Mapping[str, Path], *, is_package: bool = False
) -> Iterator[str]:
    """The project's modules that module ``name`` imports anywhere in its source.
    ``from a import b`` imports ``a`` (it runs first and is asked for ``b``) and, when ``b`` is
    a module, ``a.b`` too; ``import a.b`` names ``a.b`` only, as every module of a package
    would otherwise tie itself to the package's ``__init__``."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            yield from (base,) if base in modules else ()
            yield from (f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules)


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {
        name: set(imported(name, path.read_text(), modules, is_package=path.stem == "__init__"))
        - {name}
        for name, path in modules.items()
    }


def cycles(graph: Mapping[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan): the knots whose
    modules all import each other, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def circle(graph: Mapping[str, set[str]], component: set[str]) -> list[str]:
    """A path that starts at the component's first module and comes back to it, through
    modules of the component only (a shortest one, breadth first)."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(graph[module] & component):
                if target == start:
                    return [*paths[module], start]
                if target not in paths:
                    paths[target] = [*paths[module], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{component} is not strongly connected")


def test_no_module_imports_itself_back_through_others() -> None:
    graph = import_graph()
    found = [
        f"{' -> '.join(circle(graph, knot))} (all of: {', '.join(sorted(knot))})"
        for knot in cycles(graph)
    ]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_the_walk_sees_type_only_and_function_level_imports() -> None:
    """The check itself: a cycle made only of imports the interpreter defers is found."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]
    assert circle(graph, {"a", "b", "c"}) == ["a", "b", "c", "a"]
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot.tables import table\n"
        "def f():\n    from . import errors\n    import engine.cards\n"
    )
    modules = {name: ROOT for name in ("bot.tables.table", "bot.ledger.errors", "engine.cards")}
    assert set(imported("bot.ledger.x", source, modules)) == set(modules)
