"""The five-seat game the command-line tests play in text mode: its setup, and the keys typed."""

from __future__ import annotations

# Short turns: the [timing] table of the game's setup (and of a config.toml playing it).
TIMING = """[timing]
seer = 0.6
werewolves = 0.6
witch = 0.8
gap = 0.05
suspense = 0.05
debate = 5
vote = 2
chain = 2
"""

# Seer at 1, Werewolf at 2, Witch at 3; short lines.
SETUP = f"""
players = 5
roles = {{ 1 = "seer", 2 = "werewolf", 3 = "witch" }}
speech_scale = 0.01
{TIMING}"""

# The deal (seat, Enter) x5; Seer 2; Werewolves 4; Witch: no heal, no poison; Captain votes;
# "v" ends the debate; everyone votes 2.
DEAL = ["1", "", "2", "", "3", "", "4", "", "5", ""]
KEYS = [*DEAL, "2", "4", "-", "0", "1", "1", "1", "1", "v", "2", "2", "2", "2"]
