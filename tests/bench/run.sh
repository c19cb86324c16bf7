#!/bin/bash
# run.sh [--insn [--profile]] [KVER] [-- ARGS...] — run the seg6x forwarding
# benchmark in a VM booted with KVER (default: the first kernel of
# tests/vm/kernels.sh) and print its table. Builds and installs nothing but
# the qemu plugin: seg6x must already be installed for KVER (make
# dkms-install KVER=...) and seg6ctl built (make).
#
# Default: packets per second (bench.py; ARGS go to it, -- -h for help).
# SEG6X_BENCH_REPS / SEG6X_BENCH_SECS set samples per case and their length.
# --insn (or SEG6X_BENCH_INSN=1): guest instructions per packet instead, in
# a one-CPU VM under the tests/bench/insn plugin (insnrun.py; ARGS go to it);
# --profile adds the top kernel functions of each case.
# --goodput: TCP goodput through an encapsulating headend instead, in-tree
# seg6 vs seg6x (goodput.py; ARGS go to it).
# --fpm: BGP VPN prefixes reaching seg6x through seg6x-fpmd, timed against
# zebra's own kernel install (fpmscale.py; ARGS go to it).
# Results: build/bench/KVER/ (SEG6X_BENCH_OUT=DIR to change): bench.json or
# insn.json, and bench-results.json from both; the guest's dmesg beside.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

insn=${SEG6X_BENCH_INSN:-0}
profile=0
goodput=0
fpm=0
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--insn) insn=1; shift ;;
	--profile) insn=1; profile=1; shift ;;
	--goodput) goodput=1; shift ;;
	--fpm) fpm=1; shift ;;
	*) break ;;
	esac
done
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

out=${SEG6X_BENCH_OUT:-$repo/build/bench/$kver}
mkdir -p "$out"
cd "$repo"
if [ "$fpm" = 1 ]; then
	# FRR's daemons and seg6x-fpmd (make tools builds it) on one CPU
	SEG6X_VM_SMP=${SEG6X_VM_SMP:-1} SEG6X_VM_MEM=${SEG6X_VM_MEM:-2048} \
		"$repo/tests/vm/run-vm.sh" "$kver" -t 1800 -o "$out" -- \
		/usr/bin/python3 tests/bench/fpmscale.py "$@"
	exit 0
elif [ "$goodput" = 1 ]; then
	# sender, routers and receiver share the VM's CPUs
	SEG6X_VM_SMP=${SEG6X_VM_SMP:-2} "$repo/tests/vm/run-vm.sh" "$kver" \
		-t 1200 -o "$out" -- /usr/bin/python3 tests/bench/goodput.py "$@"
	exit 0
elif [ "$insn" = 1 ]; then
	"$here/insn.sh" "$kver" "$out" "$profile" "$@"
else
	# one router CPU and three pktgen CPUs (bench.py explains why)
	export SEG6X_VM_SMP=${SEG6X_VM_SMP:-4}
	# a default run takes about 9 minutes; leave room for a busy host
	"$repo/tests/vm/run-vm.sh" "$kver" -t 1500 -o "$out" -- \
		/usr/bin/python3 tests/bench/bench.py "$@"
fi
/usr/bin/python3 "$here/results.py" "$out"
echo "run.sh: results in $out/bench-results.json"
