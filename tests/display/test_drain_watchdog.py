"""HW-5 with an event's broker: a backlog of thousands of broker messages is handled without
starving systemd's watchdog — by the loop a slice at a time (tests/display/test_event_screen.py),
and when a screen comes back after a wait and the news queued meanwhile is handled at once."""

from __future__ import annotations

import time
from collections.abc import Callable

from scenes_event import drawn, linked
from test_app_retry import Recorder

from device.inputs import BrokerMessage, ButtonPressed, Button
from device.notify import Watchdog
from display.kiosk import Kiosk


def test_hw5_news_queued_while_the_screen_was_away_is_handled_feeding_the_watchdog(
    make_kiosk: Callable[..., Kiosk],
) -> None:
    k = make_kiosk((480, 320), "en", clock=time.monotonic)
    broker = linked(k)
    plan = drawn(broker)
    k.settle()
    group = next(a for a in plan.groups if a.table == "table3")
    flood = 5_000
    for index in range(flood):
        k.inputs.put(
            BrokerMessage(
                f"aetherbox/tables/table3/events/spring/{group.pod}/1/{group.group}/{index:08x}",
                b"{}",
                retained=True,
            )
        )
    k.inputs.put(ButtonPressed(Button.ROLL))  # pressed while there was no screen: dropped
    notifier = Recorder()
    k.watchdog = Watchdog(notifier, interval=0.02)
    started = time.monotonic()
    assert k.drop_blind_inputs() == 1
    took = time.monotonic() - started
    assert k.inputs.empty()
    # Pinged as the work went on, not only before it (without a tick inside, there are none).
    assert took > 0.03 and notifier.sent.count("WATCHDOG=1") >= 2, (took, notifier.sent)
