#!/bin/bash
# run-vm.sh KVER [-t TIMEOUT_SECONDS] [-o OUTDIR] [-q QEMU_ARG]... -- COMMAND [ARGS...]
#
# Boots the stock Debian kernel KVER under qemu and runs COMMAND as root in
# the guest, inside the host's own root filesystem (shared read-only over
# virtio-9p).  The guest kernel is never the host kernel, so a buggy module
# can only crash the VM.  See tests/vm/README.md.
#
# Exit status: COMMAND's status; 124 if the timeout killed the guest; 125 if
# the guest died (panic, boot failure) before reporting a status; 2 on usage
# errors.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
self="$here/$(basename "${BASH_SOURCE[0]}")"
repo=$(cd "$here/../.." && pwd)

usage() {
	cat >&2 <<EOF
usage: $0 KVER [-t TIMEOUT_SECONDS] [-o OUTDIR] [-q QEMU_ARG]... -- COMMAND [ARGS...]

  KVER        installed kernel release, e.g. 6.1.0-57-amd64 (see kernels.sh)
  -t SECONDS  kill the guest after this long (default \$SEG6X_VM_TIMEOUT or 600)
  -o OUTDIR   host directory shared writable with the guest at \$SEG6X_OUT
              (/run/seg6x-out); receives dmesg.txt, console.log, output.log.
              Default: a temp dir, removed when COMMAND succeeds.
  -q QEMU_ARG one more argument for qemu, appended to its command line;
              repeat for each (e.g. -q -plugin -q ./libinsn.so,out=FILE)
Environment: SEG6X_VM_KVM=1 (use KVM), SEG6X_VM_CACHE (initramfs cache dir),
  SEG6X_VM_MEM (MiB, 1024), SEG6X_VM_SMP (2), SEG6X_VM_APPEND (extra kernel
  args), SEG6X_VM_TCG_THREAD (multi|single), SEG6X_VM_PVH=0 (boot bzImage).
  Variables named SEG6X_* (and CI) are passed into the guest.
Exit status: COMMAND's; 124 timeout; 125 guest died; 2 usage.
EOF
	exit 2
}

die() { echo "run-vm.sh: $*" >&2; exit 2; }

