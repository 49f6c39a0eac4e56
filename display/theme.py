"""Colours: light type on a dark table, one accent for "your turn", red only for trouble."""

from __future__ import annotations

BG = (16, 18, 26)
PANEL = (34, 38, 54)
PANEL_HI = (48, 54, 76)
ACTIVE = (28, 96, 64)
ACTIVE_EDGE = (90, 220, 140)
CURSOR = (250, 200, 60)
TEXT = (236, 236, 242)
DIM = (150, 156, 174)
FAINT = (96, 100, 116)
ERROR = (240, 90, 84)
ERROR_BG = (70, 22, 24)
WARN = (250, 180, 70)
LOST_BG = (30, 30, 34)
BANNER = (22, 60, 44)
ART = (26, 29, 42)  # an art box with no art yet
BADGE = (18, 20, 30)  # under a counter's number on a seat tile
BUTTON = (52, 58, 82)
BUTTON_HI = (70, 110, 170)
CHAOS = (200, 90, 220)
WALK = (90, 170, 250)
