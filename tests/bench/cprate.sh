#!/bin/bash
# cprate.sh [-n N] [-r R] [KVER...] — control-plane rates of seg6x vs the
# in-tree seg6: install N encap routes and N End.X SIDs from one batch file
# each (ip -6 -b vs seg6ctl -b), their kernel memory per entry, and the time
# to flush them, in one VM run per kernel (default: every kernel of
# tests/vm/kernels.sh, one after the other). N defaults to 100000; each
# case runs R times (default 3), the table gives medians.
# Builds and installs nothing: seg6x must be installed for KVER (make
# dkms-install KVER=...) and seg6ctl built (make tools).
# Results: build/bench/KVER/cprate.json (SEG6X_BENCH_OUT=DIR to change the
# directory), next to the guest's output.log and dmesg.txt.
# The VM has one vCPU (SEG6X_VM_SMP to change; per-CPU memory scales).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

n=100000
reps=3
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-n) [ $# -ge 2 ] || { echo "cprate.sh: -n needs a number" >&2; exit 2; }
	    n=$2; shift 2 ;;
	-r) [ $# -ge 2 ] || { echo "cprate.sh: -r needs a number" >&2; exit 2; }
	    reps=$2; shift 2 ;;
	*) break ;;
	esac
done
for v in "$n" "$reps"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "cprate.sh: bad number \"$v\"" >&2; exit 2; }
done

kernels=("$@")
if [ ${#kernels[@]} -eq 0 ]; then
	# kernels.sh prints what it found even when one is missing
	mapfile -t kernels < <("$repo/tests/vm/kernels.sh" 2>/dev/null || true)
fi
if [ ${#kernels[@]} -eq 0 ]; then
	echo "cprate.sh: no test kernel installed (see tests/vm/setup.sh)" >&2
	exit 2
fi
if [ ! -x "$repo/tools/seg6ctl/seg6ctl" ]; then
	echo "cprate.sh: tools/seg6ctl/seg6ctl is not built; run: make tools" >&2
	exit 2
fi

# Control-plane work is one process at a time: one vCPU is enough, and
# keeps the timing from depending on how the host shares its cores.
export SEG6X_VM_SMP=${SEG6X_VM_SMP:-1}
# all four cases are installed at once: 100000 in-tree routes take 100 MB
export SEG6X_VM_MEM=${SEG6X_VM_MEM:-2048}
status=0
cd "$repo"
for kver in "${kernels[@]}"; do
	if ! modinfo -k "$kver" seg6x >/dev/null 2>&1; then
		echo "cprate.sh: seg6x is not installed for $kver;" \
			"run: make dkms-install KVER=$kver" >&2
		status=1
		continue
	fi
	out=${SEG6X_BENCH_OUT:-$repo/build/bench/$kver}
	mkdir -p "$out"
	# 3 runs of 100000 take about 15 minutes under TCG; room for a busy host
	"$repo/tests/vm/run-vm.sh" "$kver" -t 2400 -o "$out" -- \
		/usr/bin/python3 tests/bench/cprate.py -n "$n" -r "$reps" || status=$?
	echo "cprate.sh: results in $out/cprate.json"
done
exit "$status"
