#!/bin/bash
# make check-debug: the VM suite (and the fuzz/churn tests, when present)
# on a kernel built with KASAN, KFENCE, UBSAN, lockdep, RCU and object
# debugging, kmemleak and the networking refcount trackers. As root on
# Debian 12:
#   1. makes sure the debug kernel is installed (build-kernel.sh: builds
#      it the first time on a machine, about an hour on 2 cores)
#   2. builds seg6x against it with -Werror, from a private copy of the
#      sources, and installs it into /lib/modules/KVER/updates
#   3. boots it in a VM: guest-debug.sh runs the whole VM suite, then
#      tests/fuzz/run-all.sh if it exists, then a kmemleak scan
#   4. fails on any failed test or kernel report (KASAN, KFENCE, UBSAN,
#      lockdep, RCU, BUG/WARNING/Oops, refcount, kmemleak) in the guest
# Arguments go to pytest (e.g. -k endpoint). Prints a summary; exits
# non-zero on any failure. Environment: SEG6X_DEBUG_TIMEOUT (VM timeout,
# s, default 7200), SEG6X_VM_MEM (MiB, default 3072 here), SEG6X_DEBUG_CACHE,
# SEG6X_DEBUG_FUZZ=0 (the suite and kmemleak only: a partial run, said so),
# SEG6X_FUZZ_PACKETS/_MESSAGES/_CHURN/_SEED (tests/fuzz/run-all.sh),
# SEG6X_TIME_FACTOR (the suite's waits, default 4 here).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

[ "$(id -u)" = 0 ] || { echo "make check-debug: run as root" >&2; exit 2; }

lock=/tmp/seg6x-vm.lock
cache=${SEG6X_DEBUG_CACHE:-/var/cache/seg6x-debug}
step() { printf '\n==== %s\n' "$*"; }
summary=()
fail=0

step "debug kernel"
t0=$(date +%s)
kver=$(tests/debug/build-kernel.sh) || {
	echo "check-debug: no debug kernel" >&2
	printf '\n==== summary\ndebug kernel: FAILED\ncheck-debug: FAILED\n'
	exit 1
}
kdir=$cache/headers/$kver/usr/src/linux-headers-$kver
summary+=("debug kernel: $kver (ready in $(($(date +%s) - t0)) s)")
echo "kernel $kver, KDIR $kdir"

step "seg6ctl"
if ! make -s tools WERROR=1; then
	summary+=("seg6ctl build: FAILED"); fail=1
fi

# The module is built in a copy of the sources: others may be building
# module/ in the work tree for other kernels at the same time.
out=$(mktemp -d /tmp/seg6x-debug.XXXXXX)
src=$out/src
step "module build for $kver (-Werror) and install into /lib/modules/$kver/updates"
mkdir -p "$src"
cp -r Makefile VERSION uapi "$src/"
mkdir "$src/module"
cp module/Kbuild module/*.[ch] "$src/module/"
rm -f "$src/module/"*.mod.c
if make -s -C "$src" KVER="$kver" KDIR="$kdir" module SEG6X_EXTRA_CFLAGS=-Werror; then
	summary+=("module build (-Werror): passed")
else
	summary+=("module build (-Werror): FAILED"); fail=1
fi

# One hold of the lock for the install and the VM run, released at exit.
if [ $fail = 0 ]; then
	t0=$(date +%s)
	echo "waiting for $lock"
	exec 9>"$lock"
	flock 9
	echo "got $lock after $(($(date +%s) - t0)) s"
	if make -s -C "$src" KVER="$kver" KDIR="$kdir" module-install; then
		summary+=("module install into /lib/modules/$kver/updates: passed")
	else
		summary+=("module install: FAILED"); fail=1
	fi
fi

step "VM: suite, fuzz/churn, kmemleak on $kver (timeout ${SEG6X_DEBUG_TIMEOUT:-7200} s)"
rc=skipped
if [ $fail = 0 ]; then
	t0=$(date +%s)
	# kasan_multi_shot: report every KASAN finding, not just the first.
	SEG6X_VM_MEM=${SEG6X_VM_MEM:-3072} \
	SEG6X_VM_APPEND="kasan_multi_shot no_hash_pointers ${SEG6X_VM_APPEND:-}" \
		tests/vm/run-vm.sh "$kver" -t "${SEG6X_DEBUG_TIMEOUT:-7200}" -o "$out" -- \
		tests/debug/guest-debug.sh "$@" 2>&1 | tee "$out/host.log"
	rc=${PIPESTATUS[0]}
	secs=$(($(date +%s) - t0))
	exec 9>&-
	echo "VM run: $((secs / 60)) min $((secs % 60)) s, exit $rc"

	line=$(grep -E '[0-9]+ (passed|failed).* in [0-9.]+s' "$out/host.log" | tail -n 1 |
		sed 's/^=* *//; s/ *=*$//')
	st=$(cat "$out/suite.status" 2>/dev/null || echo "no status")
	summary+=("VM suite: ${line:-no pytest summary} (exit $st)")
	[ "$st" = 0 ] || fail=1
	fz=$(cat "$out/fuzz.status" 2>/dev/null || echo "no status")
	case $fz in
	skipped) summary+=("fuzz/churn: SKIPPED (SEG6X_DEBUG_FUZZ=0 or no tests/fuzz/run-all.sh): a partial run") ;;
	0) summary+=("fuzz/churn: passed") ;;
	*) summary+=("fuzz/churn: FAILED (exit $fz)"); fail=1 ;;
	esac
	[ "$rc" = 0 ] || { summary+=("VM: exit $rc (124 timeout, 125 guest died)"); fail=1; }

	# Kernel reports: the guest's dmesg, or its console log if the guest
	# never got to write it (panic, timeout).
	log=$out/dmesg.txt
	[ -s "$log" ] || log=$out/console.log
	# What counts as a report is defined once, for the guest's tests too.
	python3 tests/vm/tests/lib/kernlog.py -n >"$out/reports.txt" 2>/dev/null <"$log"
	nrep=$(wc -l <"$out/reports.txt")
	if [ "$nrep" = 0 ]; then
		summary+=("kernel reports: none")
	else
		summary+=("kernel reports: $nrep line(s), first: $(head -n 1 "$out/reports.txt" | cut -d: -f2-)")
		fail=1
		step "kernel reports (from $log)"
		cat "$out/reports.txt"
		# Each report with the top of its stack trace, seg6x frames marked.
		while IFS=: read -r n _; do
			sed -n "${n},$((n + 40))p" "$log" | grep -m 12 -E \
				'KASAN|KFENCE|UBSAN|BUG|WARNING|RIP:|^\[[ 0-9.]+\]  ? ?[a-z_0-9.]+\+0x|seg6x' || true
			echo "--"
		done < <(head -n 5 "$out/reports.txt")
	fi
	if [ -f "$out/kmemleak.txt" ]; then
		nleak=$(grep -c '^unreferenced object' "$out/kmemleak.txt")
		if [ "$nleak" = 0 ]; then
			summary+=("kmemleak: clean")
		else
			summary+=("kmemleak: $nleak unreferenced object(s), see $out/kmemleak.txt"); fail=1
		fi
	else
		summary+=("kmemleak: no scan"); fail=1
	fi
fi

step "summary"
printf '%s\n' "${summary[@]}"
if [ $fail = 0 ]; then
	echo "check-debug: passed"
	rm -rf "$out"
else
	echo "check-debug: FAILED (guest logs in $out)"
fi
exit $fail
