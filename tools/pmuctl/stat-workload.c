// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's command: its process forked first and held on a pipe, so
 * that its file can be attached and armed before it executes anything;
 * released, it executes the command, and its exec's error, if any, comes
 * back through a pipe.
 *
 * Neither pipe is let go in the exec: a pipe's last close there is torn
 * down on the way back to user mode, where the command is counted (on a
 * Cortex-A72, about 3,000 kernel instructions for the release pipe, freed
 * with its buffer, and 1,200 for the error pipe's write end). The child
 * closes the release pipe before its exec, and pmuctl holds its own copy
 * of the error pipe's write end until the child is gone, so that the
 * exec's close of the child's copy is never the last.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "pmuctl.h"
#include "stat-workload.h"

/* perf's words, and a shell's status: 127 not found, 126 not executable. */
static int workload_failed(const struct stat_workload *w, int err)
{
	fail("Workload failed: %s ('%s')", strerror(err), w->argv[0]);
	return err == ENOENT ? 127 : 126;
}

/* The search of PATH: 0, or the errno a shell would report. */
static int search(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH"), *end;
	int err = ENOENT;

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return access(path, X_OK) ? errno : 0;
	}
	for (dirs = dirs ? dirs : "/usr/bin:/bin"; *dirs; dirs = *end ? end + 1 : end) {
		end = strchrnul(dirs, ':');
		snprintf(path, len, "%.*s/%s", (int)(end - dirs), end == dirs ? "." : dirs, name);
		if (!access(path, X_OK))
			return 0;
		if (errno == EACCES)
			err = EACCES;
	}
	return err;
}

int stat_workload_find(struct stat_workload *w, char **argv)
{
	int err;

	w->argv = argv;
	w->pid = -1;
	w->release_fd = w->error_fd = w->error_wr = -1;
	err = search(argv[0], w->path, sizeof(w->path));
	return err ? workload_failed(w, err) : 0;
}

/*
 * What execvp() does with a file the kernel cannot execute (a script
 * without "#!"): runs it through /bin/sh, the file as the shell's first
 * argument. Returns only on failure, with errno set.
 */
static void exec_shell(const char *path, char **cmd)
{
	int n = 0;

	while (cmd[n])
		n++;
	char **argv = calloc((size_t)n + 2, sizeof(*argv));

	if (!argv)
		return;
	argv[0] = "/bin/sh";
	argv[1] = (char *)path;
	for (int i = 1; i <= n; i++)
		argv[i + 1] = cmd[i];
	execve(argv[0], argv, environ);
	free(argv);
}

/* The child: held until released, then the command, or its exec's errno. */
static void __attribute__((noreturn)) child(const struct stat_workload *w, int go, int error)
{
	char byte;
	int err;

	/* pmuctl ignores SIGINT while a command runs; the command must not. */
	signal(SIGINT, SIG_DFL);
	if (read(go, &byte, 1) != 1)
		_exit(127);	/* pmuctl gave up on this run */
	close(go);
	/* What the held child used is not the command's: taken off after. */
	getrusage(RUSAGE_SELF, w->before_exec);
	execve(w->path, w->argv, environ);
	if (errno == ENOEXEC)
		exec_shell(w->path, w->argv);
	err = errno;
	if (write(error, &err, sizeof(err)) != sizeof(err))
		_exit(127);
	_exit(127);
}

