"""aetherbox's kiosk screen (pygame)."""

import os

# pygame greets on import; the gadget's log is for the gadget.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# SDL would catch SIGTERM and SIGINT as soon as its video starts, even an attempt that fails, and
# turn them into a quit event that nobody reads while the kiosk waits for a screen: the service
# manager's stop would then wait out its timeout.  The kiosk stops on them itself
# (display.app.stopping_on_signals), in every state.
os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
