"""What the status line says: a query on the UI state (and the fonts' notices), asked by the
frame that draws it and by the inputs that act on it (SELECT takes up its offer, a tap on it
shows its texts whole) alike.

Which of the kiosk's lines shows is decided here by priority; how the text is laid out on the
screen (its lines, its pages) is the renderer's.
"""

from __future__ import annotations

import math
from collections.abc import Collection

from msgspec import Struct

from display import theme
from display.canvas import Canvas
from display.fonts import Color, Fonts
from display.i18n import Translator
from display.ui import Action, UiState


class Status(Struct, frozen=True):
    """What the status line says now (by priority: a refusal, a card read or an unknown tag's
    enrol offer, what the last command did, a missing font), its colour and drawing role, and
    what it offers (a chip and SELECT)."""

    text: str
    color: Color
    role: str
    offer: Action | None = None
    offer_label: str = ""


def status_text(ui: UiState, fonts_notice: str, now: float) -> Status:
    """The status line's text, colour, role and offer, by priority."""
    if ui.error is not None and ui.error.live(now):
        return Status(ui.words(ui.error.text), theme.ERROR, "status.error")
    if ui.card is not None and ui.card.live(now):
        return Status(
            ui.words(ui.card.text),
            theme.WARN,
            "status.card",
            ui.card.offer,
            ui.words(ui.card.offer_label),
        )
    if ui.messages:
        return Status(" ".join(ui.messages), theme.TEXT, "status.messages")
    if fonts_notice:
        return Status(fonts_notice, theme.WARN, "status.font")
    return Status("", theme.DIM, "status.empty")


def fonts_notice(canvas: Canvas, tr: Translator, missing: Collection[str]) -> str:
    """What the status line says about fonts: a character no font has, while a text that needs
    it is on the screen (``missing``), else a problem with the configured or bundled fonts."""
    notices = canvas.fonts.notices
    if missing:
        return tr(
            "ui.font_missing",
            chars=" ".join(drawable(canvas.fonts, char) for char in sorted(missing)),
        )
    return tr(notices[-1][0], **notices[-1][1]) if notices else ""


def drawable(fonts: Fonts, char: str) -> str:
    """A character the notice names, as it can be drawn: its code point ("U+6F22"), and the
    character itself before it where the status line's font has it (a bold face may lack it)."""
    point = f"U+{ord(char):04X}"
    return f"{char} ({point})" if fonts.has(char) else point


def status_now(canvas: Canvas, ui: UiState, tr: Translator, now: float) -> Status:
    """The status as the last frame showed it (what SELECT and a tap on it act on)."""
    return status_text(ui, fonts_notice(canvas, tr, canvas.fonts.shown_missing), now)


#: The status line takes at most two lines of the screen above; a longer text turns its pages
#: every ``STATUS_PAGE_SECONDS`` (and a tap on it shows it whole).
STATUS_LINES = 2
STATUS_PAGE_SECONDS = 4.0


def status_deadline(ui: UiState, now: float) -> float | None:
    """When the status line turns to its next page, while its text has more than one."""
    if ui.status_pages <= 1:
        return None
    since = ui.status_seen[1]
    return since + STATUS_PAGE_SECONDS * (
        math.floor(max(0.0, now - since) / STATUS_PAGE_SECONDS) + 1
    )


def status_since(ui: UiState, text: str, now: float) -> float:
    """Since when the status line has shown ``text`` (its pages turn from then): since the frame
    that first showed it, or ``now`` for a text not shown yet."""
    seen, since = ui.status_seen
    return since if seen == text else now


def offer(ui: UiState, now: float) -> Action | None:
    """What the status line offers now (an unknown tag: enrol it), which SELECT takes up: the
    card line's offer, while no refusal stands in front of it."""
    if ui.error is not None and ui.error.live(now):
        return None
    if ui.card is not None and ui.card.live(now):
        return ui.card.offer
    return None


def open_texts(canvas: Canvas, ui: UiState, tr: Translator, now: float) -> tuple[str, ...]:
    """The status line's texts shown whole over the screen (a tap on the status line): what it
    says and the reader's line."""
    status = status_now(canvas, ui, tr, now)
    reader = ui.words(ui.reader.text) if ui.reader is not None else ""
    return tuple(text for text in (status.text, reader) if text)
