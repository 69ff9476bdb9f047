"""The table: its commands (play, resume, assist, demo, doctor, rules), setup wizard, config, the
screens (full-screen board, text mode), dealing."""
