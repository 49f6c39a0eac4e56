"""Enrolling a tag on the spot (HW-3, PC-12, CT-6): an unknown tag tapped on the reader is
offered on the status line, enrolled on the kiosk's own screen with the encoder, the buttons,
touches or typed letters, written to the tag map the way ``aetherbox enroll`` writes it, and then
acted on as if it had been known; cancelling leaves the tag map and the game as they were.  Each
test goes through the kiosk's real inputs: the reader's ``TagRead`` (and a reader on a
pseudo-terminal), GPIO presses and encoder turns, keys and touches."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from scenes import LANGUAGES, SCENES, SIZES, assert_readable, texts

from device.commands import NewGame
from device.inputs import Button, ButtonPressed, EncoderTurned, TagRead
from device.rules.planechase.commands import ReturnPlanarCard
from device.tagmap import TagMap
from device.rules.planechase.state import PlanechaseState
from display.kiosk import Kiosk
from display.screens.enrol import AddLetter, EnrolCancel, EnrolYes, EraseLetter, PickCard
from display.targets import OffscreenTarget
from display.ui import EnrolTag, Type
from drivers.rfid import Reader
from drivers.rfid.line import gone_line, tag_line
from helpers import Pty

MakeKiosk = Callable[..., Kiosk]
UID = "04BEEF01"  # 4 bytes, as the readers report them
SHOWN_UID = "04:BE:EF:01"
ALL_SIZES = (*SIZES, (1920, 1080))


def press(kiosk: Kiosk, button: Button, long: bool = False) -> None:
    kiosk.handle_input(ButtonPressed(button, long=long))
    kiosk.redraw()


def turn(kiosk: Kiosk, steps: int) -> None:
    kiosk.handle_input(EncoderTurned(steps))
    kiosk.redraw()


def touch(kiosk: Kiosk, action: object) -> None:
    target = next(t for t in kiosk.canvas.targets if t.action == action)
    x, y, w, h = target.rect
    kiosk.touch((x + w // 2, y + h // 2))
    kiosk.redraw()


def key(kiosk: Kiosk, k: int, text: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text))
    if text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    kiosk.settle()


def tag_map(tmp_path: Path) -> str:
    return (tmp_path / "tags.txt").read_text(encoding="utf-8")


def commands(kiosk: Kiosk) -> list[str]:
    return [t.command["type"] for t in kiosk.history()]


def awaiting(
    make_kiosk: MakeKiosk, size: tuple[int, int] = (800, 480), language: str = "en"
) -> Kiosk:
    """A Planechase game with physical cards after a planeswalk: the gadget waits for Alice's
    next plane."""
    kiosk = make_kiosk(size, language)
    SCENES["pc-awaiting"](kiosk)
    kiosk.redraw()
    pc = kiosk.state.planechase  # type: ignore[union-attr]
    assert pc is not None and pc.awaiting is not None
    return kiosk


def test_hw3_an_unknown_tag_is_enrolled_with_the_encoder_and_reveals_the_awaited_plane(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """PC-12: a new card's tag, tapped while the gadget waits for a plane: the status offers to
    enrol it; SELECT opens the screen, a held SELECT puts the encoder on the letters (B, then A),
    the encoder picks Bant, SELECT confirms; the tag map gets the line ``aetherbox enroll`` would
    write, and Bant is turned over as if the tag had been known."""
    kiosk = awaiting(make_kiosk)
    before = tag_map(tmp_path)
    history = commands(kiosk)
    kiosk.handle_input(TagRead(UID))
    kiosk.redraw()
    assert texts(kiosk, "status.card") == [f"unknown card — enrol? (tag {SHOWN_UID})"]
    assert texts(kiosk, "status.offer") == ["SELECT: enrol"]
    assert tag_map(tmp_path) == before and commands(kiosk) == history  # an offer, nothing more

    press(kiosk, Button.SELECT)
    assert kiosk.ui.screen == "enrol"
    assert texts(kiosk, "enrol.title") == [f"Which card is tag {SHOWN_UID}?"]
    assert texts(kiosk, "enrol.prefix") == ["A–Z"]
    assert texts(kiosk, "enrol.card")[:2] == [
        "Academy at Tolaria West",
        "Agyrem",
    ]  # planes and phenomena only
    assert set(texts(kiosk, "enrol.card.kind")) <= {"plane", "phenomenon"}

    press(kiosk, Button.SELECT, long=True)  # the encoder on the letters
    turn(kiosk, 1)
    assert texts(kiosk, "enrol.prefix") == ["B"]  # the list shows the B cards as the encoder turns
    assert texts(kiosk, "enrol.card")[:2] == ["Bad Wolf Bay", "Bant"]
    press(kiosk, Button.SELECT)  # B stays; now the second letter
    assert texts(kiosk, "enrol.letter") == ["A", "E", "I", "L", "O"]
    press(kiosk, Button.NEXT)  # A, and back to the cards
    assert texts(kiosk, "enrol.prefix") == ["BA"]
    assert texts(kiosk, "enrol.card") == ["Bad Wolf Bay", "Bant"]
    turn(kiosk, 1)
    press(kiosk, Button.SELECT)
    assert texts(kiosk, "enrol.confirm") == [f"Enrol tag {SHOWN_UID} as Bant?"]
    assert texts(kiosk, "enrol.kind") == ["plane"]
    assert tag_map(tmp_path) == before

    press(kiosk, Button.SELECT)
    assert tag_map(tmp_path) == before + f"{SHOWN_UID}  Bant\n"
    assert TagMap(tmp_path / "tags.txt").lookup(UID).name == "Bant"  # type: ignore[union-attr]
    assert commands(kiosk) == [*history, "RevealPlanarCard"]
    assert kiosk.history()[-1].command["name"] == "Bant"
    pc = kiosk.state.planechase  # type: ignore[union-attr]
    assert pc is not None and pc.awaiting is None and [c.name for c in pc.face_up] == ["Bant"]
    assert kiosk.ui.screen == "planechase"
    assert texts(kiosk, "status.messages") == [
        f"Tag {SHOWN_UID} is Bant from now on. Alice turns over Bant."
    ]
    assert texts(kiosk, "status.card") == []


def test_ct6_an_unknown_contraption_is_enrolled_by_touch(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """CT-6 in a Contraptions game with real cards, by touch alone: the offer's chip, the letters
    A and U, the card, Enrol; only contraptions are offered, and the tap then does what tapping
    Auto-Key does: Alice assembles it and picks its sprocket."""
    kiosk = make_kiosk((480, 320), "en")
    kiosk.execute(
        NewGame(
            formats=("commander", "contraptions"),
            players=("Alice", "Bob", "Carol"),
            first="Alice",
            options={"contraption_cards": "physical"},
        )
    )
    press(kiosk, Button.NEXT)  # Alice's main phase
    history = commands(kiosk)
    kiosk.handle_input(TagRead("04C0DE42"))
    kiosk.redraw()
    touch(kiosk, EnrolTag("04C0DE42"))
    assert kiosk.ui.screen == "enrol"
    assert set(texts(kiosk, "enrol.card.kind")) == {"contraption"}
    touch(kiosk, AddLetter("a"))
    touch(kiosk, AddLetter("u"))
    assert texts(kiosk, "enrol.card") == ["Auto-Key"]
    touch(kiosk, PickCard(0))
    assert texts(kiosk, "enrol.confirm") == ["Enrol tag 04:C0:DE:42 as Auto-Key?"]
    touch(kiosk, EnrolYes())
    assert tag_map(tmp_path).endswith("04:C0:DE:42  Auto-Key\n")
    assert commands(kiosk) == [*history, "IdentifyContraption"]
    assert kiosk.ui.screen == "contraptions"
    assert texts(kiosk, "status.messages") == [
        "Tag 04:C0:DE:42 is Auto-Key from now on. Alice assembles: tap the revealed card from Alice's "
        "contraption deck. Auto-Key for Alice: choose its sprocket."
    ]


def test_hw3_letters_typed_and_stepped_narrow_the_list_and_touch_erases(
    make_kiosk: MakeKiosk,
) -> None:
    """A keyboard types the first letters (letters no card has there are passed over); ←/→ step
    the last letter through the letters cards have (and back to every card); ⌫ and Backspace take
    letters off."""
    kiosk = awaiting(make_kiosk)
    kiosk.handle_input(TagRead(UID))
    press(kiosk, Button.SELECT)
    for letter in "tazq":  # no plane's name goes on "tazq": the q is passed over
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=letter))
    kiosk.settle()
    assert texts(kiosk, "enrol.prefix") == ["TAZ"]
    assert texts(kiosk, "enrol.card") == ["Tazeem"]
    for _ in range(3):
        key(kiosk, pygame.K_BACKSPACE)
    assert texts(kiosk, "enrol.prefix") == ["A–Z"]
    key(kiosk, pygame.K_RIGHT)
    assert texts(kiosk, "enrol.prefix") == ["A"]
    key(kiosk, pygame.K_RIGHT)
    assert texts(kiosk, "enrol.prefix") == ["B"]
    key(kiosk, pygame.K_LEFT)
    key(kiosk, pygame.K_LEFT)
    assert texts(kiosk, "enrol.prefix") == ["A–Z"]
    key(kiosk, pygame.K_LEFT)  # round the end: the last letter any plane starts with
    assert texts(kiosk, "enrol.prefix") == ["Y"]
    touch(kiosk, EraseLetter())
    assert texts(kiosk, "enrol.prefix") == ["A–Z"]
    assert kiosk.ui.screen == "enrol"


@pytest.mark.parametrize("how", ["undo", "escape", "touch", "back then undo"])
def test_hw3_cancel_leaves_the_tag_map_and_the_game_as_they_were(
    make_kiosk: MakeKiosk, tmp_path: Path, how: str
) -> None:
    """UNDO with no letter chosen, Esc, the Cancel chip, or UNDO back from the question and again:
    the tag map file, the game's journal and the screen are as they were; the game's UNDO is not
    pressed meanwhile."""
    kiosk = awaiting(make_kiosk)
    before = tag_map(tmp_path)
    history = [(t.command, t.undone) for t in kiosk.history()]
    kiosk.handle_input(TagRead(UID))
    press(kiosk, Button.SELECT)
    if how == "undo":
        press(kiosk, Button.UNDO)
    elif how == "escape":
        key(kiosk, pygame.K_ESCAPE)
    elif how == "touch":
        touch(kiosk, EnrolCancel())
    else:
        press(kiosk, Button.SELECT)  # the first card: the question
        press(kiosk, Button.UNDO)  # back to the list
        assert kiosk.ui.screen == "enrol" and texts(kiosk, "enrol.confirm") == []
        press(kiosk, Button.UNDO)  # no letter to take off: cancelled
    assert kiosk.ui.screen == "planechase"
    assert tag_map(tmp_path) == before
    assert [(t.command, t.undone) for t in kiosk.history()] == history
    assert kiosk.state.part(PlanechaseState).awaiting is not None
    assert TagMap(tmp_path / "tags.txt").lookup(UID) is None


def test_hw3_a_tag_map_that_cannot_be_written_is_said_and_nothing_changes(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """The tag map's place is not a file that can be written: the reason is shown, the tag stays
    unknown, the game unchanged, and the screen stays so the table can cancel."""
    kiosk = awaiting(make_kiosk)
    (tmp_path / "not-a-file").mkdir()
    kiosk.controller.tags = TagMap(tmp_path / "not-a-file")
    history = commands(kiosk)
    kiosk.handle_input(TagRead(UID))
    press(kiosk, Button.SELECT)
    press(kiosk, Button.SELECT)  # Academy at Tolaria West
    press(kiosk, Button.SELECT)  # Enrol
    assert kiosk.ui.screen == "enrol"
    error = texts(kiosk, "status.error")
    assert len(error) == 1 and error[0].startswith(
        f"Cannot write the tag map {tmp_path / 'not-a-file'} ("
    )
    assert error[0].endswith("); the tag stays unknown.")
    assert commands(kiosk) == history
    assert kiosk.controller.tags.lookup(UID) is None


def test_hw3_a_tag_enrolled_with_no_game_is_only_enrolled(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """With no game, every card is offered, and enrolling says so and nothing else (no refusal)."""
    kiosk = make_kiosk((800, 480), "ru")
    kiosk.handle_input(TagRead(UID))
    press(kiosk, Button.SELECT)
    assert texts(kiosk, "enrol.card")[:2] == ["Academy at Tolaria West", "Accessories to Murder"]
    assert texts(kiosk, "enrol.card.kind")[:2] == [
        "измерение",
        "штуковина",
    ]  # planes and contraptions
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Auto"))
    kiosk.settle()
    assert texts(kiosk, "enrol.card") == ["Auto-Key"]
    press(kiosk, Button.NEXT)
    assert texts(kiosk, "enrol.confirm") == [f"Записать метку {SHOWN_UID} как Auto-Key?"]
    press(kiosk, Button.NEXT)
    assert tag_map(tmp_path).endswith(f"{SHOWN_UID}  Auto-Key\n")
    assert kiosk.ui.screen == "table"
    assert texts(kiosk, "status.messages") == [f"Метка {SHOWN_UID} теперь — Auto-Key."]
    assert texts(kiosk, "status.error") == []


def test_hw2_hw3_a_tag_from_a_reader_on_a_pty_is_enrolled_and_known_at_the_next_tap(
    make_kiosk: MakeKiosk, tmp_path: Path, pty: Pty
) -> None:
    """The real reader driver on a pseudo-terminal (the bridge's line protocol) puts the tap on
    the kiosk's queue; once enrolled, the same tag tapped again is the card at once: the tag
    map took effect without a restart."""
    kiosk = awaiting(make_kiosk)
    reader = Reader(
        kiosk.inputs,
        protocol="line",
        port=pty.path,
        retry_interval=0.1,
        read_timeout=0.02,
        answer_timeout=0.1,
        presence_timeout=0.1,
    )
    reader.start()
    try:
        give_up = time.monotonic() + 3
        while kiosk.ui.reader is None and time.monotonic() < give_up:
            kiosk.settle()
            time.sleep(0.01)
        assert kiosk.ui.reader is not None and kiosk.ui.reader.key == "connected"

        def tapped(uid: str, until: Callable[[], bool]) -> None:
            pty.send(tag_line(uid))
            give_up = time.monotonic() + 3
            while time.monotonic() < give_up:
                kiosk.settle()
                if until():
                    return
                time.sleep(0.01)
            pytest.fail("the tap never reached the kiosk")

        tapped(UID, lambda: bool(texts(kiosk, "status.card")))
        pty.send(gone_line(UID))
        assert texts(kiosk, "status.card") == [f"unknown card — enrol? (tag {SHOWN_UID})"]
        press(kiosk, Button.SELECT)
        for letter in "naya":
            kiosk.dispatch(Type(letter))
        press(kiosk, Button.SELECT)
        press(kiosk, Button.SELECT)
        assert [c.name for c in kiosk.state.part(PlanechaseState).face_up] == ["Naya"]
        kiosk.execute(ReturnPlanarCard(name="Naya"))  # back on top: the gadget waits for it again
        walked = len(kiosk.history())
        time.sleep(0.3)  # the tag has left the reader
        tapped(UID, lambda: len(kiosk.history()) > walked)
        assert [c.name for c in kiosk.state.part(PlanechaseState).face_up] == ["Naya"]
        assert kiosk.history()[-1].command == {"type": "RevealPlanarCard", "name": "Naya"}
        assert texts(kiosk, "status.messages") == ["Alice turns over Naya."]
    finally:
        reader.stop()


def test_a_tapped_card_says_what_it_did_at_once(make_kiosk: MakeKiosk, tmp_path: Path) -> None:
    """A known card tapped: the status is the command's result at once ("Alice turns over
    Naya."), not the card's name; a tap refused shows the reason instead."""
    with (tmp_path / "tags.txt").open("a", encoding="utf-8") as tags:
        tags.write("04C0FFEE  Naya\n")
    kiosk = awaiting(make_kiosk, language="ru")
    kiosk.handle_input(TagRead("04C0FFEE"))
    kiosk.redraw()
    assert texts(kiosk, "status.messages") == ["Alice открывает Naya."]
    assert texts(kiosk, "status.card") == []
    kiosk.handle_input(TagRead("04C0FFEE"))  # Naya again: it is face up already
    kiosk.redraw()
    assert texts(kiosk, "status.card") == []
    assert len(texts(kiosk, "status.error")) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_hw4_the_enrol_screen_cuts_nothing_and_its_targets_are_a_finger_tall(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """At every layout, in every language, in each of the screen's steps: no text cut or below
    ``tiny``, every touch target at least ``touch`` tall."""
    kiosk = awaiting(make_kiosk, SIZES[0], language)
    kiosk.handle_input(TagRead(UID))
    press(kiosk, Button.SELECT)
    steps = [
        lambda: None,
        lambda: press(kiosk, Button.SELECT, long=True),
        lambda: press(kiosk, Button.NEXT),
        lambda: press(kiosk, Button.SELECT),
    ]
    for step in steps:
        step()
        for size in ALL_SIZES:
            kiosk.retarget(OffscreenTarget(size))
            kiosk.redraw()
            assert_readable(kiosk, size)
    assert texts(kiosk, "enrol.confirm")