kver=""
timeout_s=${SEG6X_VM_TIMEOUT:-600}
outdir=""
extra_qemu=()
while [ $# -gt 0 ]; do
	case $1 in
	-t) [ $# -ge 2 ] || usage; timeout_s=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage; outdir=$2; shift 2 ;;
	-q) [ $# -ge 2 ] || usage; extra_qemu+=("$2"); shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) if [ -z "$kver" ]; then kver=$1; shift; else break; fi ;;
	esac
done
if [ -z "$kver" ] || [ $# -eq 0 ]; then usage; fi
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "bad timeout: $timeout_s"

kernel=/boot/vmlinuz-$kver
moddir=/lib/modules/$kver
[ -r "$kernel" ] || die "no kernel image $kernel (is linux-image-$kver installed? see setup.sh)"
[ -r "$moddir/modules.dep" ] || die "no $moddir/modules.dep"
busybox=$(command -v busybox || true)
[ -n "$busybox" ] || die "busybox not found (apt-get install busybox-static)"
# The initramfs has no libc, so busybox must be the static build.
if ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is dynamically linked; install busybox-static"
fi
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found"

# ---------------------------------------------------------------------------
# initramfs: static busybox + the kernel's own virtio-pci/9p modules + /init.
# Cached per kernel; rebuilt when the kernel's modules or this script change.
# ---------------------------------------------------------------------------
cache=${SEG6X_VM_CACHE:-$repo/build/vm}/$kver
initrd=$cache/initramfs.cpio

# Modules needed to reach the 9p root. Missing ones are either built in
# (e.g. virtio_pci on 6.12) or don't exist in that kernel (legacy_dev on old
# kernels); anything they depend on is pulled in through modules.dep.
wanted_modules="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev
	virtio_pci netfs fscache 9pnet 9pnet_virtio 9p"

# Prints the .ko paths (relative to $moddir) to load, dependencies first.
resolve_modules() {
	local line path deps base m
	local -A deps_of path_of seen
	while IFS= read -r line; do
		path=${line%%:*}
		deps=${line#*:}
		deps_of[$path]=$deps
		base=${path##*/}
		base=${base%%.ko*}
		path_of[${base//-/_}]=$path
	done <"$moddir/modules.dep"

	visit() {
		local p=$1 d
		[ -z "${seen[$p]:-}" ] || return 0
		seen[$p]=1
		for d in ${deps_of[$p]}; do visit "$d"; done
		echo "$p"
	}
	for m in $wanted_modules; do
		if [ -n "${path_of[$m]:-}" ]; then
			visit "${path_of[$m]}"
		fi
	done
}

# Copies a module uncompressed: busybox insmod can't read .ko.xz/.ko.zst.
copy_module() {
	case $1 in
	*.ko.xz) xz -dc "$1" 2>/dev/null >"$2" || "$busybox" xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) cp "$1" "$2" ;;
	esac
}

build_initramfs() {
	local tmp root n=0 rel name
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/.build.XXXXXX")
	root=$tmp/root
	mkdir -p "$root"/{bin,dev,proc,sys,newroot,modules}
	cp "$busybox" "$root/bin/busybox"
	# The kernel opens /dev/console for init before devtmpfs is mounted.
	mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true
	for rel in $(resolve_modules); do
		n=$((n + 1))
		name=$(printf '%02d-%s' "$n" "${rel##*/}")
		name=${name%%.ko*}.ko
		copy_module "$moddir/$rel" "$root/modules/$name"
	done
	guest_init >"$root/init"
	chmod 755 "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | "$busybox" cpio -o -H newc 2>/dev/null) \
		>"$tmp/initramfs.cpio"
	# Atomic replace: several run-vm.sh may share the cache concurrently.
	mv -f "$tmp/initramfs.cpio" "$initrd"
	rm -rf "$tmp"
}

# The guest's /init (busybox sh, PID 1). Kernel console = ttyS1 (a log file
# on the host); COMMAND's stdout/stderr = ttyS0 (the caller's stdout).
guest_init() {
	cat <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
exec </dev/null >/dev/ttyS0 2>&1
# No CR/LF translation, so the host sees the command's bytes unchanged.
stty -F /dev/ttyS0 -opost 2>/dev/null

OUT=/run/seg6x-out
log() { echo "seg6x-vm: $*"; }
halt_now() { sync; poweroff -f; echo o >/proc/sysrq-trigger; sleep 5; }
die() { log "$*"; log "kernel log:"; dmesg | tail -n 40; halt_now; }

for m in /modules/*.ko; do
	[ -e "$m" ] || continue
	insmod "$m" || log "insmod $m failed"
done

# hostroot: the host's / (read-only). cache=loose is safe because nothing
# changes the host files during a run, and it makes exec/stat much faster.
opts=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o "$opts,cache=loose,ro" hostroot /newroot ||
	die "cannot mount host root over 9p"
cd /newroot
# The kernel runs its module-autoload helper (e.g. for 'ip link add type
# dummy') in PID 1's root, i.e. the initramfs, not in the chroot: point it
# at a wrapper that runs the host's modprobe.
printf '#!/bin/sh\nexec /bin/chroot /newroot /sbin/modprobe "$@"\n' \
	>/bin/seg6x-modprobe
chmod 755 /bin/seg6x-modprobe
echo /bin/seg6x-modprobe >/proc/sys/kernel/modprobe
# Writable scratch areas on tmpfs; /var/run is a symlink to /run on Debian.
mount -t tmpfs -o mode=1777 tmpfs tmp
mount -t tmpfs -o mode=1777 tmpfs var/tmp
mount -t tmpfs -o mode=755 tmpfs run
mkdir -p run/lock run/netns .$OUT
chmod 1777 run/lock
ln -s /dev/shm run/shm
# Results: host OUTDIR, writable, no caching so the host sees every write.
mount -t 9p -o "$opts" seg6xout .$OUT || die "cannot mount output share"
if [ -s .$OUT/cwd-mount ]; then
	cwd=$(cat .$OUT/cwd-mount)
	mkdir -p ".$cwd"
	mount -t 9p -o "$opts,cache=loose,ro" seg6xcwd ".$cwd" ||
		die "cannot mount the working directory share"
fi
mount -t proc proc proc
mount -t sysfs sysfs sys
mount -t devtmpfs devtmpfs dev
mkdir -p dev/pts dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts dev/pts
mount -t tmpfs -o mode=1777 tmpfs dev/shm
ln -sf /proc/self/fd dev/fd
ln -sf /proc/self/fd/0 dev/stdin
ln -sf /proc/self/fd/1 dev/stdout
ln -sf /proc/self/fd/2 dev/stderr
# Optional pseudo filesystems; not all kernels/configs have them.
mount -t debugfs debugfs sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs sys/kernel/tracing 2>/dev/null
mount -t bpf bpf sys/fs/bpf 2>/dev/null
mount -t cgroup2 cgroup2 sys/fs/cgroup 2>/dev/null
hostname seg6x-vm
ip link set lo up

[ -r .$OUT/cmd.sh ] || die "no cmd.sh in output share"
# cmd.sh (written by the host) sets the environment, cd's and execs COMMAND.
env -i /bin/chroot /newroot /bin/bash $OUT/cmd.sh
rc=$?
dmesg -s 4194304 >.$OUT/dmesg.txt
# Written last: its presence tells the host the guest finished cleanly.
echo "$rc" >.$OUT/exit-status
halt_now
INIT
}

# Under TCG the bzImage's own decompressor is slow (~3 s for 6.1's xz), so
# boot the uncompressed vmlinux through its PVH ELF entry point instead.
# Returns non-zero if that isn't possible; the bzImage is used then.
extract_vmlinux() {  # extract_vmlinux DEST
	local fmt pat off tool tmp
	grep -q '^CONFIG_PVH=y' "/boot/config-$kver" 2>/dev/null || return 1
	tmp=$(mktemp "$1.XXXXXX")
	for fmt in xz zstd gzip; do
		case $fmt in
		xz) pat='\xfd7zXZ\x00'; tool="xz -dcq --single-stream" ;;
		zstd) pat='\x28\xb5\x2f\xfd'; tool="zstd -dcq" ;;
		gzip) pat='\x1f\x8b\x08'; tool="gzip -dcq" ;;
		esac
		command -v "${tool%% *}" >/dev/null || continue
		for off in $(LC_ALL=C grep -obUaP "$pat" "$kernel" | cut -d: -f1 | head -n 3); do
			# Decompressors complain about the bytes after the payload; the
			# ELF magic tells whether the payload itself came out.
			tail -c +$((off + 1)) "$kernel" | $tool >"$tmp" 2>/dev/null || true
			if [ "$(head -c 4 "$tmp" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
				chmod 644 "$tmp"
				mv -f "$tmp" "$1"
				return 0
			fi
		done
	done
	rm -f "$tmp"
	return 1
}

mkdir -p "$cache"
if [ "${SEG6X_VM_PVH:-1}" = 1 ]; then
	if [ ! -s "$cache/vmlinux" ] || [ "$kernel" -nt "$cache/vmlinux" ]; then
		# Remember failures (empty file) so we don't retry on every run.
		extract_vmlinux "$cache/vmlinux" || : >"$cache/vmlinux"
	fi
	[ -s "$cache/vmlinux" ] && kernel=$cache/vmlinux
fi

if [ ! -s "$initrd" ] || [ "$moddir/modules.dep" -nt "$initrd" ] ||
	[ "$self" -nt "$initrd" ] || [ "$busybox" -nt "$initrd" ]; then
	build_initramfs
fi

# ---------------------------------------------------------------------------
# Output directory and the command file the guest executes.
# ---------------------------------------------------------------------------
tmp_out=0
if [ -z "$outdir" ]; then
	outdir=$(mktemp -d "${TMPDIR:-/tmp}/seg6x-vm.XXXXXX")
	tmp_out=1
fi
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
rm -f "$outdir"/{cmd.sh,exit-status,dmesg.txt,console.log,output.log,cwd-mount}

guest_path=/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/sbin:/usr/local/bin
{
	echo "# generated by run-vm.sh"
	echo "export PATH=$guest_path HOME=/root TERM=dumb LANG=C.UTF-8"
	# HOME is read-only in the guest; send caches to tmpfs instead.
	echo "export PYTHONDONTWRITEBYTECODE=1 XDG_CACHE_HOME=/tmp/.cache"
	echo "export SEG6X_VM=1 SEG6X_OUT=/run/seg6x-out SEG6X_KVER=$(printf %q "$kver")"
	for name in $(compgen -e); do
		case $name in
		SEG6X_VM*|SEG6X_OUT|SEG6X_KVER) ;;
		SEG6X_*|CI) echo "export $name=$(printf %q "${!name}")" ;;
		esac
	done
	echo "cd $(printf %q "$PWD") 2>/dev/null || {"
	echo "	echo \"run-vm.sh: $(printf %q "$PWD") not visible in the guest\" >&2; cd /; }"
	printf 'exec'
	printf ' %q' "$@"
	echo
} >"$outdir/cmd.sh"

# ---------------------------------------------------------------------------
# Boot.
# ---------------------------------------------------------------------------
qarg() { printf '%s' "${1//,/,,}"; }   # qemu option values escape ',' as ',,'

if [ "${SEG6X_VM_KVM:-0}" = 1 ] && [ ! -w /dev/kvm ]; then
	echo "run-vm.sh: SEG6X_VM_KVM=1 but /dev/kvm is not usable; using TCG" >&2
	SEG6X_VM_KVM=0
fi
if [ "${SEG6X_VM_KVM:-0}" = 1 ]; then
	accel=(-accel kvm -cpu host)
else
	# KVM in this environment hangs at "Booting from ROM"; TCG always works.
	# SEG6X_VM_TCG_THREAD=single avoids cross-vCPU races of multi-threaded
	# TCG (seen once: a spurious int3 oops while the kernel patched code).
	accel=(-accel "tcg,thread=${SEG6X_VM_TCG_THREAD:-multi}" -cpu max)
fi

append="console=ttyS1 panic=-1 loglevel=7 ${SEG6X_VM_APPEND:-}"

# shellcheck disable=SC2054 # commas here are qemu's, not array separators
qemu=(qemu-system-x86_64 "${accel[@]}"
	-m "${SEG6X_VM_MEM:-1024}" -smp "${SEG6X_VM_SMP:-2}"
	-nodefaults -display none -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$append"
	# ttyS0: COMMAND's output -> our stdout (and output.log)
	-chardev "stdio,id=out,signal=off,logfile=$(qarg "$outdir/output.log")"
	-serial chardev:out
	# ttyS1: kernel console -> console.log (survives panics and hangs)
	-chardev "file,id=con,path=$(qarg "$outdir/console.log")"
	-serial chardev:con
	# remap: / spans several host filesystems; without it inode numbers of
	# different devices collide in the guest (e.g. /sys lands on the wrong inode).
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev "local,id=seg6xout,path=$(qarg "$outdir"),security_model=none"
	-device virtio-9p-pci,fsdev=seg6xout,mount_tag=seg6xout
)
# A working directory under a path the guest covers with tmpfs (CI may
# clone into /tmp) is exported on its own and mounted at the same path.
case $PWD/ in
/tmp/*|/var/tmp/*|/run/*)
	printf '%s\n' "$PWD" >"$outdir/cwd-mount"
	qemu+=(-fsdev "local,id=seg6xcwd,path=$(qarg "$PWD"),security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=seg6xcwd,mount_tag=seg6xcwd)
	;;
esac
qemu+=("${extra_qemu[@]}")

qemu_pid=""
# shellcheck disable=SC2317 # invoked by trap
cleanup() {
	if [ -n "$qemu_pid" ]; then kill "$qemu_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# timeout(1) returns 124 when it had to kill qemu. stdin is /dev/null so qemu
# never puts a terminal into raw mode or competes for its input.
timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null &
qemu_pid=$!
rc=0
wait "$qemu_pid" || rc=$?
qemu_pid=""

# show TITLE FILE: prints a guest kernel log, from the start of userspace on
# if it got that far (the boot messages before are the same every time).
show() {
	local from
	from=$(grep -n -m 1 'Run /init as init process' "$2" 2>/dev/null | cut -d: -f1 || true)
	echo "----- $1 ($2${from:+, from line $from}) -----" >&2
	if [ -s "$2" ]; then tail -n +"${from:-1}" "$2" >&2; else echo "(empty)" >&2; fi
	echo "----- end of $1 -----" >&2
}

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "run-vm.sh: TIMEOUT: guest ($kver) killed after ${timeout_s}s" >&2
	show "guest console" "$outdir/console.log"
	rc=124
elif [ -s "$outdir/exit-status" ]; then
	rc=$(cat "$outdir/exit-status")
	if [ "$rc" != 0 ]; then
		echo "run-vm.sh: command failed in guest ($kver) with status $rc" >&2
		show "guest dmesg" "$outdir/dmesg.txt"
	fi
else
	echo "run-vm.sh: guest ($kver) died without reporting a status" \
		"(qemu status $rc; kernel panic or boot failure?)" >&2
	show "guest console" "$outdir/console.log"
	rc=125
fi

if [ "$tmp_out" = 1 ]; then
	if [ "$rc" = 0 ]; then
		rm -rf "$outdir"
	else
		echo "run-vm.sh: guest output kept in $outdir" >&2
	fi
fi
exit "$rc"
