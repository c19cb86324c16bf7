#!/bin/bash
# insn.sh KVER OUTDIR PROFILE [ARGS...] — run.sh --insn: boots KVER with one
# vCPU under the libinsn.so plugin (built here if needed), runs insnrun.py
# ARGS in it, and has insnreport.py turn the plugin's marks into
# OUTDIR/insn.json and a table. PROFILE: 1 to profile too.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
kver=$1 out=$2 profile=$3
shift 3

make -s -C "$here/insn" libinsn.so
qarg() { printf '%s' "${1//,/,,}"; }   # qemu option values escape ',' as ',,'
plugin="$(qarg "$here/insn/libinsn.so"),out=$(qarg "$out/insn-marks.txt")"
args=()
if [ "$profile" = 1 ]; then
	plugin+=",profile=on"
	args+=(--profile)
fi
rm -f "$out/insn-marks.txt" "$out/insn-runs.json" "$out/kallsyms"
# One vCPU: the plugin's count is exact only then (insn.c). nokaslr: the
# kernel's addresses are the same in every boot. -icount: the guest's
# clock follows its instruction count, not the host's (loaded) time, so
# that what the kernel decides by time (net_rx_action's time limit,
# deferring softirqs to ksoftirqd, which batches packets) is the same in
# every run: 6.1 takes another path in some runs without it. It needs
# single-threaded TCG; on a host busy with other VMs a run takes longer
# (SEG6X_BENCH_TIMEOUT, seconds). No transparent huge pages: khugepaged's
# work is no packet's (2 million instructions when it collapsed one during
# a run). slab_nomerge: with the slab caches of equal sizes merged, 6.1's
# SLUB took its slow paths (about 170 instructions a packet, or twice
# that) in some boots and cases and not in others; apart, every boot agrees.
SEG6X_VM_SMP=1 SEG6X_VM_TCG_THREAD=single \
	SEG6X_VM_APPEND="nokaslr transparent_hugepage=never slab_nomerge ${SEG6X_VM_APPEND:-}" \
	"$repo/tests/vm/run-vm.sh" "$kver" -t "${SEG6X_BENCH_TIMEOUT:-900}" -o "$out" \
	-q -plugin -q "$plugin" -q -icount -q "shift=${SEG6X_BENCH_ICOUNT:-0}" -- \
	/usr/bin/python3 tests/bench/insnrun.py "${args[@]}" "$@"
/usr/bin/python3 "$here/insnreport.py" "$out"
