"""HW-1: bounce must never roll twice.  The debouncer and press classifier on explicit traces."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.inputs import Button, ButtonPressed
from drivers.debounce import Debouncer, PressClassifier, PressTiming, Settled

MS = 0.001
ROLL = ButtonPressed(Button.ROLL)
LONG_ROLL = ButtonPressed(Button.ROLL, long=True)

Trace = list[tuple[float, bool]]


def run(
    classifier: PressClassifier, trace: Iterable[tuple[float, bool]], *, until: float
) -> list[ButtonPressed]:
    """Drive ``classifier`` as the GPIO driver does: edges as they come, polls at deadlines."""
    events: list[ButtonPressed] = []
    for t, level in trace:
        events += catch_up(classifier, t)
        events += classifier.edge(t, level)
    events += catch_up(classifier, until)
    events += classifier.poll(until)
    return events


def catch_up(classifier: PressClassifier, t: float) -> list[ButtonPressed]:
    events: list[ButtonPressed] = []
    while (deadline := classifier.next_deadline()) is not None and deadline < t:
        events += classifier.poll(deadline)
    return events


def burst(start: float, gaps_ms: Iterable[float], first: bool) -> Trace:
    """Edges alternating from ``first``, ``gaps_ms`` apart."""
    trace, t, level = [(start, first)], start, first
    for gap in gaps_ms:
        t += gap * MS
        level = not level
        trace.append((t, level))
    return trace


# -- the debouncer ------------------------------------------------------------------------------


def test_hw1_debouncer_bouncing_press_settles_once_at_end_of_window() -> None:
    debouncer = Debouncer(20 * MS)
    trace = burst(1.0, [1, 2, 1, 3], first=True)  # ends down at 1.007
    assert [debouncer.feed(t, level) for t, level in trace] == [None] * 5
    assert debouncer.level is False
    assert debouncer.next_deadline() == pytest.approx(1.027)
    assert debouncer.poll(1.026) is None
    settled = debouncer.poll(1.027)
    assert settled is not None
    assert settled.level is True
    assert settled.since == pytest.approx(1.007)
    assert debouncer.level is True
    assert debouncer.next_deadline() is None
    assert debouncer.poll(5.0) is None


def test_hw1_debouncer_glitch_shorter_than_window_is_nothing() -> None:
    debouncer = Debouncer(20 * MS)
    assert debouncer.feed(1.0, True) is None
    assert debouncer.feed(1.019, False) is None
    assert debouncer.next_deadline() is None
    assert debouncer.poll(10.0) is None
    assert debouncer.level is False


def test_hw1_debouncer_level_held_for_exactly_the_window_counts() -> None:
    debouncer = Debouncer(0.02)
    debouncer.feed(0.1, True)
    deadline = debouncer.next_deadline()
    assert deadline is not None
    assert debouncer.poll(deadline) == Settled(True, 0.1)


def test_debouncer_next_edge_reports_what_settled_before_it() -> None:
    debouncer = Debouncer(0.02)
    debouncer.feed(1.0, True)
    assert debouncer.feed(1.5, False) == Settled(True, 1.0)
    assert debouncer.level is True
    assert debouncer.pending_since == 1.5


def test_debouncer_repeated_level_does_not_restart_the_window() -> None:
    debouncer = Debouncer(0.02)
    debouncer.feed(1.0, True)
    debouncer.feed(1.015, True)
    assert debouncer.poll(1.02) == Settled(True, 1.0)


def test_debouncer_time_running_backwards_is_clamped() -> None:
    debouncer = Debouncer(0.02)
    debouncer.feed(1.0, True)
    debouncer.feed(0.5, False)  # taken as 1.0: the glitch lasted no time at all
    assert debouncer.next_deadline() is None
    assert debouncer.poll(2.0) is None
    assert debouncer.level is False


def test_debouncer_window_must_be_positive() -> None:
    with pytest.raises(ValueError) as info:
        Debouncer(0)
    assert str(info.value) == "debounce window must be a positive number of seconds, not 0"


# -- short and long presses ------------------------------------------------------------------------


def test_hw1_bouncing_roll_press_is_one_press() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=0.8))
    press = burst(1.0, [0.3, 1, 0.5, 4], first=True)  # ends down at ~1.006
    release = burst(1.3, [0.2, 3, 1, 8], first=False)  # ends up at ~1.312
    assert run(classifier, press + release, until=3.0) == [ROLL]


def test_hw1_release_bounce_long_after_a_lockout_would_expire_is_not_a_press() -> None:
    # A lockout debouncer re-arms after its window and reads late release chatter as a press.
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=None))
    trace = [(1.0, True), (1.2, False), (1.205, True), (1.215, False)]
    trace += [(1.232, True), (1.245, False)]
    assert run(classifier, trace, until=2.0) == [ROLL]


def test_hw1_glitch_shorter_than_window_is_no_press() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS))
    trace = burst(1.0, [2, 3, 19], first=True)  # down for 19 ms at most, then up
    assert run(classifier, trace, until=3.0) == []


def test_hw1_press_that_bounces_then_stays_down_is_reported_without_another_edge() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=0.8))
    for t, level in burst(1.0, [1, 1, 1, 1], first=True):  # ends down at 1.004
        assert classifier.edge(t, level) == []
    assert classifier.next_deadline() == pytest.approx(1.024)
    assert classifier.poll(1.024) == []
    assert classifier.pressed
    assert classifier.next_deadline() == pytest.approx(1.804)
    assert classifier.poll(1.804) == [LONG_ROLL]
    assert classifier.next_deadline() is None


def test_hw1_long_press_is_reported_once_while_held_and_not_again_on_release() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=0.8))
    assert run(classifier, [(1.0, True)], until=1.81) == [LONG_ROLL]
    assert run(classifier, burst(5.0, [1, 2], first=False), until=9.0) == []


def test_hw1_press_released_just_before_hold_time_is_short() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=0.8))
    assert run(classifier, [(1.0, True), (1.799, False)], until=3.0) == [ROLL]


def test_hw1_press_released_at_hold_time_is_long() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=0.0625, hold_time=0.5))
    assert run(classifier, [(1.0, True), (1.5, False)], until=3.0) == [LONG_ROLL]


def test_hw1_unsettled_release_before_hold_time_holds_back_the_long_press() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=0.8))
    assert run(classifier, [(1.0, True), (1.79, False)], until=1.795) == []
    # The release might still be a glitch, so nothing may fire at 1.8 ...
    assert classifier.next_deadline() == pytest.approx(1.81)
    assert classifier.poll(1.805) == []
    # ... and it was a real release: a short press, never a long one.
    assert classifier.poll(1.81) == [ROLL]


def test_hw1_glitch_during_hold_neither_releases_nor_restarts_the_hold() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=0.8))
    trace = [(1.0, True), (1.79, False), (1.805, True)]  # 15 ms open across the hold time
    assert run(classifier, trace, until=1.805) == [LONG_ROLL]
    assert run(classifier, [(2.5, False)], until=3.0) == []


def test_hw1_late_poll_still_classifies_by_when_things_happened() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS, hold_time=0.8))
    classifier.edge(1.0, True)
    classifier.edge(1.3, False)
    assert classifier.poll(60.0) == [ROLL]


def test_button_pressed_at_start_reports_nothing_until_pressed_again() -> None:
    classifier = PressClassifier(Button.ROLL, PressTiming(window=20 * MS), pressed=True)
    assert run(classifier, [(1.0, False)], until=2.0) == []
    assert run(classifier, [(3.0, True), (3.2, False)], until=4.0) == [ROLL]


def test_without_hold_time_every_press_is_short() -> None:
    classifier = PressClassifier(Button.NEXT, PressTiming(window=20 * MS, hold_time=None))
    assert run(classifier, [(1.0, True), (9.0, False)], until=10.0) == [ButtonPressed(Button.NEXT)]


# -- auto-repeat --------------------------------------------------------------------------------


def repeating() -> PressClassifier:
    return PressClassifier(
        Button.UNDO,
        PressTiming(window=20 * MS, hold_time=None, repeat_delay=0.5, repeat_interval=0.15),
    )


def test_hw1_repeat_reports_press_at_once_then_repeats_after_delay() -> None:
    classifier = repeating()
    press = burst(1.0, [1, 1], first=True)
    assert run(classifier, press, until=1.022) == [ButtonPressed(Button.UNDO)]
    assert run(classifier, [], until=1.5) == []
    assert run(classifier, [], until=1.502) == [ButtonPressed(Button.UNDO, repeat=1)]
    assert run(classifier, [], until=1.8021) == [
        ButtonPressed(Button.UNDO, repeat=2),
        ButtonPressed(Button.UNDO, repeat=3),
    ]
    assert run(classifier, burst(1.85, [2, 2], first=False), until=3.0) == []


def test_hw1_repeat_stops_at_release_even_when_polled_late() -> None:
    classifier = repeating()
    events = classifier.edge(1.0, True) + classifier.edge(1.7, False)  # due at 1.5 and 1.65
    assert events + classifier.poll(30.0) == [
        ButtonPressed(Button.UNDO),
        ButtonPressed(Button.UNDO, repeat=1),
        ButtonPressed(Button.UNDO, repeat=2),
    ]


def test_press_timing_refuses_both_long_press_and_repeat() -> None:
    with pytest.raises(ValueError) as info:
        PressTiming(hold_time=0.8, repeat_delay=0.5)
    assert str(info.value) == (
        "a button either long-presses or auto-repeats: "
        "set hold_time=None to auto-repeat, or repeat_delay=None to long-press"
    )


def test_press_timing_hold_must_outlast_the_window() -> None:
    with pytest.raises(ValueError) as info:
        PressTiming(window=0.05, hold_time=0.05)
    assert str(info.value) == "hold_time 0.05 must be longer than the debounce window 0.05"


# -- generated traces -----------------------------------------------------------------------------

WINDOW_US = 20_000


def bounce_gaps(max_edges: int = 12) -> st.SearchStrategy[list[int]]:
    """An even number of gaps (microseconds), each shorter than the window."""
    return st.lists(st.integers(1, WINDOW_US - 1), max_size=max_edges).map(
        lambda gaps: gaps[: len(gaps) // 2 * 2]
    )


@st.composite
def one_press(draw: st.DrawFn) -> tuple[Trace, float, float]:
    """A press and a release, each with a bounce burst.

    Returns the trace, when the contact came down for good and when it opened for good.  Every
    bounce is shorter than the window, so the debounced contact is down between those two
    times: an opening in the release burst that closes again within the window is
    indistinguishable from a glitch during the hold.
    """
    t = draw(st.integers(0, 10_000_000))
    trace: Trace = []
    level = True
    trace.append((t / 1e6, level))
    for gap in draw(bounce_gaps()):
        t += gap
        level = not level
        trace.append((t / 1e6, level))
    pressed_at = t / 1e6
    # One microsecond over the window keeps float rounding away from the boundary.
    t += draw(st.integers(WINDOW_US + 1, 3_000_000))
    level = False
    trace.append((t / 1e6, level))
    for gap in draw(bounce_gaps()):
        t += gap
        level = not level
        trace.append((t / 1e6, level))
    return trace, pressed_at, t / 1e6


@settings(max_examples=300, deadline=None)
@given(one_press())
def test_hw1_every_bouncing_trace_of_one_press_is_exactly_one_press(
    case: tuple[Trace, float, float],
) -> None:
    trace, pressed_at, released_at = case
    classifier = PressClassifier(Button.ROLL, PressTiming(window=WINDOW_US / 1e6, hold_time=0.8))
    events = run(classifier, trace, until=trace[-1][0] + 1.0)
    assert events == [LONG_ROLL if pressed_at + 0.8 <= released_at else ROLL]


@settings(max_examples=200, deadline=None)
@given(one_press(), st.lists(st.integers(0, 14_000_000), max_size=20))
def test_hw1_when_the_driver_polls_does_not_change_what_is_reported(
    case: tuple[Trace, float, float], extra_polls_us: list[int]
) -> None:
    trace, _, _ = case
    timing = PressTiming(window=WINDOW_US / 1e6, hold_time=0.8)
    end = trace[-1][0] + 1.0
    reference = run(PressClassifier(Button.ROLL, timing), trace, until=end)

    lazy = PressClassifier(Button.ROLL, timing)
    events: list[ButtonPressed] = []
    polls = sorted(p / 1e6 for p in extra_polls_us)
    for t, level in trace:
        while polls and polls[0] < t:
            events += lazy.poll(polls.pop(0))
        events += lazy.edge(t, level)
    events += lazy.poll(end)
    assert events == reference


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1_000_000), bounce_gaps(max_edges=30))
def test_hw1_bounce_that_never_holds_for_the_window_is_no_press(
    start: int, gaps: list[int]
) -> None:
    trace = burst(start / 1e6, [g / 1000 for g in [*gaps, WINDOW_US - 1]], first=True)
    classifier = PressClassifier(Button.ROLL, PressTiming(window=WINDOW_US / 1e6))
    assert run(classifier, trace, until=trace[-1][0] + 5.0) == []


@settings(max_examples=100, deadline=None)
@given(one_press())
def test_hw1_repeat_trace_is_one_press_then_a_repeat_per_interval_held(
    case: tuple[Trace, float, float],
) -> None:
    trace, pressed_at, released_at = case
    timing = PressTiming(
        window=WINDOW_US / 1e6, hold_time=None, repeat_delay=0.5, repeat_interval=0.15
    )
    events = run(PressClassifier(Button.UNDO, timing), trace, until=trace[-1][0] + 1.0)
    repeats = 0
    while pressed_at + 0.5 + repeats * 0.15 <= released_at:
        repeats += 1
    assert events == [ButtonPressed(Button.UNDO, repeat=n) for n in range(repeats + 1)]
