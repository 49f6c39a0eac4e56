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
#                 change the running system (apt-get, users, groups, the venv, systemctl,
#                 udevadm, mosquitto_passwd) are then printed, not run
#   --no-card-text  do not fetch the card text and pictures (sudo aetherbox catalog fetch later)
#   --broker [N]  also make this Pi the broker of Conspiracy events across tables (the
#                 organiser's): mosquitto with systemd/mosquitto-aetherbox.*, a login for the
#                 organiser and for table1..tableN (default 4), their passwords in
#                 /etc/aetherbox/broker-logins.txt (kept; run again with a larger N to add tables),
#                 and the event's certificate authority /etc/aetherbox/broker-ca.crt (kept; each
#                 table gets a copy) with the broker's TLS certificate (made again when this Pi's
#                 name or addresses changed)
#
# It needs a 64-bit OS (arm64): pygame-ce has no wheel for 32-bit ARM (armhf).  Where systemd is
# not running (a chroot, an image being built) the service is enabled but not started.  It is
# online anyway (apt, pip), so it also fetches the card text and pictures from Scryfall.
set -euo pipefail

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }

ROOT=/
DRY_RUN=0
UNINSTALL=0
PURGE=0
BROKER=0
CARD_TEXT=1
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT="${2:?--root needs a directory}"; shift 2 ;;
        --root=*) ROOT="${1#--root=}"; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --uninstall) UNINSTALL=1; shift ;;
        --purge) PURGE=1; shift ;;
        --no-card-text) CARD_TEXT=0; shift ;;
        --broker)
            BROKER=4
            if [ $# -gt 1 ] && [[ "$2" =~ ^[0-9]+$ ]]; then BROKER=$2; shift; fi
            shift ;;
        --broker=*) BROKER="${1#--broker=}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: error: unknown option '$1'" >&2; usage >&2; exit 1 ;;
    esac
done
if [ "$PURGE" = 1 ] && [ "$UNINSTALL" = 0 ]; then
    echo "install.sh: error: --purge goes with --uninstall" >&2
    exit 1
fi
if ! [[ "$BROKER" =~ ^[0-9]+$ ]] || [ "$BROKER" -gt 64 ]; then
    echo "install.sh: error: --broker takes the number of tables, 1 to 64 (got '$BROKER')" >&2
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
GPIO_RULE=/etc/udev/rules.d/71-aetherbox-gpio.rules
FB_DROPIN=/etc/systemd/system/aetherbox.service.d/framebuffer.conf
EVENT_DROPIN=/etc/systemd/system/aetherbox.service.d/event.conf
EVENT_FIREWALL=/usr/local/lib/aetherbox/event-firewall
BROKER_CONF=/etc/mosquitto/conf.d/aetherbox.conf
BROKER_ACL=/etc/mosquitto/aetherbox.acl
BROKER_PASSWD=/etc/mosquitto/aetherbox.passwd
BROKER_LOGINS=$CONFIG_DIR/broker-logins.txt
# The event's certificate authority: its certificate is what every table is given (at the same
# path there), its key (root's alone) signs the broker's certificate and never leaves this Pi.
BROKER_CA=$CONFIG_DIR/broker-ca.crt
BROKER_CA_KEY=$CONFIG_DIR/broker-ca.key
BROKER_CERT=/etc/mosquitto/certs/aetherbox.crt
BROKER_KEY=/etc/mosquitto/certs/aetherbox.key
BROKER_NAMES=/etc/mosquitto/certs/aetherbox.names
BROKER_TMPFILES=/etc/tmpfiles.d/aetherbox-broker.conf
CONFIG_TMPFILES=/etc/tmpfiles.d/aetherbox-config.conf
# The unit's SupplementaryGroups: a group missing from the system stops the service from starting.
GROUPS_NEEDED="video render input gpio dialout"
# SDL's KMS/DRM driver (compiled into pygame-ce's wheel) loads libdrm, libgbm, libEGL and
# libGLESv2 when it starts, and Mesa's driver for the Pi's GPU (vc4/v3d) through them; the wheel
# carries none of them.  The names are the same on bookworm and trixie.
KMS_PACKAGES="libdrm2 libgbm1 libegl1 libgles2 libgl1-mesa-dri"

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

