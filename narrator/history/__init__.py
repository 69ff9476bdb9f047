"""Game history: every finished or abandoned game in a SQLite database, with statistics."""
