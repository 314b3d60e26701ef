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

KDIR ?= /lib/modules/$(shell uname -r)/build
BUILD ?= build
TARGET ?= host
GUEST_ARCH ?= armhf

VERSION := 0.1.0
LIB_ABI := 1

CROSS_host :=
CROSS_armhf := arm-linux-gnueabihf-
CROSS_arm64 := aarch64-linux-gnu-
CC := $(CROSS_$(TARGET))gcc
AR := $(CROSS_$(TARGET))ar

USER_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
USER_CPPFLAGS := -Iuapi -Ilibpmudev

OUT := $(BUILD)/$(TARGET)
LIB_SRCS := $(wildcard libpmudev/*.c)
LIB_HDRS := $(wildcard libpmudev/*.h) uapi/linux/armpmu.h
LIB_OBJS := $(patsubst libpmudev/%.c,$(OUT)/obj/libpmudev/%.o,$(LIB_SRCS))
LIB_SONAME := libpmudev.so.$(LIB_ABI)
LIB_SHARED := $(OUT)/lib/libpmudev.so.$(LIB_ABI).0.0
LIB_STATIC := $(OUT)/lib/libpmudev.a

PROG_HDRS := $(wildcard tests/guest/*.h) $(LIB_HDRS)
PROGS := $(patsubst %.c,$(OUT)/bin/%,$(notdir $(wildcard tests/guest/*.c examples/*.c)))

.PHONY: all modules userland guest-userland check demo clean

all: modules userland

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userland: $(LIB_SHARED) $(LIB_STATIC) $(PROGS)

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
