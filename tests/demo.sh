#!/bin/bash
# make demo: build seg6x, install it with DKMS for a stock Debian kernel,
# boot that kernel in a VM and show seg6x at work on an SRv6 topology.
# As root on Debian 12. SEG6X_DEMO_KERNEL picks the kernel (default: the
# first of tests/vm/kernels.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "make demo: run as root" >&2; exit 2; }

tests/vm/setup.sh
kver=${SEG6X_DEMO_KERNEL:-$(tests/vm/kernels.sh | sed -n 1p)}
make -s tools
make -s KVER="$kver" dkms-install >/dev/null
echo "== booting $kver under qemu (TCG); the demo runs inside the VM"
exec tests/vm/run-vm.sh "$kver" -t 900 -- /usr/bin/python3 tests/vm/demo.py
