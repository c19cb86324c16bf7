#!/bin/bash
# checkpatch.pl --strict over the module's sources, taken from Debian's
# linux-source-6.1 (unpacked once into build/).
set -euo pipefail
cd "$(dirname "$0")/.."
tar=/usr/src/linux-source-6.1.tar.xz
cp_dir=build/checkpatch
if [ ! -x $cp_dir/scripts/checkpatch.pl ]; then
	[ -r $tar ] || { echo "needs linux-source-6.1 (apt-get install linux-source-6.1)" >&2; exit 2; }
	mkdir -p $cp_dir
	tar -xJf $tar -C $cp_dir --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
# Out-of-tree: no git tree or MAINTAINERS to consult.
$cp_dir/scripts/checkpatch.pl --strict --no-tree --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG \
	-f $(ls module/*.[ch] | grep -v "\.mod\.c$") uapi/linux/seg6x.h
