"""The flow: the sequencer (when each line is said, whom the game waits for and for how long), the
setup and script files, the timing, and running one game. It speaks to the world only through
narrator/ports.py: the adapters (screens, speech, listening, clocks, journals) live elsewhere."""
