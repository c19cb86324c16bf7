#!/bin/bash
# Runs inside the VM on the debug kernel (see check-debug.sh): the whole VM
# suite, then the fuzz/churn tests if the tree has them, then a kmemleak
# scan. Writes results to $SEG6X_OUT: suite.status, fuzz.status,
# kmemleak.txt. Exits 0; check-debug.sh judges the results.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
export PATH=/usr/sbin:/usr/bin:/sbin:/bin PYTHONDONTWRITEBYTECODE=1
out=${SEG6X_OUT:-/tmp}
kml=/sys/kernel/debug/kmemleak

echo "== debug kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ {print int($2/1024) " MiB"}' /proc/meminfo)"

# Forget what boot itself left unreferenced: only what the tests leave counts.
if [ -w "$kml" ]; then
	echo scan >"$kml"
	echo clear >"$kml"
else
	echo "== kmemleak: $kml not available" | tee "$out/kmemleak.txt"
fi

t0=$(date +%s)
# check-debug.sh installs the module into updates/, not through DKMS.
# The debug kernel is several times slower: stretch the tests' waits.
SEG6X_MODULE_DIR=/updates/ SEG6X_TIME_FACTOR=${SEG6X_TIME_FACTOR:-4} \
	tests/vm/guest-tests.sh "$@"
echo "$?" >"$out/suite.status"
echo "== VM suite: $(($(date +%s) - t0)) s"

if [ "${SEG6X_DEBUG_FUZZ:-1}" = 0 ]; then
	echo skipped >"$out/fuzz.status"
	echo "== tests/fuzz/run-all.sh: skipped (SEG6X_DEBUG_FUZZ=0)"
elif [ -x tests/fuzz/run-all.sh ]; then
	t0=$(date +%s)
	echo "== tests/fuzz/run-all.sh"
	tests/fuzz/run-all.sh
	echo "$?" >"$out/fuzz.status"
	echo "== fuzz/churn: $(($(date +%s) - t0)) s"
else
	echo skipped >"$out/fuzz.status"
	echo "== tests/fuzz/run-all.sh: not in this tree, skipped"
fi

# Unload seg6x so everything it allocated must have been freed, then scan.
# kmemleak only reports objects older than 5 s, and an object can look
# referenced from a stale stack slot in one scan: scan twice, apart.
modprobe -r seg6x 2>/dev/null
if [ -w "$kml" ]; then
	sleep 6
	echo scan >"$kml"
	sleep 6
	echo scan >"$kml"
	cat "$kml" >"$out/kmemleak.txt"
	n=$(grep -c '^unreferenced object' "$out/kmemleak.txt")
	echo "== kmemleak: $n unreferenced object(s)"
	head -n 60 "$out/kmemleak.txt"
fi
exit 0
