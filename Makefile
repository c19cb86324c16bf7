# SPDX-License-Identifier: GPL-2.0
#
# seg6x top-level Makefile.
#   make                 module (for KVER / KDIR), seg6ctl and seg6x-fpmd
#   make install         install both (module into updates/, depmod)
#   make dkms-src        the DKMS source tree, /usr/src/seg6x-VERSION (DESTDIR=...)
#   make dkms-install    register, build and install the module with DKMS for KVER
#   make check           unit tests + VM tests on every supported kernel
#   make test KVER=K     seg6ctl, DKMS install and the VM suite on kernel K only
#                        (T="-k sid" passes pytest arguments): the quick loop
#   make check-all       make check, then the VM tests on Debian sid's 7.x kernel
#   make check-debug     VM tests on a KASAN/lockdep/kmemleak kernel (built once)
#   make demo            boot a VM and show seg6x at work
#   make bench           throughput ratios vs the in-tree seg6 (in a VM)
#   make bench-insn      instructions per packet, the same cases (PROFILE=1: top functions)
#   make bench-goodput   TCP goodput through an encapsulating headend, in-tree vs seg6x
#   make bench-cp        routes and SIDs installed per second, ip -b vs seg6ctl -b (N=, KVER=)
#   make bench-fpm       BGP VPN prefixes through seg6x-fpmd vs zebra's kernel install (N=, KVER=)
#   make sparse | checkpatch   static checks of the module
#   make lint            function length and include circles in module/, tools/

VERSION := $(shell cat VERSION)
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
DESTDIR ?=
PREFIX ?= /usr
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/seg6ctl
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
UNITDIR ?= /lib/systemd/system
SYSCONFDIR ?= /etc
DKMS_SRC := /usr/src/seg6x-$(VERSION)