# systemd runs this system (not a chroot, not an image under --root): units can be started and
# udev told.  Elsewhere `systemctl enable` still works, on the files alone.
booted_with_systemd() {
    [ -z "$ROOT" ] && [ -d /run/systemd/system ]
}

check_architecture() {
    [ -z "$ROOT" ] || return 0  # an image for another machine: its architecture is its own
    local arch
    arch="$(dpkg --print-architecture 2>/dev/null || uname -m)"
    case "$arch" in
        armhf|armel|armv6l|armv7l)
            echo "install.sh: error: this is a 32-bit OS ($arch); aetherbox needs a 64-bit one (arm64):" >&2
            echo "  pygame-ce, which draws the screen, has no wheel for 32-bit ARM. Put Raspberry Pi OS" >&2
            echo "  Lite (64-bit) on the card (a Pi 3, 4, 5 or Zero 2 W runs it) and run this again." >&2
            exit 1 ;;
    esac
}

# The groups the unit's SupplementaryGroups names.  Raspberry Pi OS has them all; other images
# (plain Debian) lack 'gpio', and systemd refuses to start a unit whose group does not exist.
ensure_groups() {
    local group
    for group in $GROUPS_NEEDED; do
        if has_group "$group"; then
            continue
        fi
        say "group '$group' is missing here (the service runs with it): creating it"
        system groupadd --system "$group"
    done
}

has_group() {
    if [ -n "$ROOT" ]; then
        grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null
    else
        getent group "$1" >/dev/null
    fi
}

# A value of the configuration ("display" "fb"), or "" when unset; fails (saying why on its last
# line) when the file cannot be read.
config_value() {
    python3 - "$ROOT$CONFIG_DIR/config.toml" "$1" "$2" 2>&1 <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(tomllib.load(f).get(sys.argv[2], {}).get(sys.argv[3]) or "")
PY
}

# dropin PATH WHAT LINE…: the service's drop-in PATH holding LINE… (its first the comment
# saying why), installed or kept as it is; WHAT says what it is for.
dropin() {
    local path=$1 what=$2 text
    shift 2
    text="$(printf '%s\n' "$@")"
    if [ -f "$ROOT$path" ] && [ "$(cat "$ROOT$path")" = "$text" ]; then
        say "unchanged: $path"
        return
    fi
    say "install: $path ($what)"
    files install -d -m 0755 "$ROOT$(dirname "$path")"
    if [ "$DRY_RUN" = 0 ]; then
        printf '%s\n' "$text" > "$ROOT$path"
        chmod 0644 "$ROOT$path"
    fi
}

no_dropin() {
    remove "$1"
    remove_empty_dir "$(dirname "$1")"
}

# [display] fb in the configuration: let the service open frame buffers (the unit's device list
# is closed and has none).  By class, so /dev/fb1 may become fb0 when the KMS console is off;
# only when configured, so a kiosk on the HDMI screen cannot read or write the console's pixels
# through /dev/fb0.  Run install.sh again after changing fb.
framebuffer_dropin() {
    local fb=""
    if [ -f "$ROOT$CONFIG_DIR/config.toml" ] && ! fb="$(config_value display fb)"; then
        say "warning: $CONFIG_DIR/config.toml cannot be read (${fb##*$'\n'}): no frame buffer allowed"
        fb=""
    fi
    if [ -z "$fb" ]; then
        no_dropin "$FB_DROPIN"
        return
    fi
    dropin "$FB_DROPIN" "frame buffer $fb" "# Written by install.sh: $CONFIG_DIR/config.toml sets [display] fb = \"$fb\"." \
        "[Service]" "DeviceAllow=char-fb rw"
}

