# armpmu top-level Makefile.
#
#   make                    the module for the running kernel (KDIR=...) and
#                           the library and programs for this machine
#   make demo               boot an emulated Raspberry Pi 2-class board and measure
#   make check              every test: host checks and all emulated boards
#   make guest-userland GUEST_ARCH=armhf|arm64
#                           cross-build what the emulated boards install
#   make userland TARGET=host|armhf|arm64
#                           library and programs for one target, in build/TARGET
#                           (host: the library and pmuctl; the ARM targets also
#                           the guest test programs and examples, and take
#                           libkmod from KMOD_SYSROOT, by default lab/sysroot's)

KDIR ?= /lib/modules/$(shell uname -r)/build
BUILD ?= build
TARGET ?= host
GUEST_ARCH ?= armhf

VERSION := 0.1.0
LIB_ABI := 1

CROSS_host :=
CROSS_armhf := arm-linux-gnueabihf-
CROSS_arm64 := aarch64-linux-gnu-
TRIPLET_armhf := arm-linux-gnueabihf
TRIPLET_arm64 := aarch64-linux-gnu
CC := $(CROSS_$(TARGET))gcc
AR := $(CROSS_$(TARGET))ar
PREFIX ?= /usr/local

USER_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
USER_CPPFLAGS := -Iuapi -Ilibpmudev

OUT := $(BUILD)/$(TARGET)
LIB_SRCS := $(wildcard libpmudev/*.c)
LIB_HDRS := $(wildcard libpmudev/*.h) uapi/linux/armpmu.h
LIB_OBJS := $(patsubst libpmudev/%.c,$(OUT)/obj/libpmudev/%.o,$(LIB_SRCS))
LIB_SONAME := libpmudev.so.$(LIB_ABI)
LIB_SHARED := $(OUT)/lib/libpmudev.so.$(LIB_ABI).0.0
LIB_STATIC := $(OUT)/lib/libpmudev.a

LIB_PC := $(OUT)/lib/pkgconfig/libpmudev.pc

PROG_HDRS := $(wildcard tests/guest/*.h) $(LIB_HDRS)
# The guest programs are ARM code (exact-count loops in assembly).
ifneq ($(TARGET),host)
PROGS := $(patsubst %.c,$(OUT)/bin/%,$(notdir $(wildcard tests/guest/*.c examples/*.c)))
endif

# pmuctl: dynamic, since Debian ships libkmod as a shared library only.
PMUCTL := $(OUT)/bin/pmuctl
PMUCTL_SRCS := $(wildcard tools/pmuctl/*.c)
PMUCTL_OBJS := $(patsubst tools/pmuctl/%.c,$(OUT)/obj/pmuctl/%.o,$(PMUCTL_SRCS))
PMUCTL_HDRS := $(wildcard tools/pmuctl/*.h) $(LIB_HDRS)
ifneq ($(TARGET),host)
ifeq ($(origin KMOD_SYSROOT),undefined)
KMOD_SYSROOT := $(shell lab/sysroot --arch $(TARGET) 2>/dev/null)
endif
ifeq ($(KMOD_SYSROOT),)
$(error no libkmod for $(TARGET): lab/sysroot --arch $(TARGET) failed (run it to see why))
endif
KMOD_LIBDIRS := $(KMOD_SYSROOT)/usr/lib/$(TRIPLET_$(TARGET)):$(KMOD_SYSROOT)/lib/$(TRIPLET_$(TARGET))
KMOD_CPPFLAGS := -I$(KMOD_SYSROOT)/usr/include
KMOD_LDFLAGS := -L$(KMOD_SYSROOT)/usr/lib/$(TRIPLET_$(TARGET)) -Wl,-rpath-link,$(KMOD_LIBDIRS)
endif

.PHONY: all modules userland guest-userland check demo clean

all: modules userland

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userland: $(LIB_SHARED) $(LIB_STATIC) $(LIB_PC) $(PROGS) $(PMUCTL)

guest-userland:
	@$(MAKE) --no-print-directory TARGET=$(GUEST_ARCH) userland

$(OUT)/obj/libpmudev/%.o: libpmudev/%.c $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -fPIC -c -o $@ $<

$(LIB_SHARED): $(LIB_OBJS) libpmudev/libpmudev.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=libpmudev/libpmudev.map \
		-o $@ $(LIB_OBJS)
	ln -sf $(notdir $@) $(OUT)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(OUT)/lib/libpmudev.so

$(LIB_STATIC): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_PC): libpmudev/libpmudev.pc.in
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(PREFIX)/lib|' \
		-e 's|@INCLUDEDIR@|$(PREFIX)/include|' -e 's|@VERSION@|$(VERSION)|' $< >$@

$(OUT)/obj/pmuctl/%.o: tools/pmuctl/%.c $(PMUCTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(KMOD_CPPFLAGS) -DPMUCTL_VERSION='"$(VERSION)"' \
		$(USER_CFLAGS) -c -o $@ $<

$(PMUCTL): $(PMUCTL_OBJS) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) -o $@ $(PMUCTL_OBJS) -L$(OUT)/lib -lpmudev $(KMOD_LDFLAGS) -lkmod -lm

# Test programs and examples are static (with libpmudev.a), so they also
# run as 32-bit programs on arm64 boards and on boards without the library.
vpath %.c tests/guest examples
$(OUT)/bin/%: %.c $(PROG_HDRS) $(LIB_STATIC)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -static -o $@ $< $(LIB_STATIC)

check:
	tests/run

demo:
	tools/demo

clean:
	rm -rf $(BUILD)
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
