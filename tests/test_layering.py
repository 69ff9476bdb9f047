"""The layering of docs/architecture.md#the-layers, read from the imports of the package (every import, at the top
of a module or inside a function): entry points -> adapters -> sequencer (only ports) -> rules
engine and role catalogue (pure). An arrow never runs back up; production code never imports a fake.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "narrator"

# What the pure engine and its catalogue may import.
PURE = ("narrator.rules", "narrator.roles", "narrator.errors", "narrator.ports")
# What the sequencer may import: the engine, the ports, the voice packs' text and the printed words'
# catalogue (narrator.i18n: a line the flow prints, in the table's language). No adapter.
FLOW = (*PURE, "narrator.flow", "narrator.packs", "narrator.i18n")
# The tests' twins: only tests (and the twins themselves) import them.
FAKES = ("narrator.fakes", "narrator.listening.fake")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every narrator module `path` imports; `from narrator.x import y` counts as narrator.x.y
    where y is a module, else as narrator.x."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            base = PACKAGE.parent.joinpath(*node.module.split("."))
            found.update(f"{node.module}.{a.name}" for a in node.names
                         if (base / f"{a.name}.py").is_file() or (base / a.name).is_dir())
    return {name for name in found if name == "narrator" or name.startswith("narrator.")}


MODULES = {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def offending(layer: str, allowed: tuple[str, ...]) -> list[str]:
    return sorted(f"{mod} imports {dep}" for mod, deps in MODULES.items() if within(mod, (layer,))
                  for dep in deps if dep != "narrator" and not within(dep, allowed))


def test_the_imports_were_read() -> None:
    assert "narrator.flow.sequencer" in MODULES and "narrator.rules.game" in MODULES
    assert "narrator.ports" in MODULES["narrator.flow.sequencer"]


@pytest.mark.parametrize("layer", ["narrator.rules", "narrator.roles"])
def test_the_engine_and_the_catalogue_import_nothing_but_themselves_errors_and_ports(layer: str) -> None:
    assert offending(layer, PURE) == []


def test_the_sequencer_imports_no_adapter_and_no_entry_point() -> None:
    """narrator/flow holds the flow: no terminal, clock, journal file, screen, audio, or command line."""
    assert offending("narrator.flow", FLOW) == []


def test_production_code_never_imports_a_fake() -> None:
    users = sorted(f"{mod} imports {dep}" for mod, deps in MODULES.items() if not within(mod, FAKES)
                   for dep in deps if within(dep, FAKES))
    assert users == []


def units() -> dict[str, set[str]]:
    """The import graph between narrator's packages and top-level modules. The engine and its
    catalogue are separate units: the catalogue imports the engine (its registries, in
    narrator/rules/hooks.py), never the other way round."""

    def unit(name: str) -> str:
        return ".".join(name.split(".")[:2])

    graph: dict[str, set[str]] = {}
    for mod, deps in MODULES.items():
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
