// SPDX-License-Identifier: GPL-2.0
/* pmuctl load and unload, through libkmod. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <libkmod.h>

#include "pmuctl.h"

#define MODULE_NAME "armpmu"

static void kernel_release(char *buf, size_t len)
{
	struct utsname u;

	snprintf(buf, len, "%s", uname(&u) ? "?" : u.release);
}

/* The installed module, or NULL (and a message) if there is none. */
static struct kmod_module *lookup(struct kmod_ctx *ctx)
{
	struct kmod_list *found = NULL;
	struct kmod_module *mod = NULL;
	char release[128];

	if (kmod_module_new_from_lookup(ctx, MODULE_NAME, &found) == 0 && found) {
		mod = kmod_module_get_module(found);
		kmod_module_unref_list(found);
	}
	if (mod && kmod_module_get_path(mod))
		return mod;
	kmod_module_unref(mod);
	kernel_release(release, sizeof(release));
	fail("the armpmu module is not installed for kernel %s: build and install it (make install, or DKMS; see README.md)",
	     release);
	return NULL;
}

/* @name is one of the module's declared parameters ("parm" in modinfo). */
static bool has_parameter(struct kmod_module *mod, const char *name, size_t len,
			  char *known, size_t known_len)
{
	struct kmod_list *info = NULL, *l;
	bool found = false;

	known[0] = '\0';
	if (kmod_module_get_info(mod, &info) < 0)
		return false;
	kmod_list_foreach(l, info) {
		const char *key = kmod_module_info_get_key(l);
		const char *value = kmod_module_info_get_value(l);
		size_t n;

		if (strcmp(key, "parm") || !value)
			continue;
		n = strcspn(value, ":");
		if (n == len && !strncmp(value, name, len))
			found = true;
		snprintf(known + strlen(known), known_len - strlen(known), "%s%.*s",
			 known[0] ? ", " : "", (int)n, value);
	}
	kmod_module_info_free_list(info);
	return found;
}

/* Checks PARAM=VALUE arguments and joins them into @options. */
static int build_options(struct kmod_module *mod, int argc, char **argv,
			 char *options, size_t len)
{
	char known[256];

	options[0] = '\0';
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i] || !eq[1])
			return usage_error("'%s': parameters are PARAM=VALUE", argv[i]);
		if (!has_parameter(mod, argv[i], (size_t)(eq - argv[i]), known, sizeof(known)))
			return usage_error("armpmu has no parameter '%.*s' (it has: %s)",
					   (int)(eq - argv[i]), argv[i], known[0] ? known : "none");
		if (strlen(options) + strlen(argv[i]) + 2 > len)
			return usage_error("too many parameters");
		if (options[0])
			strcat(options, " ");
		strcat(options, argv[i]);
	}
	return 0;
}

static int load(struct kmod_ctx *ctx, int argc, char **argv)
{
	struct kmod_module *mod = lookup(ctx);
	const char *configured;
	char options[1024];
	int err;

	if (!mod)
		return EXIT_FAILURE;
	err = build_options(mod, argc, argv, options, sizeof(options));
	if (err)
		goto out;
	if (kmod_module_get_initstate(mod) == KMOD_MODULE_LIVE) {
		err = argc > 1 ? fail("armpmu is already loaded; unload it first to change its parameters") :
				 (printf("armpmu is already loaded\n"), EXIT_SUCCESS);
		goto out;
	}
	/*
	 * As modprobe does: the options of the modprobe.d files first, then
	 * the command line's (the kernel keeps the last of a parameter).
	 */
	configured = kmod_module_get_options(mod);
	err = kmod_module_probe_insert_module(mod, KMOD_PROBE_FAIL_ON_LOADED, options, NULL, NULL,
					      NULL);
	switch (err) {
	case 0:
		printf("armpmu loaded%s%s", options[0] ? " with " : "", options);
		if (configured && configured[0])
			printf(" (%s modprobe.d's %s)", options[0] ? "after" : "with", configured);
		putchar('\n');
		break;
	case -EEXIST:
		err = (printf("armpmu is already loaded\n"), EXIT_SUCCESS);
		break;
	case -EPERM:
		err = fail("only root may load kernel modules");
		break;
	case -EINVAL:
		err = fail("the kernel refused armpmu: a parameter value is out of range (dmesg says which)");
		break;
	case -ENODEV:
		err = fail("the kernel refused armpmu: no CPU has a PMU it can use (dmesg says why)");
		break;
	case -ENOEXEC:
	case -EKEYREJECTED:
		err = fail("the kernel refused %s: not built for this kernel, or not signed as it requires",
			   kmod_module_get_path(mod));
		break;
	default:
		err = fail("cannot load armpmu: %s", strerror(-err));
		break;
	}
out:
	kmod_module_unref(mod);
	return err;
}

