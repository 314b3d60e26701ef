// SPDX-License-Identifier: GPL-2.0
/*
 * perf-count [-u|-k] [-o FILE] COMMAND [ARGS...]: the instructions COMMAND retires,
 * with its threads and children, counted by Linux's perf as perf stat
 * counts them: one perf_event_open() counter opened disabled on a forked
 * child held on a pipe, inherited, enabled by the child's exec
 * (enable_on_exec). User and kernel mode, or user mode only with -u,
 * kernel mode only with -k.
 * Prints the count on stdout, or in FILE (-o, as perf stat's: COMMAND's
 * output stays its own); the reference pmuctl stat's are held against
 * (tests/guest/pmuctl-test.sh). The child keeps its end of the release
 * pipe through the exec, closed only at its exit, after perf stops
 * counting: perf stat's is closed by the exec and torn down on the way
 * back to user mode, inside the count (about 3,400 kernel instructions on
 * a Cortex-A72), which pmuctl, like this, leaves out. Exits 1 if perf cannot count, 2 for a
 * usage error, 3 if COMMAND failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

static int open_counter(pid_t pid, int user_only, int kernel_only)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	attr.inherit = 1;
	attr.enable_on_exec = 1;
	attr.exclude_kernel = user_only;
	attr.exclude_user = kernel_only;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, 0);
}

int main(int argc, char **argv)
{
	int user_only = 0, kernel_only = 0, go[2], fd, status, opt;
	const char *output = NULL;
	FILE *out = stdout;
	uint64_t count;
	pid_t pid;
	char byte;

	while ((opt = getopt(argc, argv, "+uko:")) != -1) {
		if (opt == 'u')
			user_only = 1;
		else if (opt == 'k')
			kernel_only = 1;
		else if (opt == 'o')
			output = optarg;
		else
			return 2;
	}
	argv += optind - 1;
	argc -= optind - 1;
	if (argc < 2) {
		fprintf(stderr, "usage: perf-count [-u|-k] [-o FILE] COMMAND [ARGS...]\n");
		return 2;
	}
	if (output && !(out = fopen(output, "w")))
		return perror(output), 1;
	if (pipe(go))
		return perror("pipe"), 1;
	pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &byte, 1) != 1)
			_exit(127);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(go[0]);
	fd = open_counter(pid, user_only, kernel_only);
	if (fd < 0) {
		fprintf(stderr, "perf-count: perf_event_open: %s\n", strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	if (write(go[1], "", 1) != 1)
		return perror("write"), 1;
	close(go[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return perror("waitpid"), 1;
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return perror("read"), 1;
	fprintf(out, "%llu\n", (unsigned long long)count);
	if (out != stdout && fclose(out))
		return perror(output), 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 3;
}
