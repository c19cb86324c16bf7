#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM, as root: the packet fuzzer, the netlink fuzzer and
# the churn test with fixed seeds, then prints one summary. Exit status 0
# only if all three pass.
#
#   tests/fuzz/run-all.sh [--quick]
#
# Knobs (environment): SEG6X_FUZZ_SEED (default 1), SEG6X_FUZZ_PACKETS
# (100000), SEG6X_FUZZ_MESSAGES (10000), SEG6X_FUZZ_CHURN (180 seconds).
# --quick: 5000 packets, 2000 messages, 40 s of churn.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH=/usr/sbin:/usr/bin:/sbin:/bin PYTHONDONTWRITEBYTECODE=1
py=/usr/bin/python3
seed=${SEG6X_FUZZ_SEED:-1}
packets=${SEG6X_FUZZ_PACKETS:-100000}
messages=${SEG6X_FUZZ_MESSAGES:-10000}
churn=${SEG6X_FUZZ_CHURN:-180}
if [ "${1:-}" = --quick ]; then
	packets=${SEG6X_FUZZ_PACKETS:-5000}
	messages=${SEG6X_FUZZ_MESSAGES:-2000}
	churn=${SEG6X_FUZZ_CHURN:-40}
fi
out=${SEG6X_OUT:-/tmp}
echo "== seg6x fuzz on $(uname -r): seed $seed, $packets packets," \
	"$messages netlink messages, $churn s churn"
modprobe seg6x || exit 1

declare -A res
run() {
	local name=$1; shift
	local t0=$SECONDS
	echo "== $name: $*"
	"$@" 2>&1 | tee "$out/fuzz-$name.log"
	local rc=${PIPESTATUS[0]}
	res[$name]="$([ "$rc" = 0 ] && echo pass || echo "FAIL ($rc)") in $((SECONDS - t0)) s"
	return "$rc"
}
rc=0
run packets $py tests/fuzz/fuzz_packets.py --seed "$seed" --count "$packets" \
	--out "$out/fuzz-packets.json" || rc=1
run netlink $py tests/fuzz/fuzz_netlink.py --seed "$seed" --count "$messages" \
	|| rc=1
run churn $py tests/fuzz/churn.py --seed "$seed" --duration "$churn" || rc=1

echo "== summary ($(uname -r), seed $seed)"
for n in packets netlink churn; do
	line=$(grep -E "^(fuzz_packets|fuzz_netlink|churn):" "$out/fuzz-$n.log" | tail -1)
	printf '%-8s %s\n         %s\n' "$n" "${res[$n]}" "${line:-(no summary line)}"
done
if ! dmesg | $py tests/vm/tests/lib/kernlog.py >/dev/null; then
	echo "kernel log: NOT clean"; rc=1
else
	echo "kernel log: clean"
fi
echo "result: $([ $rc = 0 ] && echo PASS || echo FAIL)"
exit $rc
