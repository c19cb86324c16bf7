#!/bin/bash
# make check: everything CI runs. As root on Debian 12:
#   1. installs what is missing (packages, the 6.1 and 6.12 kernels)
#   2. builds seg6ctl and runs its unit tests
#   3. tests the Debian packages (tests/pkg/test-packages.sh: build,
#      lintian, install for every kernel, modprobe in a VM, purge)
#   4. builds the module with -Werror and sparse for every kernel
#   5. installs it with DKMS for every kernel (never loaded on the host)
#   6. boots each kernel in a VM and runs the pytest suite there
# Prints each pytest summary line; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

[ "$(id -u)" = 0 ] || { echo "make check: run as root (installs packages and DKMS modules)" >&2; exit 2; }

step() { printf '\n==== %s\n' "$*"; }
fail=0
summary=()

step "setup"
tests/vm/setup.sh || exit 1
mapfile -t kernels < <(tests/vm/kernels.sh)
[ ${#kernels[@]} -gt 0 ] || { echo "no test kernels installed" >&2; exit 1; }
echo "kernels: ${kernels[*]}"

step "seg6ctl and unit tests"
if make -s tools WERROR=1 && make -s unit WERROR=1; then
	summary+=("unit tests: passed")
else
	summary+=("unit tests: FAILED"); fail=1
fi

# Before the DKMS installs below: the package test removes seg6x from
# DKMS and leaves it removed; those installs put the developer build back.
step "Debian packages (build, lintian, install, VM, purge)"
if [ "${SEG6X_SKIP_PKG:-0}" = 1 ]; then
	summary+=("packages: skipped (SEG6X_SKIP_PKG=1)")
elif tests/pkg/test-packages.sh --no-restore; then
	summary+=("packages: passed")
else
	summary+=("packages: FAILED"); fail=1
fi

for k in "${kernels[@]}"; do
	step "module build for $k (-Werror, sparse)"
	# sparse reports on stderr without failing the build: grep for it
	if ! make -s KVER="$k" module SEG6X_EXTRA_CFLAGS=-Werror ||
		! sparse_out=$(make -s KVER="$k" sparse 2>&1) ||
		grep -E 'warning|error' <<<"$sparse_out"; then
		summary+=("$k: build or sparse FAILED"); fail=1
		continue
	fi
	step "DKMS install for $k"
	if ! make -s KVER="$k" dkms-install >/dev/null; then
		summary+=("$k: dkms install FAILED"); fail=1
		continue
	fi
done

for k in "${kernels[@]}"; do
	step "VM tests on $k"
	out=$(mktemp -d)
	tests/vm/run-vm.sh "$k" -t "${SEG6X_VM_TIMEOUT:-1800}" -o "$out" -- \
		tests/vm/guest-tests.sh 2>&1 | tee "$out/host.log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^=*ing? ?[0-9]+ (passed|failed)|[0-9]+ (passed|failed).* in [0-9.]+s' \
		"$out/host.log" | tail -n 1 | sed 's/^=* *//; s/ *=*$//')
	summary+=("$k: ${line:-no pytest summary} (exit $rc)")
	[ "$rc" = 0 ] || fail=1
done

step "summary"
printf '%s\n' "${summary[@]}"
exit $fail
