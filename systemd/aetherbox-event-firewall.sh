#!/usr/bin/env bash
# aetherbox: let the kiosk service reach its event's broker and nothing else on the network.
# install.sh installs it as /usr/local/lib/aetherbox/event-firewall and runs it from the
# service's drop-in (aetherbox.service.d/event.conf) as ExecStartPre=+…: as root, outside the
# service's sandbox, at every start of the service (a restart looks the broker's name up again).
#
#   event-firewall BROKER PORT [PAGE_PORT]
#
# 1. The broker's addresses: BROKER itself when it is one, else its name looked up now (through
#    the system's resolver: Avahi for NAME.local). The venue's router may have given the
#    organiser's Pi another address since the last start, so a name is never fixed at install.
#    A name that does not resolve yet leaves the local network's ranges, said in the journal.
# 2. systemd's address filter of the service (IPAddressAllow, set for this boot only): those
#    addresses, and for a name outside .local the name servers that look it up. The drop-in
#    itself holds the addresses that do not change (an address given as one, the local network
#    for PAGE_PORT).
# 3. nftables (package nftables): connections the service's user opens may go to those addresses
#    at PORT only (and to the name servers at port 53); all else it sends is refused. systemd
#    has no port filter for outgoing connections: this is the part that holds the port.
#    Connections the phones open to PAGE_PORT are admitted by the drop-in (IPAddressAllow of the
#    local network, SocketBindAllow of PAGE_PORT alone) and their replies by conntrack here.
set -euo pipefail

UNIT=${AETHERBOX_UNIT:-aetherbox.service}
USER_NAME=${AETHERBOX_USER:-aetherbox}
# A second apart: Avahi may still be starting at boot. Few, as the table's screen waits for them;
# a name not found yet lets the local network in instead.
TRIES=${AETHERBOX_RESOLVE_TRIES:-3}
RESOLV_CONF=${AETHERBOX_RESOLV_CONF:-/etc/resolv.conf}
LOCAL_NETWORK="10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 169.254.0.0/16 fc00::/7 fe80::/10"

broker=${1:?usage: event-firewall BROKER PORT [PAGE_PORT]}
port=${2:?usage: event-firewall BROKER PORT [PAGE_PORT]}
page=${3:-}
say() { printf 'aetherbox event firewall: %s\n' "$*"; }

is_address() {
    [[ "$1" =~ ^[0-9.]+$ || "$1" == *:* ]]
}

resolve() {
    local try
    for try in $(seq 1 "$TRIES"); do
        if getent ahosts "$broker" | awk '{ print $1 }' | sort -u | grep .; then
            return 0
        fi
        [ "$try" = "$TRIES" ] || sleep 1
    done
    return 1
}

addresses=""
servers=""
if is_address "$broker"; then
    addresses=$broker
elif found="$(resolve)"; then
    addresses="$(printf '%s' "$found" | tr '\n' ' ')"
    addresses=${addresses% }
    if [[ "$broker" != *.local && "$broker" != localhost ]]; then
        # The service looks the name up itself (paho): it needs the name servers too.
        servers="$(awk '$1 == "nameserver" { printf "%s ", $2 }' "$RESOLV_CONF" 2>/dev/null || true)"
        servers=${servers% }
    fi
    say "broker $broker is $addresses"
else
    say "broker $broker cannot be looked up yet: the local network is allowed instead (restart the service once it resolves)"
    addresses=$LOCAL_NETWORK
fi

if ! is_address "$broker"; then
    allow=(IPAddressAllow= IPAddressAllow=localhost)
    for address in $addresses $servers; do
        allow+=("IPAddressAllow=$address")
    done
    if [ -n "$page" ]; then
        for address in $LOCAL_NETWORK; do
            allow+=("IPAddressAllow=$address")
        done
    fi
    systemctl set-property --runtime "$UNIT" "${allow[@]}"
fi

if ! command -v nft >/dev/null; then
    say "nft is not installed (package nftables): the broker's port is not enforced, only its address"
    exit 0
fi
uid="$(id -u "$USER_NAME")"
v4="" v6=""
for address in $addresses; do
    if [[ "$address" == *:* ]]; then v6="$v6, $address"; else v4="$v4, $address"; fi
done
ns4="" ns6=""
for address in $servers; do
    if [[ "$address" == *:* ]]; then ns6="$ns6, $address"; else ns4="$ns4, $address"; fi
done
{
    printf '%s\n' "table inet aetherbox" "delete table inet aetherbox" "table inet aetherbox {" \
        "    chain output {" "        type filter hook output priority filter; policy accept;" \
        "        meta skuid != $uid accept" "        oifname \"lo\" accept" "        ct state established,related accept"
    [ -z "$v4" ] || printf '        ip daddr { %s } tcp dport %s accept\n' "${v4#, }" "$port"
    [ -z "$v6" ] || printf '        ip6 daddr { %s } tcp dport %s accept\n' "${v6#, }" "$port"
    [ -z "$ns4" ] || printf '        ip daddr { %s } meta l4proto { tcp, udp } th dport 53 accept\n' "${ns4#, }"
    [ -z "$ns6" ] || printf '        ip6 daddr { %s } meta l4proto { tcp, udp } th dport 53 accept\n' "${ns6#, }"
    printf '%s\n' "        reject" "    }" "}"
} | nft -f -
say "the service may open connections to ${addresses// /, } at port $port only${page:+; phones reach it at port $page}"
