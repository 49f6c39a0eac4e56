#!/bin/sh
# /usr/local/bin/aetherbox: the gadget's command with the service's configuration, so
# `sudo aetherbox catalog import FILE` stores card text where the kiosk reads it.  Run as root, it
# switches to the service's user, so the files it writes stay the service's own.
export AETHERBOX_CONFIG="${AETHERBOX_CONFIG:-/etc/aetherbox/config.toml}"
STATE=/var/lib/aetherbox
if [ "$(id -u)" != 0 ]; then
    if [ -d "$STATE" ] && ! [ -w "$STATE" ]; then
        echo "aetherbox: error: the gadget's saved games and card text in $STATE are the service's own:" >&2
        echo "  run it with sudo: sudo aetherbox $*" >&2
        exit 1
    fi
    exec /opt/aetherbox/venv/bin/aetherbox "$@"
fi
for word in "$@"; do
    if [ "$word" = console ] && systemctl is-active --quiet aetherbox.service 2>/dev/null; then
        echo "aetherbox: error: the kiosk (aetherbox.service) is playing the saved games; to play at the console," >&2
        echo "  stop it first: sudo systemctl stop aetherbox   (and afterwards: sudo systemctl start aetherbox)" >&2
        exit 1
    fi
done
exec runuser -u aetherbox -- env AETHERBOX_CONFIG="$AETHERBOX_CONFIG" /opt/aetherbox/venv/bin/aetherbox "$@"
