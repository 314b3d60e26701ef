// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode's hooks: the probes on the scheduler's and the exec's
 * tracepoints (found by name: the tracepoints are not exported), and a
 * function-entry hook on exit_mm_release(). The probes themselves are
 * task_cpu.c's (sched_switch) and task_links.c's (a thread's fork, exec
 * and exit). They are registered while at least one task-mode file
 * exists, and unregistered a second after the last one closes, so a
 * program opening and closing files does not wait for a grace period
 * each time.
 *
 * Locking: registration and the count of task-mode files under hook_lock
 * (a mutex, process context); the exit_mm hook reads that count without
 * it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/ftrace.h>
#include <linux/mutex.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>
#include "task.h"

static DEFINE_MUTEX(hook_lock);
static unsigned int task_files;		/* under hook_lock */
static bool hooked;			/* under hook_lock */

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * perf lets an exiting thread go before exit_mm() tears its address space
 * down (do_exit() calls perf_event_exit_task() there on the kernels the
 * lab runs, 6.1 and 6.12 stable), so the teardown is not in its
 * kernel-mode counts. A function-entry hook on exit_mm_release(),
 * exit_mm()'s first call, lets go of a counted thread at the same point.
 * It is registered once, at load: patching the kernel's text on arm takes
 * a stop_machine(), too much for every first task-mode file. Without
 * dynamic ftrace, or if this hook misses a link made as it looked, the
 * sched_process_exit probe lets go of the thread after the teardown.
 */
static void exit_mm_hook(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	if (READ_ONCE(task_files))
		armpmu_task_links_exiting(current);
}

/* It cannot recurse: nothing it calls reaches exit_mm_release(). */
static struct ftrace_ops exit_mm_ops = {
	.func = exit_mm_hook,
	.flags = FTRACE_OPS_FL_RECURSION,
};
static bool exit_mm_hooked;

static void hook_exit_mm(void)
{
	static char name[] = "exit_mm_release";
	int ret;

	ret = ftrace_set_filter(&exit_mm_ops, name, strlen(name), 0);
	ret = ret ? ret : register_ftrace_function(&exit_mm_ops);
	if (ret) {
		pr_info("no hook on %s (%d): an exiting thread's kernel-mode counts include its address space's teardown\n",
			name, ret);
		return;
	}
	exit_mm_hooked = true;
}

static void unhook_exit_mm(void)
{
	if (exit_mm_hooked)
		unregister_ftrace_function(&exit_mm_ops);
	ftrace_free_filter(&exit_mm_ops);
}
#else
static void hook_exit_mm(void) { }
static void unhook_exit_mm(void) { }
#endif

struct probe {
	const char *name;
	void *fn;
	struct tracepoint *tp;
};

static struct probe probes[] = {
	{ "sched_switch", armpmu_task_cpu_switch },
	{ "sched_process_fork", armpmu_task_links_fork },
	{ "sched_process_exit", armpmu_task_links_exit },
	{ "sched_process_exec", armpmu_task_links_exec },
	{ "task_rename", armpmu_task_links_rename },
};

static void find_tracepoint(struct tracepoint *tp, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(tp->name, probes[i].name))
			probes[i].tp = tp;
}

static void unhook(void)
{
	int i;

	for (i = ARRAY_SIZE(probes) - 1; i >= 0; i--)
		tracepoint_probe_unregister(probes[i].tp, probes[i].fn, NULL);
	tracepoint_synchronize_unregister();
	hooked = false;
}

static void unhook_unused(struct work_struct *work)
{
	mutex_lock(&hook_lock);
	if (hooked && !task_files)
		unhook();
	mutex_unlock(&hook_lock);
}

static DECLARE_DELAYED_WORK(unhook_work, unhook_unused);

/* A task-mode file is made: the probes are registered, if they are not yet. */
int armpmu_task_hooks_get(void)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&hook_lock);
	for (i = 0; !hooked && i < ARRAY_SIZE(probes); i++) {
		ret = tracepoint_probe_register(probes[i].tp, probes[i].fn, NULL);
		if (ret) {
			while (i--)
				tracepoint_probe_unregister(probes[i].tp, probes[i].fn, NULL);
			tracepoint_synchronize_unregister();
			break;
		}
	}
	if (!ret) {
		hooked = true;
		WRITE_ONCE(task_files, task_files + 1);
	}
	mutex_unlock(&hook_lock);
	return ret;
}

/* A task-mode file is gone: the last one's probes go a second later. */
void armpmu_task_hooks_put(void)
{
	mutex_lock(&hook_lock);
	WRITE_ONCE(task_files, task_files - 1);
	if (!task_files)
		mod_delayed_work(system_wq, &unhook_work, HZ);
	mutex_unlock(&hook_lock);
}

/* The tracepoints found, and the exit_mm hook set if it can be. */
int armpmu_task_hooks_init(void)
{
	unsigned int i;

	/* Compile-time checks that the probes match the kernel's prototypes. */
	check_trace_callback_type_sched_switch(armpmu_task_cpu_switch);
	check_trace_callback_type_sched_process_fork(armpmu_task_links_fork);
	check_trace_callback_type_sched_process_exit(armpmu_task_links_exit);
	check_trace_callback_type_sched_process_exec(armpmu_task_links_exec);
	check_trace_callback_type_task_rename(armpmu_task_links_rename);

	for_each_kernel_tracepoint(find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (!probes[i].tp) {
			pr_err("no %s tracepoint: task mode needs it\n", probes[i].name);
			return -ENOENT;
		}
	}
	hook_exit_mm();
	return 0;
}

void armpmu_task_hooks_exit(void)
{
	unhook_exit_mm();
	cancel_delayed_work_sync(&unhook_work);
	mutex_lock(&hook_lock);
	if (hooked)
		unhook();
	mutex_unlock(&hook_lock);
}
