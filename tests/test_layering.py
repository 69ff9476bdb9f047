"""The layering of docs/architecture.md#the-layers, read from the imports of the package (every import, at the top
of a module, under `if TYPE_CHECKING:` or inside a function): entry points -> adapters -> sequencer (only ports) ->
rules engine and role catalogue (pure). An arrow never runs back up; no two modules import each other, however
indirectly and whatever kind of import; production code never imports a fake.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Iterator

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "narrator"

# What the pure engine and its catalogue may import.
PURE = ("narrator.rules", "narrator.roles", "narrator.errors", "narrator.ports")
# What the sequencer may import: the engine, the ports, the voice packs' text and the printed words'
# catalogue (narrator.i18n: a line the flow prints, in the table's language). No adapter.
FLOW = (*PURE, "narrator.flow", "narrator.packs", "narrator.i18n")
# The tests' twins: only tests (and the twins themselves) import them.
FAKES = ("narrator.fakes", "narrator.listening.fake")

# The kinds of import an edge of the graph can be: each one is a dependency, and a cycle of any of
# them is a cycle (a TYPE_CHECKING import is a cycle for mypy and for the reader; a function-local
# one is a cycle at run time, hidden from the top of the file).
TOP, TYPING, LOCAL = "module-level", "TYPE_CHECKING", "function-local"


_TREES: dict[str, ast.Module] = {}


def parse(source: str) -> ast.Module:
    """`source`'s tree, parsed once while this file's tests run: three checks read every module of
    the package, and parsing it was most of their time. No check changes a tree."""
    tree = _TREES.get(source)
    if tree is None:
        tree = _TREES[source] = ast.parse(source)
    return tree


@pytest.fixture(scope="module", autouse=True)
def _trees_let_go() -> Iterator[None]:
    """The trees are dropped when this file's tests are done (tens of MB a worker would keep)."""
    yield
    _TREES.clear()


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_edges(source: str, known: set[str] | None = None) -> dict[str, str]:
    """Every narrator module a source imports, with the kind of its first import (`TOP`, `TYPING`,
    `LOCAL`); `from narrator.x import y` counts as narrator.x.y where y is a module (a file or a
    package of the checkout, or a name of `known`), else as narrator.x."""
    found: dict[str, str] = {}

    def is_module(name: str) -> bool:
        if known is not None:
            return name in known
        base = PACKAGE.parent.joinpath(*name.split("."))
        return base.with_suffix(".py").is_file() or base.is_dir()

    def add(name: str, kind: str) -> None:
        if name == "narrator" or name.startswith("narrator."):
            found.setdefault(name, kind)

    def visit(node: ast.AST, kind: str) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                add(a.name, kind)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from package import module` needs the package only as any submodule does (Python
            # loads a parent first): an edge to the package when a name is taken from it.
            modules = [f"{node.module}.{a.name}" for a in node.names if is_module(f"{node.module}.{a.name}")]
            if len(modules) < len(node.names):
                add(node.module, kind)
            for name in modules:
                add(name, kind)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, TYPING if kind == TOP else kind)
            for child in node.orelse:
                visit(child, kind)
            return
        inner = LOCAL if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else kind
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(parse(source), TOP)
    return found


def imports_of(path: Path) -> set[str]:
    """Every narrator module `path` imports, of any kind."""
    return set(import_edges(path.read_text(encoding="utf-8")))


@functools.cache
def modules() -> dict[str, set[str]]:
    """Every module of the package -> the narrator modules it imports; read when a test first asks
    (each xdist worker imports this file to collect it, and most never run its tests)."""
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def offending(layer: str, allowed: tuple[str, ...]) -> list[str]:
    return sorted(f"{mod} imports {dep}" for mod, deps in modules().items() if within(mod, (layer,))
                  for dep in deps if dep != "narrator" and not within(dep, allowed))


def test_the_imports_were_read() -> None:
    assert "narrator.flow.sequencer" in modules() and "narrator.rules.game" in modules()
    assert "narrator.ports" in modules()["narrator.flow.sequencer"]


@pytest.mark.parametrize("layer", ["narrator.rules", "narrator.roles"])
def test_the_engine_and_the_catalogue_import_nothing_but_themselves_errors_and_ports(layer: str) -> None:
    assert offending(layer, PURE) == []


def test_the_sequencer_imports_no_adapter_and_no_entry_point() -> None:
    """narrator/flow holds the flow: no terminal, clock, journal file, screen, audio, or command line."""
    assert offending("narrator.flow", FLOW) == []


def test_production_code_never_imports_a_fake() -> None:
    users = sorted(f"{mod} imports {dep}" for mod, deps in modules().items() if not within(mod, FAKES)
                   for dep in deps if within(dep, FAKES))
    assert users == []


def units() -> dict[str, set[str]]:
    """The import graph between narrator's packages and top-level modules. The engine and its
    catalogue are separate units: the catalogue imports the engine (its registries, in
    narrator/rules/hooks.py), never the other way round."""

    def unit(name: str) -> str:
        return ".".join(name.split(".")[:2])

    graph: dict[str, set[str]] = {}
    for mod, deps in modules().items():
        graph.setdefault(unit(mod), set()).update(unit(d) for d in deps if d != "narrator" and unit(d) != unit(mod))
    return graph


def test_the_engine_does_not_import_its_catalogue() -> None:
    """The role modules fill the engine's registries when they load (the `narrator` package
    loads them); the engine never imports them, so rules <-> roles is no cycle."""
    assert offending("narrator.rules", ("narrator.rules", "narrator.errors", "narrator.ports")) == []


def test_no_import_cycle_between_packages() -> None:
    graph = units()
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    cycles: list[list[str]] = []

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                walk(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            walk(start, [start])
    assert cycles == [], "\n".join(" -> ".join(c) for c in cycles)


def module_graph(sources: dict[str, str]) -> dict[str, dict[str, str]]:
    """module -> {imported module of `sources` -> kind}: the import graph between modules (a module's
    own package's `__init__`, which Python loads first, is no edge: it is not an import of it)."""
    known = set(sources)
    graph: dict[str, dict[str, str]] = {}
    for mod, source in sources.items():
        edges = import_edges(source, known)
        graph[mod] = {dep: kind for dep, kind in edges.items() if dep in known and dep != mod}
    return graph


def cycles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as a cycle through
    all of them where one exists, else as its members, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, {})):
            if nxt not in index:
                strong(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                members.append(top)
                if top == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for node in sorted(graph):
        if node not in index:
            strong(node)
    return sorted(found)


def describe(graph: dict[str, dict[str, str]], members: list[str]) -> str:
    """The component, and its shortest cycle through its first module, each arrow with its kind of import."""
    inside = set(members)
    start = members[0]
    came: dict[str, str] = {}
    frontier = [start]
    while frontier and start not in came:
        nxt_frontier: list[str] = []
        for node in frontier:
            for dep in sorted(graph[node]):
                if dep in inside and dep not in came:
                    came[dep] = node
                    nxt_frontier.append(dep)
        frontier = nxt_frontier
    path = [start]
    while len(path) == 1 or path[-1] != start:
        path.append(came[path[-1]])
    path.reverse()
    arrows = "".join(f" -({graph[a][b]})-> {b}" for a, b in zip(path, path[1:]))
    return f"{len(members)} modules ({', '.join(members)}): {start}{arrows}"


def test_no_import_cycle_between_modules_of_any_kind() -> None:
    """No module imports itself back through others: not at the top of a file, not under
    `if TYPE_CHECKING:`, not inside a function."""
    sources = {module_name(p): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}
    graph = module_graph(sources)
    found = cycles(graph)
    assert found == [], "\n".join(describe(graph, c) for c in found)


@pytest.mark.parametrize("kind, b_source", [
    (TOP, "import pkg_a\nimport narrator.a\n"),
    (TYPING, "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from narrator.a import A\n"),
    (LOCAL, "def f() -> None:\n    from narrator import a\n"),
    (LOCAL, "class B:\n    def m(self) -> None:\n        import narrator.a\n"),
])
def test_the_cycle_check_sees_every_kind_of_import(kind: str, b_source: str) -> None:
    """A two-module cycle whose way back is an import of each kind is found and named by its kind;
    the same modules without the way back are no cycle."""
    sources = {"narrator.a": "from narrator.b import B\n", "narrator.b": b_source}
    graph = module_graph(sources)
    assert cycles(graph) == [["narrator.a", "narrator.b"]]
    assert graph["narrator.b"]["narrator.a"] == kind
    assert describe(graph, ["narrator.a", "narrator.b"]).endswith(
        f"narrator.a -({TOP})-> narrator.b -({kind})-> narrator.a")
    assert cycles(module_graph({**sources, "narrator.b": "import os\n"})) == []


def test_a_long_cycle_is_found_whole() -> None:
    sources = {"narrator.a": "import narrator.b\n", "narrator.b": "import narrator.c\n",
               "narrator.c": "def f() -> None:\n    import narrator.a\n", "narrator.d": "import narrator.a\n"}
    assert cycles(module_graph(sources)) == [["narrator.a", "narrator.b", "narrator.c"]]


def borrowed_methods(source: str) -> list[str]:
    """Module functions written as methods of a class of another module: a first parameter named
    `self`, and names of a class body bound to a function of another module (`dawn = _dawn.dawn`)."""
    tree = parse(source)

    def is_module(name: str) -> bool:
        base = PACKAGE.parent.joinpath(*name.split("."))
        return base.with_suffix(".py").is_file() or base.is_dir()

    imported = {a.asname or a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for a in node.names}  # modules, by the names they are bound to
    imported |= {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
                 for a in node.names if is_module(f"{node.module}.{a.name}")}
    found = [f"def {node.name}(self, ...)" for node in tree.body
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args
             and node.args.args[0].arg == "self"]
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for stmt in cls.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Attribute) \
                    and isinstance(stmt.value.value, ast.Name) and stmt.value.value.id in imported:
                found.append(f"{cls.name}.{stmt.targets[0].id if isinstance(stmt.targets[0], ast.Name) else '?'} = "
                             f"{stmt.value.value.id}.{stmt.value.attr}")
    return found


def test_no_module_function_is_a_method_of_another_modules_class() -> None:
    """A class's behaviour lives in the class, or in functions of explicit collaborators, never in
    another module's functions written with `self` and bound into its body."""
    found = [f"{module_name(p)}: {what}" for p in sorted(PACKAGE.rglob("*.py"))
             for what in borrowed_methods(p.read_text(encoding="utf-8"))]
    assert found == [], "\n".join(found)


def test_the_borrowed_method_check_sees_both_halves() -> None:
    source = ("from narrator.rules import night as _night\n\n"
              "def begin_night(self: Game) -> None:\n    pass\n\n"
              "class Game:\n    begin_night = _night.begin_night\n    def own(self) -> None:\n        pass\n")
    assert borrowed_methods(source) == ["def begin_night(self, ...)", "Game.begin_night = _night.begin_night"]
    assert borrowed_methods("class Game:\n    def own(self) -> None:\n        pass\n") == []
