"""The reader side of aetherbox: tag enrolment, a serial monitor, the bridge firmware."""
