// SPDX-License-Identifier: GPL-2.0
/*
 * isolation-test, attack 3: ATTACH's verdict against kcmp(2)'s, the
 * kernel's own ptrace read check.
 */
#include "common.h"

struct verdicts {
	int attach_err, kcmp_err;
};

static pid_t target;

/* Both verdicts on @tid (@pid its process) from the caller's credentials. */
static void judge(struct verdicts *v, pid_t tid, pid_t pid)
{
	struct armpmu_attach at = { .tid = (__u32)tid };
	int fd = -1;

	v->kcmp_err = syscall(SYS_kcmp, getpid(), pid, KCMP_VM, 0, 0) < 0 ? errno : 0;
	v->attach_err = dev_open(&fd);
	v->attach_err = v->attach_err ? v->attach_err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	dev_close(&fd);
}

static void judge_target(void *arg)
{
	judge(arg, target, target);
}

static void judge_from_user_namespace(void *arg)
{
	struct verdicts *v = arg;

	if (unshare(CLONE_NEWUSER)) {
		v->attach_err = v->kcmp_err = -errno;
		return;
	}
	judge(v, target, target);
}

static atomic_int thread_stop;

static void *waiting_thread(void *arg)
{
	atomic_store((atomic_int *)arg, (int)syscall(SYS_gettid));
	while (!atomic_load(&thread_stop))
		usleep(1000);
	return NULL;
}

/* Another thread of lab's own process, which made itself non-dumpable. */
static void judge_own_thread(void *arg)
{
	atomic_int tid = 0;
	pthread_t t;

	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	atomic_store(&thread_stop, 0);
	if (pthread_create(&t, NULL, waiting_thread, &tid)) {
		((struct verdicts *)arg)->attach_err = EAGAIN;
		return;
	}
	while (!atomic_load(&tid))
		usleep(1000);
	judge(arg, atomic_load(&tid), getpid());
	atomic_store(&thread_stop, 1);
	pthread_join(t, NULL);
}

/* A child that takes lab's IDs (keeping capabilities if asked) and waits. */
static pid_t start_target(bool as_lab_user, bool keep_caps)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (keep_caps) {
			prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
			if (setresgid(LAB_GID, LAB_GID, LAB_GID) ||
			    setresuid(LAB_UID, LAB_UID, LAB_UID))
				_exit(1);
			prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		} else if (as_lab_user && !become_lab()) {
			_exit(1);
		}
		for (;;)
			pause();
	}
	usleep(20000);
	return pid;
}

static void check_verdict(const char *what, struct verdicts *v, int err, bool allowed)
{
	bool kcmp_known = v->kcmp_err != ENOSYS;

	if (v->attach_err < 0) {
		tap_skip(what, "no user namespace for lab: %s", strerror(-v->attach_err));
		return;
	}
	tap_check(!err && (v->attach_err == 0) == allowed &&
		  (allowed || v->attach_err == EACCES) &&
		  (!kcmp_known || (v->kcmp_err == 0) == allowed),
		  what, "%s: ATTACH %s, kcmp %s, the ptrace rule says %s", tap_errname(err),
		  tap_errname(v->attach_err), tap_errname(v->kcmp_err),
		  allowed ? "allowed" : "refused");
}

void test_ptrace_rule(void)
{
	struct verdicts v;
	int err;

	target = start_target(true, false);
	err = as_lab(judge_target, &v, sizeof(v));
	check_verdict("lab's own other process: ATTACH allowed, as kcmp", &v, err, true);
	err = as_lab(judge_from_user_namespace, &v, sizeof(v));
	check_verdict("lab in a new user namespace, its process outside: refused, as kcmp",
		      &v, err, false);
	stop_child(target);

	target = start_target(false, true);
	err = as_lab(judge_target, &v, sizeof(v));
	check_verdict("a lab-uid process that kept root's capabilities: refused, as kcmp",
		      &v, err, false);
	stop_child(target);

	target = start_target(false, false);
	err = as_lab(judge_target, &v, sizeof(v));
	check_verdict("root's process: refused, as kcmp", &v, err, false);
	stop_child(target);

	err = as_lab(judge_own_thread, &v, sizeof(v));
	check_verdict("another thread of lab's own non-dumpable process: allowed, as kcmp",
		      &v, err, true);
}
