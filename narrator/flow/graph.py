"""The table's steps drawn as mermaid, from the same rows the sequencer reads (narrator/flow/machine.py)."""

from __future__ import annotations

from transitions.extensions import GraphMachine

from narrator.flow.machine import STATES, transitions_table


class _Model:
    """Conditions are drawn, not evaluated, so a bare model is enough."""


def mermaid() -> str:
    machine = GraphMachine(
        model=_Model(),
        states=list(STATES),
        transitions=transitions_table(),
        initial="setup",
        auto_transitions=False,
        graph_engine="mermaid",
        show_conditions=True,
        title="narrator",
    )
    return str(machine.get_graph().draw(None))


_INTRO = """\
# The state machine

This page is generated: `narrator graph --page > docs/state-machine.md` (the test
`tests/flow/test_graph.py::test_docs_page_is_what_the_generator_makes` fails when it is stale).

The order of the table's steps is a plain table of rows (from, to, condition) read top to bottom
(`narrator/flow/machine.py`): from a step, the first row whose condition holds is taken. Every
condition is a question asked of the engine, which owns the game's state
([architecture.md](architecture.md#what-the-state-machine-owns)); the night's rows come from the
role catalogue. A role is one module, `narrator/roles/<role>.py`: its card (team, pack, copies,
box), its night calls (place in the night order of [the rules specification](rules-spec.md#night-order),
schedule, legal choices with "nobody" where allowed, panel and line keys, turn length), its powers
(checked by `Game.use_power`) and its hooks into the engine's steps (narrator/rules/view.py's
`Hooks`). The sequencer runs one generic night call for every declaration.
How one input travels through it: [architecture.md](architecture.md#one-input-from-key-to-speech).

## The night order

From the catalogue (`narrator.roles.night_order_table()`); a call is made every night it is
scheduled for whenever its role is possible in the game, dealt or not, alive or not
([secrecy.md](secrecy.md)):
"""


def page() -> str:
    """docs/state-machine.md: the night order and the machine, both drawn from the code."""
    from narrator.roles import night_order_table

    return (f"{_INTRO}\n```\n{night_order_table()}\n```\n\n## The machine\n\n"
            f"`narrator graph` prints it (mermaid):\n\n```mermaid\n{mermaid().rstrip()}\n```\n")