# [event] broker in the configuration: the service, which has no network otherwise, may reach
# the event's broker, at its address and port only.  systemd filters addresses (IPAddressAllow)
# but has no port filter for the connections a service opens, and an address in a drop-in cannot
# follow a name whose address the venue's router hands out: so the drop-in runs event-firewall
# at every start of the service, which looks the name up then, narrows IPAddressAllow to what it
# found, and holds the port with an nftables rule on the service's user (a cgroup rule would
# stop matching when the service restarts in a new cgroup).  A broker on this Pi needs only the
# loopback.  [event] page_port (the organiser's read-only page for the players' phones): the
# local network may also connect to that port, the only one the service may listen on.  Run
# install.sh again after changing broker, port or page_port.
event_dropin() {
    local broker="" port page allow ca lines loopback=0
    if [ -f "$ROOT$CONFIG_DIR/config.toml" ] && ! broker="$(config_value event broker)"; then
        say "warning: $CONFIG_DIR/config.toml cannot be read (${broker##*$'\n'}): no network allowed"
        broker=""
    fi
    if [ -z "$broker" ]; then
        no_dropin "$EVENT_DROPIN"
        remove "$CONFIG_TMPFILES" "$EVENT_FIREWALL"
        remove_empty_dir "$(dirname "$EVENT_FIREWALL")"
        return
    fi
    port="$(config_value event port)"
    ca="$(config_value event ca)"
    page="$(config_value event page_port)"
    if [ -n "$page" ] && { ! [[ "$page" =~ ^[0-9]+$ ]] || [ "$page" -lt 1 ] || [ "$page" -gt 65535 ]; }; then
        say "warning: [event] page_port = $page is not a port (1 to 65535): the players' page is not let in"
        page=""
    fi
    lines=("# Written by install.sh: $CONFIG_DIR/config.toml sets [event] broker = \"$broker\"${page:+ and page_port = $page}." \
        "[Service]" "PrivateNetwork=no" "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6")
    case "$broker" in
        localhost|127.*|::1) loopback=1; allow="localhost" ;;
        *[!0-9.]*) if [[ "$broker" == *:* ]]; then allow="$broker"; else allow="localhost"; fi ;;  # a name: at start
        *) allow="$broker" ;;
    esac
    if [ -z "$port" ]; then
        if [ "$loopback" = 1 ] && [ -z "$ca" ]; then port=1883; else port=8883; fi  # as device/config.py
    fi
    [ "$loopback" = 1 ] || broker_ca_said "${ca:-$BROKER_CA}"
    if [ "$loopback" = 0 ] || [ -n "$page" ]; then
        # "-": a firewall step that fails leaves the service's own address filter (the loopback
        # alone for a name) and the table still starts, saying its broker is out of reach.
        lines+=("# The broker's address (a name looked up at each start) and port: see $EVENT_FIREWALL." \
            "ExecStartPre=-+$EVENT_FIREWALL $broker $port${page:+ $page}")
    fi
    [ -z "$page" ] || allow="$allow 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 169.254.0.0/16 fc00::/7 fe80::/10"
    lines+=("IPAddressAllow=$allow")
    if [ -n "$page" ]; then
        lines+=("# The players' page: the only port the service may listen on." "SocketBindAllow=tcp:$page" "SocketBindDeny=any")
    fi
    protect_config
    if [ "$loopback" = 0 ] || [ -n "$page" ]; then
        put 0755 "$SOURCE/systemd/aetherbox-event-firewall.sh" "$EVENT_FIREWALL"
    else
        remove "$EVENT_FIREWALL"
        remove_empty_dir "$(dirname "$EVENT_FIREWALL")"
    fi
    local what="the event's broker at $broker, port $port"
    [ -z "$page" ] || what="$what, and the players' page at port $page"
    dropin "$EVENT_DROPIN" "$what" "${lines[@]}"
}