static int unload(struct kmod_ctx *ctx)
{
	struct kmod_module *mod;
	int users, err;

	if (kmod_module_new_from_name(ctx, MODULE_NAME, &mod) < 0)
		return fail("out of memory");
	if (kmod_module_get_initstate(mod) < 0) {
		err = fail("armpmu is not loaded");
		goto out;
	}
	users = kmod_module_get_refcnt(mod);
	err = kmod_module_remove_module(mod, KMOD_REMOVE_NOWAIT);
	switch (err) {
	case 0:
		printf("armpmu unloaded\n");
		break;
	case -EAGAIN:
	case -EBUSY:
		err = fail("armpmu is in use (%d open files): close them first; pmuctl status shows who counts",
			   users);
		break;
	case -EPERM:
		err = fail("only root may unload kernel modules");
		break;
	default:
		err = fail("cannot unload armpmu: %s", strerror(-err));
		break;
	}
out:
	kmod_module_unref(mod);
	return err;
}

static int with_kmod(int (*fn)(struct kmod_ctx *ctx, int argc, char **argv),
		     int argc, char **argv)
{
	struct kmod_ctx *ctx;
	int ret;

	/*
	 * libkmod's own log lines ("libkmod: ERROR ...") stay off the terminal:
	 * pmuctl says what went wrong in its words. kmod_new() reads the
	 * modprobe.d files, and logs what it finds wrong in them, before a log
	 * function or priority could be set; it takes its priority from
	 * KMOD_LOG, and 0 lets nothing through. A KMOD_LOG the user set to
	 * see them is kept.
	 */
	setenv("KMOD_LOG", "0", 0);
	ctx = kmod_new(NULL, NULL);

	if (!ctx)
		return fail("cannot read the kernel's module configuration");
	ret = fn(ctx, argc, argv);
	kmod_unref(ctx);
	return ret;
}

static int unload_args(struct kmod_ctx *ctx, int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return usage_error("unload takes no arguments");
	return unload(ctx);
}

int cmd_load(int argc, char **argv)
{
	if (wants_help(argc, argv)) {
		printf("Usage: pmuctl load [PARAM=VALUE...]\n\n"
		       "Loads the armpmu module (root only), as modprobe does: with the options\n"
		       "of the modprobe.d files (options armpmu ...), then those given here.\n"
		       "Parameters:\n"
		       "  poll_ms=N           how often, 1 to 100 ms, counting CPUs fold their\n"
		       "                      32-bit counters into 64 bits (default 50)\n"
		       "  cpu_mode_for_all=Y  let every user who may open the device count whole\n"
		       "                      CPUs (default N: CAP_PERFMON or CAP_SYS_ADMIN only);\n"
		       "                      also writable later in\n"
		       "                      /sys/module/armpmu/parameters/cpu_mode_for_all\n"
		       "  sample_rate_max=HZ  the highest sampling rate a file may ask for, per\n"
		       "                      CPU (default 10000; 0: no sampling)\n"
		       "  sample_ring_kb_max=KIB\n"
		       "                      the largest ring of samples a file may ask for\n"
		       "                      (default 1024)\n"
		       "  sample_ring_user_kb=KIB\n"
		       "                      the ring memory one user's open files may hold\n"
		       "                      in all (default 8192; CAP_IPC_LOCK: no bound)\n"
		       "  sample_max_stack=N  the most return addresses a sample's call chain\n"
		       "                      may hold (default 127, at most 4096)\n");
		return EXIT_SUCCESS;
	}
	return with_kmod(load, argc, argv);
}

int cmd_unload(int argc, char **argv)
{
	if (wants_help(argc, argv)) {
		printf("Usage: pmuctl unload\n\n"
		       "Unloads the armpmu module (root only); refused while a program has\n"
		       "/dev/armpmu open.\n");
		return EXIT_SUCCESS;
	}
	return with_kmod(unload_args, argc, argv);
}
