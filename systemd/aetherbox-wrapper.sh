#!/bin/sh
# /usr/local/bin/aetherbox: the gadget's command with the service's configuration, so
# `sudo aetherbox catalog import FILE` stores card text where the kiosk reads it.  Run as root, it
# switches to the service's user, so the files it writes stay the service's own.
export AETHERBOX_CONFIG="${AETHERBOX_CONFIG:-/etc/aetherbox/config.toml}"
if [ "$(id -u)" = 0 ]; then
    exec runuser -u aetherbox -- env AETHERBOX_CONFIG="$AETHERBOX_CONFIG" /opt/aetherbox/venv/bin/aetherbox "$@"
fi
exec /opt/aetherbox/venv/bin/aetherbox "$@"
