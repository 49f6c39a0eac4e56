"""Opening the reader a command line names: ``--reader SPEC`` of ``aetherbox console`` and
``--port`` / ``--fake`` of ``aetherbox enroll``."""

from __future__ import annotations

from device.config import Config
from device.inputs import InputQueue
from drivers.rfid import TagReader, make_reader


def open_reader(
    spec: str, config: Config, inputs: InputQueue, protocol: str | None = None
) -> TagReader:
    """The reader ``--reader SPEC`` names: ``auto`` (the configured port, else the first known
    USB-serial chip), ``fake``, or a port.  The protocol (unless given) and the presence
    timeout come from the configuration's ``[reader]``."""
    settings = config.reader
    if spec == "fake":
        return make_reader(inputs, protocol="fake")
    port = settings.port if spec == "auto" else spec
    options: dict[str, float] = {}
    if settings.presence_timeout is not None:
        options["presence_timeout"] = settings.presence_timeout
    return make_reader(inputs, protocol=protocol or settings.protocol, port=port, **options)