int stat_workload_prepare(struct stat_workload *w)
{
	int go[2], error[2], err;

	if (!w->before_exec) {
		w->before_exec = mmap(NULL, sizeof(*w->before_exec), PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (w->before_exec == MAP_FAILED) {
			w->before_exec = NULL;
			return fail("cannot fork: %s", strerror(errno));
		}
	}
	memset(w->before_exec, 0, sizeof(*w->before_exec));
	if (pipe2(go, O_CLOEXEC))
		return fail("cannot fork: %s", strerror(errno));
	if (pipe2(error, O_CLOEXEC)) {
		err = errno;
		close(go[0]);
		close(go[1]);
		return fail("cannot fork: %s", strerror(err));
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid == 0) {
		close(go[1]);
		close(error[0]);
		child(w, go[0], error[1]);
	}
	err = errno;
	close(go[0]);
	if (w->pid < 0) {
		close(go[1]);
		close(error[0]);
		close(error[1]);
		return fail("cannot fork: %s", strerror(err));
	}
	w->release_fd = go[1];
	w->error_fd = error[0];
	w->error_wr = error[1];
	return 0;
}

void stat_workload_release(struct stat_workload *w)
{
	if (write(w->release_fd, "", 1) != 1)
		say("cannot release the command: %s", strerror(errno));
	close(w->release_fd);
	w->release_fd = -1;
}

bool stat_workload_wait(struct stat_workload *w, int msecs)
{
	struct pollfd pfd = { .events = POLLIN };
	siginfo_t info = { 0 };
	bool ended;

	pfd.fd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	if (pfd.fd < 0) {	/* no pidfd (Linux < 5.3): a look after the time */
		usleep((useconds_t)msecs * 1000);
		return !waitid(P_PID, (id_t)w->pid, &info, WEXITED | WNOHANG | WNOWAIT) &&
		       info.si_pid;
	}
	while (poll(&pfd, 1, msecs) < 0 && errno == EINTR)
		;
	ended = pfd.revents & POLLIN;
	close(pfd.fd);
	return ended;
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* @after less @before, as perf's software counts. */
static void usage_of(const struct rusage *after, const struct rusage *before, struct stat_usage *u)
{
	double user = seconds(after->ru_utime) - seconds(before->ru_utime);
	double sys = seconds(after->ru_stime) - seconds(before->ru_stime);
	double minor = (double)(after->ru_minflt - before->ru_minflt);
	double major = (double)(after->ru_majflt - before->ru_majflt);

	*u = (struct stat_usage){ .user = user, .sys = sys };
	u->value[SW_TASK_CLOCK] = (user + sys) * 1e3;
	u->value[SW_CPU_CLOCK] = u->value[SW_TASK_CLOCK];	/* a task's cpu-clock, as perf's */
	u->value[SW_CONTEXT_SWITCHES] = (double)(after->ru_nvcsw + after->ru_nivcsw -
						 before->ru_nvcsw - before->ru_nivcsw);
	u->value[SW_MINOR_FAULTS] = minor;
	u->value[SW_MAJOR_FAULTS] = major;
	u->value[SW_PAGE_FAULTS] = minor + major;
}

/*
 * The error is read once the child is gone, not before: a read would wake
 * pmuctl in the middle of the exec, on the child's CPU. The write end is
 * closed first, so that a successful exec reads as end of file.
 */
int stat_workload_finish(struct stat_workload *w, int *status, int *signal, struct stat_usage *u)
{
	struct rusage ru = { 0 };
	ssize_t got;
	int err = 0, wstatus = 0;

	while (wait4(w->pid, &wstatus, 0, &ru) < 0 && errno == EINTR)
		;
	usage_of(&ru, w->before_exec, u);
	close(w->error_wr);
	w->error_wr = -1;
	do
		got = read(w->error_fd, &err, sizeof(err));
	while (got < 0 && errno == EINTR);
	close(w->error_fd);
	if (got == sizeof(err) && err)
		return workload_failed(w, err);
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	*signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	return 0;
}

int stat_workload_run(struct stat_workload *w, int *status, int *signal, struct stat_usage *u)
{
	stat_workload_release(w);
	return stat_workload_finish(w, status, signal, u);
}

void stat_workload_abandon(struct stat_workload *w)
{
	if (w->release_fd >= 0)
		close(w->release_fd);
	close(w->error_fd);
	close(w->error_wr);
	kill(w->pid, SIGKILL);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* ---- -p, -t: running processes ---- */

static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

int stat_workload_watch(struct stat_workload_targets *t, struct stat_run *run)
{
	struct sigaction sa = { .sa_handler = on_sigint };
	sigset_t block;

	*t = (struct stat_workload_targets){ .run = run, .n = run->target->npid_list };
	for (int i = 0; i < t->n; i++) {
		t->pfd[i] = (struct pollfd){ .events = POLLIN };
		t->pfd[i].fd = (int)syscall(SYS_pidfd_open, run->target->pid_list[i], 0);
		if (t->pfd[i].fd < 0 && !run->target->tids) {
			int ret = fail("cannot watch process %d: %s", (int)run->target->pid_list[i],
				       strerror(errno));

			t->n = i;
			stat_workload_unwatch(t);
			return ret;
		}
		t->polled |= t->pfd[i].fd < 0;
	}
	got_sigint = 0;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &t->during);
	sigdelset(&t->during, SIGINT);
	sigaction(SIGINT, &sa, &t->old_sigint);
	t->watching = true;
	return 0;
}

/* Whether every target is gone (a thread without a pidfd is looked for). */
static bool targets_gone(struct stat_workload_targets *t)
{
	int left = 0;

	if (!t->run->target->npid_list)
		return false;	/* no targets (-a without a command): SIGINT alone */
	for (int i = 0; i < t->n; i++) {
		if (t->pfd[i].fd == -1 && kill(t->run->target->pid_list[i], 0) && errno == ESRCH)
			t->pfd[i].fd = -2;	/* gone */
		if (t->pfd[i].fd >= 0 && (t->pfd[i].revents & POLLIN)) {
			close(t->pfd[i].fd);
			t->pfd[i].fd = -2;
		}
		left += t->pfd[i].fd != -2;
	}
	return !left;
}

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool stat_workload_wait_targets(struct stat_workload_targets *t, int msecs)
{
	double end = monotonic() + msecs / 1e3;

	while (!got_sigint && !t->failed && !targets_gone(t)) {
		double left = msecs < 0 ? 0.1 : end - monotonic();
		struct timespec period;

		if (msecs >= 0 && left <= 0)
			return false;
		if (t->polled && left > 0.1)
			left = 0.1;
		period.tv_sec = (time_t)left;
		period.tv_nsec = (long)((left - (double)period.tv_sec) * 1e9);
		if (ppoll(t->pfd, (nfds_t)t->n, msecs < 0 && !t->polled ? NULL : &period,
			  &t->during) < 0 && errno != EINTR) {
			fail("cannot watch the processes: %s", strerror(errno));
			t->failed = true;
		}
	}
	t->run->interrupted = got_sigint;
	return true;
}

void stat_workload_unwatch(struct stat_workload_targets *t)
{
	sigset_t block;

	for (int i = 0; i < t->n; i++)
		if (t->pfd[i].fd >= 0)
			close(t->pfd[i].fd);
	if (t->watching) {
		sigaction(SIGINT, &t->old_sigint, NULL);
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigprocmask(SIG_UNBLOCK, &block, NULL);
	}
	t->n = 0;
	t->watching = false;
}