# A table reaching its broker in TLS needs the event's certificate authority: its fingerprint,
# to compare with the one the organiser's install.sh said, or where to copy it from.
broker_ca_said() {
    if [ -f "$ROOT$1" ]; then
        say "the event's certificate authority: $1 ($(ca_fingerprint "$ROOT$1"))"
    else
        say "note: $1 is missing: copy /etc/aetherbox/broker-ca.crt from the organiser's Pi there (README, \"Events across tables\")"
    fi
}

# The configuration holds a broker password: root writes it, the service's group reads it,
# nobody else.  On this system that is chgrp and chmod.  Under --root (an image being built)
# the file there is made 0640 at once, and given to the service's group by the number the
# image's /etc/group has for it; an image whose group systemd-sysusers makes at its first boot
# has no such number yet, so a tmpfiles.d line hands the file to the group at every boot (after
# sysusers, before the service starts) — until then it is its builder's alone.
protect_config() {
    local config=$CONFIG_DIR/config.toml gid
    dropin "$CONFIG_TMPFILES" "the configuration readable by the service's group only" \
        "# Written by install.sh: $config holds the event broker's password." \
        "z $config 0640 root $USER_NAME -"
    if [ -z "$ROOT" ]; then
        system chgrp "$USER_NAME" "$config"
        system chmod 0640 "$config"
        return
    fi
    say "protect: $config (mode 0640: it holds a password)"
    files chmod 0640 "$ROOT$config"
    gid="$(awk -F: -v name="$USER_NAME" '$1 == name { print $3 }' "$ROOT/etc/group" 2>/dev/null || true)"
    if [ -z "$gid" ]; then
        say "note: no group '$USER_NAME' in $ROOT/etc/group yet: $config is given to it at the first boot"
    elif ! files chgrp "$gid" "$ROOT$config" 2>/dev/null; then
        say "note: cannot give $config to group $gid here (not root): it is given to '$USER_NAME' at the first boot"
    fi
}

# --broker: mosquitto with the shipped configuration and ACL, and a login for the organiser and
# each table.  A password is made once and kept in $BROKER_LOGINS (root's alone) for the
# organiser to copy into each table's configuration; logins already there are left as they are.
broker_setup() {
    put 0644 "$SOURCE/systemd/mosquitto-aetherbox.conf" "$BROKER_CONF"
    put 0644 "$SOURCE/systemd/mosquitto-aetherbox.acl" "$BROKER_ACL"
    local logins=$ROOT$BROKER_LOGINS login password made=0 index
    if [ "$DRY_RUN" = 0 ]; then
        install -d -m 0755 "$ROOT$CONFIG_DIR"
        [ -f "$logins" ] || { install -m 0600 /dev/null "$logins"; printf '%s\n' "# aetherbox: the event broker's logins (login password); root's alone" > "$logins"; }
    fi
    for index in $(seq 0 "$BROKER"); do
        login=organiser
        [ "$index" = 0 ] || login="table$index"
        if [ -f "$logins" ] && grep -q "^$login " "$logins"; then
            continue
        fi
        password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=' | head -c 16)"
        made=1
        say "login: $login (its password in $BROKER_LOGINS)"
        if [ "$DRY_RUN" = 0 ]; then
            printf '%s %s\n' "$login" "$password" >> "$logins"
        fi
    done
    if [ "$made" = 1 ] || [ ! -f "$ROOT$BROKER_PASSWD" ]; then
        # The password file is made again from the logins, hashed by mosquitto_passwd (never
        # printed: the passwords are in the logins file only).
        if [ "$DRY_RUN" = 1 ] || [ -n "$ROOT" ]; then
            say "would run: mosquitto_passwd -b $BROKER_PASSWD LOGIN PASSWORD, for each login in $BROKER_LOGINS"
        else
            say "+ mosquitto_passwd -b $BROKER_PASSWD LOGIN PASSWORD, for each login in $BROKER_LOGINS"
            install -m 0640 -g mosquitto /dev/null "$BROKER_PASSWD"
            grep -v '^#' "$logins" | while read -r login password; do
                mosquitto_passwd -b "$BROKER_PASSWD" "$login" "$password"
            done
        fi
    fi
    broker_certificates
    if [ "$DRY_RUN" = 0 ] && ! grep -q '^\[event\]' "$ROOT$CONFIG_DIR/config.toml"; then
        say "add: [event] to $CONFIG_DIR/config.toml (this Pi is the organiser's, at its own broker)"
        password="$(grep '^organiser ' "$logins" | cut -d' ' -f2)"
        printf '%s\n' "" "[event]                           # an event across tables: this Pi is its broker" \
            'broker = "localhost"' 'table = "organiser"' "password = \"$password\"" >> "$ROOT$CONFIG_DIR/config.toml"
    fi
}

