# SPDX-License-Identifier: GPL-2.0
# tools/common.mk: what every program and library under tools/ builds
# with. Included by their Makefiles after they set TOPDIR.

PREFIX ?= /usr
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

PKG_CONFIG ?= pkg-config
LIBNL := libnl-3.0 libnl-genl-3.0

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra
# WERROR=1 (make check) turns warnings into errors; packages build without.
ifeq ($(WERROR),1)
CFLAGS += -Werror
endif

LIBDIR := $(TOPDIR)/tools/lib
LIBSEG6X := $(LIBDIR)/libseg6x.a

CPPFLAGS += -D_GNU_SOURCE -I$(TOPDIR)/uapi \
	    $(shell $(PKG_CONFIG) --cflags $(LIBNL))

%.o: %.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
