"""aetherbox's kiosk screen (pygame)."""

import os

# pygame greets on import; the gadget's log is for the gadget.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