# The names a table may reach this Pi by, as the broker's certificate lists them: localhost, the
# Pi's hostname and that name on the local network (mDNS: NAME.local), and its addresses now (an
# image's are not known yet: its tables use the name).
broker_names() {
    local host="" address names="DNS:localhost,IP:127.0.0.1,IP:::1"
    if [ -n "$ROOT" ]; then
        [ ! -f "$ROOT/etc/hostname" ] || host="$(head -n 1 "$ROOT/etc/hostname")"
    else
        host="$(hostname)"
    fi
    if [ -n "$host" ] && [ "$host" != localhost ]; then
        names="$names,DNS:$host,DNS:$host.local"
    fi
    if [ -z "$ROOT" ]; then
        for address in $(hostname -I 2>/dev/null || true); do
            names="$names,IP:$address"
        done
    fi
    printf '%s\n' "$names"
}

# The SHA-256 fingerprint of a certificate, for an owner to compare a table's copy with the
# organiser's by eye.
ca_fingerprint() {
    openssl x509 -in "$1" -noout -fingerprint -sha256 2>/dev/null | sed 's/^.*=/SHA-256 /' || true
}

ssl() {  # ssl ARG…: openssl, quiet unless it fails
    local said
    if ! said="$(openssl "$@" 2>&1)"; then
        printf 'install.sh: error: openssl %s failed:\n%s\n' "$1" "$said" >&2
        exit 1
    fi
}

