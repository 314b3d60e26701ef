# armpmu top-level Makefile.
#
#   make modules            build armpmu.ko for the running kernel (KDIR=...)
#   make demo               boot an emulated Raspberry Pi 2-class board and measure
#   make check              every test: host checks and all emulated boards
#   make guest-userland GUEST_ARCH=armhf|arm64
#                           cross-build the programs installed in emulated boards

KDIR ?= /lib/modules/$(shell uname -r)/build
BUILD ?= build

GUEST_ARCH ?= armhf
CROSS_armhf := arm-linux-gnueabihf-
CROSS_arm64 := aarch64-linux-gnu-

USER_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
USER_CPPFLAGS := -Iuapi

GUEST_HDRS := $(wildcard tests/guest/*.h) uapi/linux/armpmu.h
GUEST_BIN := $(BUILD)/$(GUEST_ARCH)/bin
GUEST_PROGS := $(patsubst %.c,$(GUEST_BIN)/%,$(notdir $(wildcard tests/guest/*.c examples/*.c)))

.PHONY: all modules clean check demo guest-userland

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

guest-userland: $(GUEST_PROGS)

# Test programs are static so they also run as 32-bit programs on arm64 boards.
vpath %.c tests/guest examples
$(GUEST_BIN)/%: %.c $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CROSS_$(GUEST_ARCH))gcc $(USER_CPPFLAGS) $(USER_CFLAGS) -static -o $@ $<

check:
	tests/run

demo:
	tools/demo

clean:
	rm -rf $(BUILD)
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
