// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's command: its process forked first and held on a pipe, so
 * that its file can be attached and armed before it executes anything;
 * released, it executes the command, and its exec's error, if any, comes
 * back through a pipe that a successful exec closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

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
	w->release_fd = w->error_fd = -1;
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
	close(error[1]);
	if (w->pid < 0) {
		close(go[1]);
		close(error[0]);
		return fail("cannot fork: %s", strerror(err));
	}
	w->release_fd = go[1];
	w->error_fd = error[0];
	return 0;
}

/*
 * The error is read once the child is gone, not before: a read would wake
 * pmuctl in the middle of the exec, on the child's CPU.
 */
int stat_workload_run(struct stat_workload *w, int *status, int *signal)
{
	ssize_t got;
	int err = 0, wstatus = 0;

	if (write(w->release_fd, "", 1) != 1)
		err = errno;
	close(w->release_fd);
	while (waitpid(w->pid, &wstatus, 0) < 0 && errno == EINTR)
		;
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

void stat_workload_abandon(struct stat_workload *w)
{
	close(w->release_fd);
	close(w->error_fd);
	kill(w->pid, SIGKILL);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
}
