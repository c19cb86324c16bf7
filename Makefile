# SPDX-License-Identifier: GPL-2.0
#
# seg6x top-level Makefile.
#   make                 module (for KVER / KDIR) and seg6ctl
#   make install         install both (module into updates/, depmod)
#   make dkms-install    register, build and install the module with DKMS for KVER
#   make check           unit tests + VM tests on every supported kernel
#   make demo            boot a VM and show seg6x at work
#   make bench           throughput ratios vs the in-tree seg6 (in a VM)
#   make sparse | checkpatch   static checks of the module

VERSION := $(shell cat VERSION)
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
DESTDIR ?=
DKMS_SRC := /usr/src/seg6x-$(VERSION)
MODULE_SOURCES := $(wildcard module/*.c module/*.h) module/Kbuild

all: module tools

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

tools:
	$(MAKE) -C tools/seg6ctl

install: module-install tools-install

module-install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KVER)

tools-install: tools
	$(MAKE) -C tools/seg6ctl install DESTDIR=$(DESTDIR)

# DKMS builds from a copy of the sources in /usr/src/seg6x-VERSION.
dkms-src:
	@grep -q '^PACKAGE_VERSION="$(VERSION)"$$' dkms.conf || \
		{ echo "dkms.conf PACKAGE_VERSION does not match VERSION ($(VERSION))" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/module $(DKMS_SRC)/uapi/linux
	cp dkms.conf VERSION $(DKMS_SRC)/
	cp $(MODULE_SOURCES) $(DKMS_SRC)/module/
	cp uapi/linux/seg6x.h $(DKMS_SRC)/uapi/linux/

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

demo:
	tests/demo.sh

unit:
	$(MAKE) -C tests/unit check

# Throughput ratios in one VM run (plain forwarding, in-tree seg6, seg6x).
bench:
	tests/bench/run.sh $(if $(filter command line,$(origin KVER)),$(KVER))

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module C=2 CF="-D__CHECK_ENDIAN__" modules

checkpatch:
	tests/checkpatch.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/module clean 2>/dev/null
	rm -f module/*.o module/*.ko module/*.mod* module/.*.cmd module/Module.symvers module/modules.order
	$(MAKE) -C tools/seg6ctl clean
	-$(MAKE) -C tests/unit clean
	rm -rf build

.PHONY: all module tools install module-install tools-install dkms-src \
	dkms-install dkms-remove check demo unit bench sparse checkpatch clean