# What DKMS builds the module from, relative to the top directory: the one
# list that both `make dkms-src` and the seg6x-dkms package (debian/rules)
# install. Kbuild's generated files (*.mod.c) are not sources.
MODULE_SOURCES := $(sort $(filter-out %.mod.c,$(wildcard module/*.c)) \
		  $(wildcard module/*.h)) module/Kbuild
DKMS_FILES := VERSION uapi/linux/seg6x.h $(MODULE_SOURCES)

# What the seg6ctl package ships besides the binary and seg6ctl(8).
EXAMPLES := tools/examples/seg6x.conf tools/examples/modprobe.d-seg6x.conf \
	    tools/examples/modules-load.d-seg6x.conf
# A worked example (examples/three-routers/README.md): per router, its
# ip batch file and its seg6ctl batch file.
THREE_ROUTERS := $(addprefix examples/three-routers/,README.md \
	    r1.ip r2.ip r3.ip r1.conf r2.conf r3.conf)

all: module tools

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

tools:
	$(MAKE) -C tools/seg6ctl
	$(MAKE) -C tools/fpmd

# seg6x-fpmd alone: the daemon, seg6x-fpmd(8), seg6x-fpmd.service and the
# example FRR configurations of a PE pair.
FRR_EXAMPLES := tools/examples/frr/pe1.frr.conf tools/examples/frr/pe2.frr.conf

fpmd-install:
	$(MAKE) -C tools/fpmd install DESTDIR=$(DESTDIR)
	install -D -m 0644 tools/systemd/seg6x-fpmd.service \
		$(DESTDIR)$(UNITDIR)/seg6x-fpmd.service
	install -d $(DESTDIR)$(DOCDIR)/examples/frr
	install -m 0644 $(FRR_EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/frr/

install: module-install tools-install module-doc-install

module-install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KVER)

# seg6ctl, seg6ctl(8), bash completion, seg6x.service, the metrics timer
# for node_exporter, the hooks that re-apply /etc/seg6x/seg6x.conf when an
# interface comes up, examples, and seg6x-fpmd (fpmd-install).
tools-install: tools fpmd-install
	$(MAKE) -C tools/seg6ctl install DESTDIR=$(DESTDIR)
	install -D -m 0644 tools/completion/seg6ctl $(DESTDIR)$(BASHCOMPDIR)/seg6ctl
	install -D -m 0755 tools/upgrade/seg6x-upgrade $(DESTDIR)$(PREFIX)/sbin/seg6x-upgrade
	install -D -m 0644 tools/upgrade/seg6x-upgrade.8 $(DESTDIR)$(MANDIR)/man8/seg6x-upgrade.8
	install -D -m 0644 tools/systemd/seg6x.service $(DESTDIR)$(UNITDIR)/seg6x.service
	install -D -m 0644 tools/systemd/seg6x@.service $(DESTDIR)$(UNITDIR)/seg6x@.service
	install -m 0644 tools/systemd/seg6x-metrics.service \
		tools/systemd/seg6x-metrics.timer $(DESTDIR)$(UNITDIR)/
	install -D -m 0755 tools/hooks/seg6x-reapply \
		$(DESTDIR)$(SYSCONFDIR)/network/if-up.d/seg6x
	# networkd: links with only link-local addresses never get routable
	for d in carrier.d degraded.d routable.d; do \
		install -D -m 0755 tools/hooks/seg6x-reapply \
			$(DESTDIR)$(SYSCONFDIR)/networkd-dispatcher/$$d/50-seg6x || exit 1; \
	done
	install -D -m 0755 tools/hooks/seg6x-reapply \
		$(DESTDIR)$(SYSCONFDIR)/NetworkManager/dispatcher.d/50-seg6x
	install -d $(DESTDIR)$(DOCDIR)/examples
	install -m 0644 $(EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/
	install -d $(DESTDIR)$(DOCDIR)/examples/three-routers
	install -m 0644 $(THREE_ROUTERS) $(DESTDIR)$(DOCDIR)/examples/three-routers/

# seg6x(7), the module's manual page.
module-doc-install:
	install -D -m 0644 docs/seg6x.7 $(DESTDIR)$(MANDIR)/man7/seg6x.7

# DKMS builds from a copy of the sources in /usr/src/seg6x-VERSION;
# dkms.conf gets its PACKAGE_VERSION from VERSION here.
dkms-src:
	rm -rf $(DESTDIR)$(DKMS_SRC)
	install -d $(DESTDIR)$(DKMS_SRC)
	for f in $(DKMS_FILES); do install -D -m 0644 $$f $(DESTDIR)$(DKMS_SRC)/$$f || exit 1; done
	sed 's/#MODULE_VERSION#/$(VERSION)/g' dkms.conf >$(DESTDIR)$(DKMS_SRC)/dkms.conf

dkms-install: dkms-src
	dkms remove seg6x/$(VERSION) -k $(KVER) >/dev/null 2>&1 || true
	dkms add seg6x/$(VERSION) >/dev/null 2>&1 || true
	dkms build seg6x/$(VERSION) -k $(KVER)
	dkms install seg6x/$(VERSION) -k $(KVER) --force

dkms-remove:
	dkms remove seg6x/$(VERSION) --all || true
	rm -rf $(DKMS_SRC)

check:
	tests/check.sh

# The developer's loop: one kernel, no unit or package tests. KVER must be
# given (a kernel of tests/vm/kernels.sh: the VM boots it).
test:
	@[ "$(origin KVER)" = "command line" ] || \
		{ echo "make test: give a test kernel, e.g. make test KVER=$$(tests/vm/kernels.sh | tail -n 1)" >&2; exit 2; }
	$(MAKE) -s tools
	$(MAKE) -s KVER=$(KVER) dkms-install >/dev/null
	tests/vm/run-vm.sh $(KVER) -- tests/vm/guest-tests.sh $(T)

# make check, then the VM suite on Debian sid's 7.x kernel (downloads about
# 1 GB once: a sid chroot and the kernel packages; see tests/unstable/README.md).
check-all: check
	tests/unstable/run-sid-vm.sh

# The VM suite, fuzz and churn tests on a debug kernel (KASAN, UBSAN,
# lockdep, kmemleak...) built once per machine; see tests/debug/README.md.
check-debug:
	tests/debug/check-debug.sh

demo:
	tests/demo.sh

# Functions of at most 60 lines, no include circle (tests/lint/lint.py).
lint:
	tests/lint/lint.py

unit:
	$(MAKE) -C tests/unit check

# Throughput ratios in one VM run (plain forwarding, in-tree seg6, seg6x).
bench:
	tests/bench/run.sh $(if $(filter command line,$(origin KVER)),$(KVER))

# Guest instructions per packet: deterministic where pps are not.
bench-insn:
	tests/bench/run.sh $(if $(PROFILE),--profile,--insn) \
		$(if $(filter command line,$(origin KVER)),$(KVER))

bench-goodput:
	tests/bench/run.sh --goodput \
		$(if $(filter command line,$(origin KVER)),$(KVER))

# BGP VPN prefixes (N, default 10000) through seg6x-fpmd vs zebra's own
# kernel install, in the FRR lab.
bench-fpm:
	tests/bench/run.sh --fpm $(if $(filter command line,$(origin KVER)),$(KVER)) \
		$(if $(N),-- -n $(N))

# Control-plane rates: N routes and N SIDs (default 100000) installed and
# flushed with ip and with seg6ctl, and kernel memory per entry; on every
# test kernel unless KVER is given.
bench-cp:
	tests/bench/cprate.sh $(if $(N),-n $(N)) \
		$(if $(filter command line,$(origin KVER)),$(KVER))

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module C=2 CF="-D__CHECK_ENDIAN__" modules

checkpatch:
	tests/checkpatch.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/module clean 2>/dev/null
	rm -f module/*.o module/*.ko module/*.mod* module/.*.cmd module/Module.symvers module/modules.order
	$(MAKE) -C tools/seg6ctl clean
	$(MAKE) -C tools/fpmd clean
	-$(MAKE) -C tests/unit clean
	rm -rf build

.PHONY: test lint all module tools fpmd-install install module-install tools-install module-doc-install dkms-src \
	dkms-install dkms-remove check check-all check-debug demo unit bench bench-insn bench-goodput bench-cp bench-fpm sparse \
	checkpatch clean
