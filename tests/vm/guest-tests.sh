#!/bin/bash
# Runs inside the VM (as root, host root filesystem shared read-only):
# the pytest suite against the seg6x module installed by DKMS for the
# running kernel. Arguments go to pytest (e.g. -k endpoint); when one of
# them names a test file or directory, only what they name runs (else the
# whole of tests/vm/tests).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH=/usr/sbin:/usr/bin:/sbin:/bin PYTHONDONTWRITEBYTECODE=1
echo "== seg6x VM tests on $(uname -r)"
suite=tests/vm/tests
for a in "$@"; do
	case $a in
	-*) ;;
	*) if [ -e "${a%%::*}" ]; then suite=; break; fi ;;
	esac
done
/usr/bin/python3 -m pytest -p no:cacheprovider -q -rfE \
	--junitxml="${SEG6X_OUT:-/tmp}/junit-$(uname -r).xml" \
	$suite "$@"
