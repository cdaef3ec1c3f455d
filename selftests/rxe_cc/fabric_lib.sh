# shellcheck shell=bash
# Helpers for tests and experiments that run hosts through the software
# fabric (tools/fabric). Source lib.sh first, then this file.
#
# Layout: every host is a network namespace with one interface "eth0"; its
# veth peer lives in the fabric's namespace under the host's name, and the
# fabric process attaches to that peer ("attach=if:NAME" in the topology).

FABRIC_BIN=${FABRIC_BIN:-$RXECC_TOP/build/user/bin/rxecc-fabric}
FABRIC_PID=
FABRIC_SOCK=
FABRIC_LOG=

# fabric_rxe_load [PARAM=VALUE...]: (re)load the patched rdma_rxe with extra
# module parameters, e.g. pfc_netdevs=eth0 to honour PFC on every host.
fabric_rxe_load() {
	[ -f "$RXECC_RXE_KO" ] || die "patched module $RXECC_RXE_KO not built (make module)"
	rxe_unload || die "cannot unload the previous rdma_rxe"
	"$RXECC_MODPROBE" -a udp_tunnel ip6_udp_tunnel || die "cannot load udp_tunnel"
	insmod "$RXECC_RXE_KO" cc_pacer_slack_us="${RXECC_PACER_SLACK_US:-2000}" "$@" ||
		die "insmod $RXECC_RXE_KO $* failed"
}

# fabric_ns NS: the namespace that holds the switch ends of the host links.
# IPv6 is off there and on the hosts, so that no router solicitations or
# MLD reports travel through the fabric.
fabric_ns() {
	netns_add "$1"
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
}

# fabric_nic_offloads NS IF: frames leave IF complete, as on a wire: a
# checksum left to the NIC (veth's default) or a segmentation offload
# super-frame would reach the fabric's AF_PACKET socket unfinished.
fabric_nic_offloads() {
	ip netns exec "$1" ethtool -K "$2" tx off tso off gso off gro off >/dev/null 2>&1 ||
		die "ethtool -K $2 (in $1) failed: offloads must be off on fabric links"
}

# fabric_host FABNS NAME IPV4 [MAC]: host NAME (a namespace) whose eth0
# (IPV4/24) is linked to interface NAME in FABNS, with rxe device rxe_NAME.
fabric_host() {
	local fab=$1 name=$2 ip=$3 mac=${4:-}
	netns_add "$name"
	ip netns exec "$name" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	veth_link "$name" eth0 "$ip/24" "$fab" "$name"
	[ -n "$mac" ] && ip -n "$name" link set eth0 address "$mac"
	fabric_nic_offloads "$name" eth0
	fabric_nic_offloads "$fab" "$name"
	rxe_add "$name" "rxe_$name" eth0
}

# fabric_start NS TOPOLOGY TELEMETRY_DIR [ARGS...]: run rxecc-fabric in NS
# with a control socket; returns once it is forwarding.
fabric_start() {
	local ns=$1 topo=$2 dir=$3 t
	shift 3
	[ -x "$FABRIC_BIN" ] || die "$FABRIC_BIN not built (make user)"
	FABRIC_SOCK=$TMP/fabric.sock
	FABRIC_LOG=$TMP/fabric.log
	ip netns exec "$ns" "$FABRIC_BIN" run -t "$topo" --telemetry "$dir" \
		--control "$FABRIC_SOCK" "$@" >"$FABRIC_LOG" 2>&1 &
	FABRIC_PID=$!
	_bg_pids+=("$FABRIC_PID")
	for t in $(seq 1 100); do
		grep -q '^rxecc-fabric: ready' "$FABRIC_LOG" && return 0
		kill -0 "$FABRIC_PID" 2>/dev/null || break
		sleep 0.1
	done
	fail "rxecc-fabric did not start"
	sed 's/^/#   fabric: /' "$FABRIC_LOG"
	ksft_exit
}

# fabric_stat KEY: a counter of the running fabric ("flat" key, see
# Documentation/rxe-cc/fabric.rst); 0 for a queue that has been idle.
fabric_stat() {
	"$FABRIC_BIN" query "$FABRIC_SOCK" flat |
		awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }'
}

# fabric_stop: stop the fabric; it writes its final telemetry. Fails if the
# process did not exit cleanly.
fabric_stop() {
	local rc=0
	[ -n "$FABRIC_PID" ] || return 0
	kill -TERM "$FABRIC_PID" 2>/dev/null
	wait "$FABRIC_PID" || rc=$?
	FABRIC_PID=
	if [ "$rc" != 0 ]; then
		fail "rxecc-fabric exited with $rc"
		sed 's/^/#   fabric: /' "$FABRIC_LOG" | tail -20
		return 1
	fi
}

# rx_bytes NS IF: bytes received on an interface.
rx_bytes() {
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/rx_bytes"
}

# port_rate PORTS_CSV SWITCH.PORT rx|tx T0 T1 [OVERHEAD]: mean bit/s that
# the port received or sent over [T0, T1] seconds of fabric time, frame
# overhead (default 24 bytes) included, from the fabric's ports.csv.
port_rate() {
	awk -F, -v sw="${2%%.*}" -v n="${2#*.}" -v dir="$3" -v a="$4" -v b="$5" -v o="${6:-24}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["switch"] == sw && $c["name"] == n {
			t = $1 / 1e6; by = $c[dir "_bytes"]; fr = $c[dir "_frames"]
			if (t >= a && !s) { s = 1; t0 = t; b0 = by; f0 = fr }
			if (s && t <= b) { t1 = t; b1 = by; f1 = fr }
		}
		END {
			if (!s || t1 <= t0) { print 0; exit }
			printf "%.0f\n", ((b1 - b0) + (f1 - f0) * o) * 8 / (t1 - t0)
		}' "$1"
}

# flow_field FLOWS_CSV FLOW COLUMN: one field of a flow in flows.csv
flow_field() {
	awk -F, -v f="$2" -v col="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == f { print $c[col] }' "$1"
}

# flat_value FILE KEY: a value of a summary.flat file (0 if absent)
flat_value() {
	awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$1"
}

# host_counter_sum DIR NAME: a hw counter summed over hosts/*.counters
host_counter_sum() {
	cat "$1"/*.counters | awk -v k="$2" '$1 == k { s += $2 } END { print s + 0 }'
}
