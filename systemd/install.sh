#!/usr/bin/env bash
# Install aetherbox on a Raspberry Pi (Raspberry Pi OS Lite, bookworm or newer) so the kiosk
# starts at boot on the console.  Run it from the source tree, once:
#
#   sudo systemd/install.sh                 install or update (safe to run again)
#   sudo systemd/install.sh --uninstall     remove what it added, keep the saved games
#   sudo systemd/install.sh --uninstall --purge   … and the saved games, config and user
#
#   --dry-run     print every step instead of doing it
#   --root DIR    install the files under DIR instead of / (image building, tests); steps that
#                 change the running system (apt-get, users, the venv, systemctl, udevadm) are
#                 then printed, not run
set -euo pipefail

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

ROOT=/
DRY_RUN=0
UNINSTALL=0
PURGE=0
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT="${2:?--root needs a directory}"; shift 2 ;;
        --root=*) ROOT="${1#--root=}"; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --uninstall) UNINSTALL=1; shift ;;
        --purge) PURGE=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: error: unknown option '$1'" >&2; usage >&2; exit 1 ;;
    esac
done
if [ "$PURGE" = 1 ] && [ "$UNINSTALL" = 0 ]; then
    echo "install.sh: error: --purge goes with --uninstall" >&2
    exit 1
fi
ROOT="${ROOT%/}"  # "" for the real system, so "$ROOT/etc" is "/etc"
if [ -n "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ ! -d "$ROOT" ]; then
    echo "install.sh: error: --root $ROOT: no such directory" >&2
    exit 1
fi
if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: error: run it as root: sudo $0 $*" >&2
    exit 1
fi

USER_NAME=aetherbox
PREFIX=/opt/aetherbox
VENV=$PREFIX/venv
STATE=/var/lib/aetherbox
CONFIG_DIR=/etc/aetherbox
UNIT=/etc/systemd/system/aetherbox.service
UDEV_RULE=/etc/udev/rules.d/70-aetherbox-reader.rules
SYSUSERS=/etc/sysusers.d/aetherbox.conf
WATCHDOG=/etc/systemd/system.conf.d/aetherbox-watchdog.conf
WRAPPER=/usr/local/bin/aetherbox

say() { printf '%s\n' "$*"; }

# A step that changes the running system: printed in a dry run or under --root.
system() {
    if [ "$DRY_RUN" = 1 ] || [ -n "$ROOT" ]; then
        say "would run: $*"
    else
        say "+ $*"
        "$@"
    fi
}

# A step on files under $ROOT: printed in a dry run.
files() {
    if [ "$DRY_RUN" = 1 ]; then
        say "would run: $*"
    else
        "$@"
    fi
}

put() {  # put MODE SOURCE TARGET: install one file if it differs
    local mode=$1 source=$2 target=$ROOT$3
    if [ -f "$target" ] && cmp -s "$source" "$target"; then
        say "unchanged: $3"
        return
    fi
    say "install: $3"
    files install -D -m "$mode" "$source" "$target"
}

remove() {  # remove PATH…: files and folders under $ROOT, if there
    local path
    for path in "$@"; do
        if [ -e "$ROOT$path" ] || [ -L "$ROOT$path" ]; then
            say "remove: $path"
            files rm -rf -- "$ROOT$path"
        fi
    done
}

install_all() {
    [ -f "$SOURCE/pyproject.toml" ] || { echo "install.sh: error: $SOURCE is not the aetherbox source tree" >&2; exit 1; }
    # lgpio comes from the OS: its Python module is built for the Pi's kernel and gpiochips.
    system apt-get install -y --no-install-recommends python3-venv python3-lgpio python3-pip
    put 0644 "$SOURCE/systemd/aetherbox.sysusers.conf" "$SYSUSERS"
    system systemd-sysusers "$SYSUSERS"
    if [ ! -x "$ROOT$VENV/bin/python" ]; then
        # --system-site-packages: the venv sees the OS's lgpio (gpiozero's backend on a Pi 5).
        system python3 -m venv --system-site-packages "$VENV"
    fi
    system "$VENV/bin/pip" install --upgrade "${SOURCE}[pi]"
    put 0644 "$SOURCE/README.md" "$PREFIX/README.md"
    if [ -e "$ROOT$CONFIG_DIR/config.toml" ]; then
        say "kept: $CONFIG_DIR/config.toml (yours to edit)"
    else
        say "install: $CONFIG_DIR/config.toml"
        files install -d -m 0755 "$ROOT$CONFIG_DIR"
        if [ "$DRY_RUN" = 0 ]; then
            cat > "$ROOT$CONFIG_DIR/config.toml" <<CONFIG
# aetherbox configuration; see $PREFIX/README.md. Every key is optional.
data_dir = "$STATE"
# language = "en"                  # en, ru, ja, pl
CONFIG
        fi
    fi
    put 0755 "$SOURCE/systemd/aetherbox-wrapper.sh" "$WRAPPER"
    put 0644 "$SOURCE/systemd/aetherbox.service" "$UNIT"
    put 0644 "$SOURCE/systemd/70-aetherbox-reader.rules" "$UDEV_RULE"
    put 0644 "$SOURCE/systemd/watchdog.conf" "$WATCHDOG"
    system systemctl daemon-reload
    system udevadm control --reload
    system udevadm trigger --subsystem-match=tty --action=add
    system systemctl enable aetherbox.service
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(systemctl get-default)" = graphical.target ]; then
        say "note: this Pi boots to a desktop, which holds the screen. For the kiosk, boot to the"
        say "      console: sudo systemctl set-default multi-user.target && sudo reboot"
    fi
    system systemctl restart aetherbox.service
    say "aetherbox is installed: it starts at boot on the screen. Logs: journalctl -u aetherbox"
}

uninstall_all() {
    system systemctl disable --now aetherbox.service
    remove "$UNIT" "$UDEV_RULE" "$WATCHDOG" "$WRAPPER" "$PREFIX"
    system systemctl daemon-reload
    system udevadm control --reload
    if [ "$PURGE" = 1 ]; then
        remove "$STATE" "$CONFIG_DIR" "$SYSUSERS"
        if [ -n "$ROOT" ] || [ "$DRY_RUN" = 1 ] || getent passwd "$USER_NAME" >/dev/null; then
            system userdel "$USER_NAME"
        fi
        say "aetherbox is removed, with its saved games and configuration."
    else
        say "aetherbox is removed. Kept: the saved games in $STATE, $CONFIG_DIR and the user"
        say "'$USER_NAME' (remove them with --uninstall --purge)."
    fi
}

if [ "$UNINSTALL" = 1 ]; then
    uninstall_all
else
    install_all
fi
