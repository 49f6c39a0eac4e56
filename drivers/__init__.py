"""aetherbox's input and output hardware: buttons, encoder, buzzer, keyboard, RFID readers."""
