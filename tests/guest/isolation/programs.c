// SPDX-License-Identifier: GPL-2.0
/*
 * isolation-test: the programs lab executes (plain, set-user-ID,
 * set-group-ID, unreadable, with file capabilities) on a tmpfs of their
 * own, and running something as lab with its result sent back.
 */
#include "common.h"

__u32 work_event(void)
{
	return icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES;
}

/* ---- the programs lab executes ---- */

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, err = 0;
	ssize_t n;

	if (in < 0)
		return errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (out < 0) {
		err = errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			err = errno ? errno : EIO;
			break;
		}
	if (n < 0)
		err = errno;
	close(in);
	close(out);
	/* After the write: writing clears the set-ID bits. */
	if (!err && chmod(to, mode))
		err = errno;
	return err;
}

/* A file capability (CAP_NET_RAW, permitted and effective), as setcap sets one. */
static int add_file_capability(const char *path)
{
	struct vfs_cap_data cap = { 0 };

	cap.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE;
	cap.data[0].permitted = 1U << CAP_NET_RAW;
	return setxattr(path, "security.capability", &cap, sizeof(cap), 0) ? errno : 0;
}

/* On a tmpfs of their own, which keeps security.capability. */
int make_programs(void)
{
	int err = 0, v;

	if (mkdir(DIR, 0755) && errno != EEXIST)
		return errno;
	if (mount("isolation", DIR, "tmpfs", 0, "mode=0755"))
		return errno;
	for (v = 0; v < NR_VARIANTS && !err; v++)
		err = copy_file(LOOP_PROG, variants[v].path, variants[v].mode);
	fcaps_err = err ? err : add_file_capability(variants[FILE_CAPS].path);
	/* This program, set-user-ID root, to be handed lab's descriptor. */
	err = err ? err : copy_file("/proc/self/exe", DIR "/handed", 04755);
	return err;
}

void remove_programs(void)
{
	umount2(DIR, MNT_DETACH);
	rmdir(DIR);
}

void exec_loop(const char *path)
{
	char *argv[LOOP_ARGS + 1];
	int i;

	for (i = 0; i < LOOP_ARGS; i++)
		argv[i] = (char *)"x";
	argv[LOOP_ARGS] = NULL;
	execv(path, argv);
	_exit(127);
}

/* ---- running something as lab and getting a result back ---- */

/*
 * lab as a login session has it: setuid() left this process non-dumpable,
 * as an exec of an ordinary program would not, and ptrace (so perf and
 * armpmu) would refuse its children.
 */
bool become_lab(void)
{
	return become_user(AS_LAB) && !prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* Runs @fn(@arg) in a child that became lab; its result comes back whole. */
int as_lab(void (*fn)(void *res), void *res, size_t size)
{
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		return errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		close(p[0]);
		memset(res, 0, size);
		if (!become_lab())
			_exit(2);
		fn(res);
		_exit(write(p[1], res, size) == (ssize_t)size ? 0 : 3);
	}
	close(p[1]);
	if (read(p[0], res, size) != (ssize_t)size)
		memset(res, 0, size);
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : ECHILD;
}

/* Counter 0 counts the work event in user mode, and the cycle counter too. */
int program_work(int fd)
{
	int err = program(fd, 0, work_event(), EXCL_K);

	return err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
}

/*
 * Programs and starts the file, on a board that counts. One that never
 * counts (no mode filter either, so lab's START is EOPNOTSUPP) still links
 * and lets go of threads, which is what the verdicts below look at.
 */
int start_work(int fd)
{
	int err;

	if (!counting)
		return 0;
	err = program_work(fd);
	return err ? err : ioc0(fd, ARMPMU_IOC_START);
}
