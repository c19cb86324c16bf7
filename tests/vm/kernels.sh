#!/bin/bash
# kernels.sh — print the kernel releases to test, one per line: the newest
# installed Debian 6.1 (6.1.0-N-amd64) and 6.12 (6.12.N+deb12-amd64) kernels
# that have both an image and headers. SEG6X_KERNELS="KVER ..." overrides.
# Exit status 1 if a requested/expected kernel is unusable (message on stderr).
set -euo pipefail

usable() {
	[ -r "/boot/vmlinuz-$1" ] &&
		{ [ -d "/usr/src/linux-headers-$1" ] || [ -e "/lib/modules/$1/build" ]; }
}

status=0
if [ -n "${SEG6X_KERNELS:-}" ]; then
	for k in $SEG6X_KERNELS; do
		if usable "$k"; then
			echo "$k"
		else
			echo "kernels.sh: $k lacks /boot/vmlinuz-$k or its headers" >&2
			status=1
		fi
	done
	exit "$status"
fi

# newest GLOB: highest usable release among /boot/vmlinuz-GLOB
newest() {
	local f k best=""
	for f in /boot/vmlinuz-$1; do
		[ -e "$f" ] || continue
		k=${f#/boot/vmlinuz-}
		usable "$k" && best+="$k"$'\n'
	done
	printf '%s' "$best" | sort -V | tail -n 1
}

for series in '6.1.0-*-amd64' '6.12.*+deb12-amd64'; do
	k=$(newest "$series")
	if [ -n "$k" ]; then
		echo "$k"
	else
		echo "kernels.sh: no usable $series kernel (run tests/vm/setup.sh)" >&2
		status=1
	fi
done
exit "$status"
