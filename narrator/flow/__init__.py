"""The sequencer: when each line is said, whom the game waits for and for how long."""
