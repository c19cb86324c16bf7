#!/bin/bash
# run.sh [KVER] [-- BENCH_ARGS...] — run the seg6x forwarding benchmark in a
# VM booted with KVER (default: the first kernel of tests/vm/kernels.sh)
# and print its table. Builds and installs nothing: seg6x must already be
# installed for KVER (make dkms-install KVER=...) and seg6ctl built (make).
#
# The results are also kept as JSON in build/bench/KVER/bench.json
# (SEG6X_BENCH_OUT=DIR puts them elsewhere), next to the guest's dmesg.
# SEG6X_BENCH_REPS / SEG6X_BENCH_SECS set samples per case and their length;
# BENCH_ARGS go to bench.py (e.g. -- -k seg6-end,seg6x-end; -- -h for help).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

case ${1:-} in
-h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
kver=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	kver=$1
	shift
fi
[ "${1:-}" = "--" ] && shift
if [ -z "$kver" ]; then
	# kernels.sh fails when one of the kernels is missing; the first may do
	kver=$("$repo/tests/vm/kernels.sh" 2>/dev/null | head -n 1 || true)
	if [ -z "$kver" ]; then
		echo "run.sh: no test kernel installed (see tests/vm/setup.sh)" >&2
		exit 2
	fi
fi

if ! modinfo -k "$kver" seg6x >/dev/null 2>&1; then
	echo "run.sh: seg6x is not installed for $kver;" \
		"run: make dkms-install KVER=$kver" >&2
	exit 2
fi
if [ ! -x "$repo/tools/seg6ctl/seg6ctl" ]; then
	echo "run.sh: tools/seg6ctl/seg6ctl is not built; run: make tools" >&2
	exit 2
fi

# one router CPU and three pktgen CPUs (bench.py explains why)
export SEG6X_VM_SMP=${SEG6X_VM_SMP:-4}
out=${SEG6X_BENCH_OUT:-$repo/build/bench/$kver}
mkdir -p "$out"
cd "$repo"
# a default run takes about 4 minutes; leave room for a busy host
"$repo/tests/vm/run-vm.sh" "$kver" -t 900 -o "$out" -- \
	/usr/bin/python3 tests/bench/bench.py "$@"
echo "run.sh: results in $out/bench.json"
