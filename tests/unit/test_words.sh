#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# seg6ctl's first word, as ip reads it: an object's exact name, or else the
# first object in seg6ctl's table (the order "seg6ctl help" lists) that the
# word begins. Every object the usage lists has its own help. No kernel
# needed: "OBJECT help" never talks to it.
set -u
seg6ctl=${1:-../../tools/seg6ctl/seg6ctl}
fail() { echo "test_words: $*" >&2; exit 1; }

# WORD, then the object whose usage it must print.
while read -r word object; do
	out=$("$seg6ctl" "$word" help 2>&1) || fail "\"$word help\" failed: $out"
	first=$(echo "$out" | head -n 1)
	case $first in
	"Usage: seg6ctl $object"*) ;;
	*) fail "\"$word\" is not $object: $first" ;;
	esac
done <<'WORDS'
r route
h hmac
t tunsrc
i iface
in info
s sid
si sid
st stats
sa save
sid sid
stats stats
m monitor
sy sync
WORDS

# The usage lists every object, and each one answers help.
objects=$("$seg6ctl" help | sed -n 's/^OBJECT := { \(.*\) }$/\1/p' | tr -d '|')
[ -n "$objects" ] || fail "no OBJECT line in seg6ctl help"
for o in route hmac tunsrc iface sid stats info save monitor sync; do
	echo " $objects " | grep -q " $o " || fail "seg6ctl help does not list $o"
done
for o in $objects; do
	"$seg6ctl" "$o" help | head -n 1 | grep -q "^Usage: seg6ctl $o" ||
		fail "\"$o help\" prints no usage of $o"
done
[ "$("$seg6ctl" -h)" = "$("$seg6ctl" help)" ] || fail "-h and help differ"

# A word no object begins: a usage error, exit 2, with a hint.
out=$("$seg6ctl" x 2>&1)
[ $? = 2 ] || fail "\"x\": exit status not 2"
echo "$out" | grep -q '^seg6ctl: unknown object "x"' || fail "\"x\": $out"
echo "test_words: passed"
