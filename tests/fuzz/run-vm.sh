#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side: install seg6x for KVER with DKMS, boot KVER in the test VM
# and run tests/fuzz/run-all.sh there -- all under the VM lock shared with
# the other test scripts on this machine (waits of minutes are normal).
#
#   tests/fuzz/run-vm.sh KVER [-o OUTDIR] [--no-install] [--quick]
#
# --no-install   use the module already installed for KVER
# --quick        5000 packets, 2000 messages, 40 s of churn
# SEG6X_FUZZ_* variables reach the guest (see README.md); the guest is
# killed after $SEG6X_FUZZ_TIMEOUT seconds (default 2400).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
usage() { echo "usage: $0 KVER [-o OUTDIR] [--no-install] [--quick]" >&2; exit 2; }
[ $# -ge 1 ] || usage
kver=$1; shift
outargs=() install=1 guestargs=()
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || usage; outargs=(-o "$2"); shift 2 ;;
	--no-install) install=0; shift ;;
	--quick) guestargs+=(--quick); shift ;;
	*) usage ;;
	esac
done
cd "$repo"
inst=true
[ $install = 1 ] && inst="make -s KVER=$kver dkms-install >/dev/null"
exec flock /tmp/seg6x-vm.lock bash -c '
	set -e
	'"$inst"'
	ls /lib/modules/"$1"/updates/dkms/seg6x.ko* >/dev/null 2>&1 || {
		echo "seg6x is not installed for $1: make -s KVER=$1 dkms-install" >&2
		exit 2
	}
	kver=$1; shift
	exec tests/vm/run-vm.sh "$kver" -t "${SEG6X_FUZZ_TIMEOUT:-2400}" "$@"
' run-vm "$kver" "${outargs[@]}" -- tests/fuzz/run-all.sh "${guestargs[@]}"