# TLS for the tables (the venue's network carries their passwords): a certificate authority of
# the event's own, made once and kept, so a table given its certificate keeps trusting this Pi;
# and the broker's certificate, signed by it for this Pi's names, made again when they change
# (a new address from the venue's router: run install.sh --broker again).  P-256 keys: quick to
# make on a Pi and to check on every table's connection.
broker_certificates() {
    local names ca=$ROOT$BROKER_CA ca_key=$ROOT$BROKER_CA_KEY work
    names="$(broker_names)"
    if [ "$DRY_RUN" = 1 ]; then
        [ -f "$ca" ] || say "would make: the event's certificate authority $BROKER_CA"
        say "would make: the broker's certificate $BROKER_CERT for ${names//,/ }"
        return
    fi
    install -d -m 0755 "$ROOT$CONFIG_DIR" "$ROOT$(dirname "$BROKER_CERT")"
    if [ ! -f "$ca" ] || [ ! -f "$ca_key" ]; then
        say "make: the event's certificate authority $BROKER_CA (each table needs a copy)"
        (umask 077 && ssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
            -subj "/CN=aetherbox event broker authority" -keyout "$ca_key" -out "$ca" \
            -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign")
        chmod 0644 "$ca"
        rm -f "$ROOT$BROKER_NAMES"  # a new authority: the broker's certificate is signed again
    fi
    if [ -f "$ROOT$BROKER_CERT" ] && [ -f "$ROOT$BROKER_KEY" ] && [ "$(cat "$ROOT$BROKER_NAMES" 2>/dev/null)" = "$names" ] \
        && openssl verify -CAfile "$ca" "$ROOT$BROKER_CERT" >/dev/null 2>&1; then
        say "kept: the broker's certificate $BROKER_CERT"
    else
        say "make: the broker's certificate $BROKER_CERT for ${names//,/ }"
        work="$(mktemp -d)"
        printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
            "extendedKeyUsage=serverAuth" "subjectKeyIdentifier=hash" "authorityKeyIdentifier=keyid,issuer" \
            "subjectAltName=$names" > "$work/extensions"
        (umask 077 && ssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
            -subj "/CN=aetherbox event broker" -keyout "$work/key" -out "$work/request")
        ssl x509 -req -in "$work/request" -CA "$ca" -CAkey "$ca_key" -set_serial "0x$(openssl rand -hex 16)" \
            -days 825 -extfile "$work/extensions" -out "$work/certificate"
        install -m 0644 "$work/certificate" "$ROOT$BROKER_CERT"
        install -m 0640 "$work/key" "$ROOT$BROKER_KEY"
        printf '%s\n' "$names" > "$ROOT$BROKER_NAMES"
        rm -rf "$work"
    fi
    say "the event's certificate authority, for the tables: $BROKER_CA ($(ca_fingerprint "$ca"))"
    # mosquitto reads its key after it has become the user 'mosquitto'.  An image gets that
    # group when apt installs mosquitto at its first boot's install, so a tmpfiles.d line gives
    # the key to it at every boot; here it is given now.
    dropin "$BROKER_TMPFILES" "the broker's key readable by mosquitto only" \
        "# Written by install.sh --broker: mosquitto reads its TLS key as the user 'mosquitto'." \
        "z $BROKER_KEY 0640 root mosquitto -"
    [ -n "$ROOT" ] || system chgrp mosquitto "$BROKER_KEY"
}

remove_empty_dir() {
    if [ -d "$ROOT$1" ] && [ -z "$(ls -A "$ROOT$1")" ]; then
        files rmdir -- "$ROOT$1"
    fi
}

install_all() {
    [ -f "$SOURCE/pyproject.toml" ] || { echo "install.sh: error: $SOURCE is not the aetherbox source tree" >&2; exit 1; }
    check_architecture
    # lgpio comes from the OS: its Python module is built for the Pi's kernel and gpiochips, and
    # PyPI has no lgpio wheel for trixie's Python 3.13.
    local packages="python3-venv python3-pip $KMS_PACKAGES" lgpio=python3-lgpio
    [ "$BROKER" = 0 ] || packages="$packages mosquitto openssl"
    # A gadget at an event's broker: nft holds the broker's port (event-firewall).
    if [ "$BROKER" != 0 ] || { [ -f "$ROOT$CONFIG_DIR/config.toml" ] && [ -n "$(config_value event broker 2>/dev/null || true)" ]; }; then
        packages="$packages nftables"
    fi
    system apt-get update
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && ! apt-cache show "$lgpio" >/dev/null 2>&1; then
        say "warning: no package $lgpio here (it comes from Raspberry Pi OS's archive): the GPIO"
        say "         buttons will not work; keys and a touch screen still do"
        lgpio=
    fi
    # shellcheck disable=SC2086  # the package lists are words
    system apt-get install -y --no-install-recommends $packages $lgpio
    put 0644 "$SOURCE/systemd/aetherbox.sysusers.conf" "$SYSUSERS"
    system systemd-sysusers "$SYSUSERS"
    ensure_groups
    # systemd makes it at the service's first start; `sudo aetherbox …` may come first.
    system install -d -o "$USER_NAME" -g "$USER_NAME" -m 0750 "$STATE"
    if [ ! -x "$ROOT$VENV/bin/python" ]; then
        # --system-site-packages: the venv sees the OS's lgpio (gpiozero's backend on a Pi 5).
        system python3 -m venv --system-site-packages "$VENV"
    fi
    system "$VENV/bin/pip" install --upgrade "$SOURCE"
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
# [display]
# fb = "/dev/fb1"                   # an SPI panel; then run install.sh again (it lets the service open it)
CONFIG
        fi
    fi
    put 0755 "$SOURCE/systemd/aetherbox-wrapper.sh" "$WRAPPER"
    put 0644 "$SOURCE/systemd/aetherbox.service" "$UNIT"
    put 0644 "$SOURCE/systemd/70-aetherbox-reader.rules" "$UDEV_RULE"
    put 0644 "$SOURCE/systemd/71-aetherbox-gpio.rules" "$GPIO_RULE"
    put 0644 "$SOURCE/systemd/watchdog.conf" "$WATCHDOG"
    [ "$BROKER" = 0 ] || broker_setup
    framebuffer_dropin
    event_dropin
    card_text
    if booted_with_systemd; then
        system systemctl daemon-reload
        system udevadm control --reload
        system udevadm trigger --subsystem-match=tty --action=add
        system udevadm trigger --subsystem-match=gpio --action=add
    fi
    system systemctl enable aetherbox.service
    [ "$BROKER" = 0 ] || system systemctl enable mosquitto.service
    if ! booted_with_systemd; then
        say "note: systemd is not running here (a chroot or an image): the service is enabled and"
        say "      starts at the next boot"
        say "aetherbox is installed. Logs, once booted: journalctl -u aetherbox"
        return
    fi
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(systemctl get-default)" = graphical.target ]; then
        say "note: this Pi boots to a desktop, which holds the screen. For the kiosk, boot to the"
        say "      console: sudo systemctl set-default multi-user.target && sudo reboot"
    fi
    [ "$BROKER" = 0 ] || system systemctl restart mosquitto.service
    system systemctl restart aetherbox.service
    say "aetherbox is installed: it starts at boot on the screen. Logs: journalctl -u aetherbox"
}

# The rules text and pictures of the planes, phenomena and contraptions, from Scryfall, through
# the wrapper (as the service's user, into its data folder).  A failed fetch leaves the install
# whole: the table plays without the text, and the kiosk names the command that brings it.
card_text() {
    if [ "$CARD_TEXT" = 0 ]; then
        say "skipped: the card text (--no-card-text); to fetch it later: sudo aetherbox catalog fetch"
        return
    fi
    if [ -s "$ROOT$STATE/cardtext/cards.json" ]; then
        say "kept: the card text in $STATE/cardtext (to fetch it again: sudo aetherbox catalog fetch)"
        return
    fi
    say "the card text and pictures, from Scryfall (about 25 MB):"
    if ! system "$WRAPPER" catalog fetch; then
        say "warning: the card text could not be fetched (said above); the table plays without it."
        say "         When this Pi is online: sudo aetherbox catalog fetch"
    fi
}

uninstall_all() {
    if booted_with_systemd; then
        system systemctl disable --now aetherbox.service
    else
        system systemctl disable aetherbox.service  # --now needs a running systemd
    fi
    remove "$UNIT" "$FB_DROPIN" "$EVENT_DROPIN" "$(dirname "$EVENT_FIREWALL")" "$UDEV_RULE" "$GPIO_RULE" "$WATCHDOG" "$WRAPPER" "$PREFIX"
    remove "$BROKER_CONF" "$BROKER_ACL" "$CONFIG_TMPFILES" "$BROKER_TMPFILES" "$BROKER_CERT" "$BROKER_KEY" "$BROKER_NAMES"
    remove_empty_dir "$(dirname "$FB_DROPIN")"
    if booted_with_systemd; then
        system systemctl daemon-reload
        system udevadm control --reload
    fi
    if [ "$PURGE" = 1 ]; then
        remove "$STATE" "$CONFIG_DIR" "$SYSUSERS" "$BROKER_PASSWD"
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
