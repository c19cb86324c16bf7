#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every seg6ctl batch file among the examples (examples/*/*.conf, and the
# packaged /etc/seg6x/seg6x.conf template) passes "seg6ctl -c -b": the
# examples cannot drift from what seg6ctl accepts.
set -u
seg6ctl=${1:-../../tools/seg6ctl/seg6ctl}
top=${2:-../..}
fail=0
n=0
for f in "$top"/examples/*/*.conf "$top"/tools/examples/seg6x.conf; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	"$seg6ctl" -c -force -b "$f" || { echo "test_examples: $f refused" >&2; fail=1; }
done
[ "$n" -gt 1 ] || { echo "test_examples: no example batch files under $top" >&2; exit 1; }
[ "$fail" = 0 ] || exit 1
echo "test_examples: $n files passed"
