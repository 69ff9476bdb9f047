"""Speech out: voice lines rendered ahead by pyttsx3, played by one stream over an ambience bed."""
