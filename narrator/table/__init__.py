"""The table: setup wizard, config, full-screen board, dealing, assist, demo and doctor."""
