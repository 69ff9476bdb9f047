"""The state machine drawn as mermaid, from the same table the sequencer runs."""

from __future__ import annotations

from transitions.extensions import GraphMachine

from narrator.flow.sequencer import STATES, transitions_table


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
