"""aetherbox's kiosk screen (pygame)."""
