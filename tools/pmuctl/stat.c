// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat: count events while a command runs, or of a running process.
 *
 * Task mode, the default: a command's process is counted wherever the
 * scheduler runs it, with every thread and child it creates (armpmu's
 * ATTACH with FOLLOW), and nothing else: no pinning, other processes on
 * the same CPUs not counted. The command is forked first and held on a
 * pipe while a file is attached to it and programmed; released, it starts
 * the counters itself and execs, so the only instructions counted besides
 * the command's are its own from START's return to the execve system
 * call: the same every run, and measured by empty runs (calibration).
 *
 * -p PID attaches to a running process's threads; -C CPU and -a count
 * whole CPUs (CPU mode), which the driver allows only to the privileged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pmuctl.h"
#include "stat.h"

static const char *const default_events[] = { "cycles", "instructions" };

static bool task_mode(const struct stat_run *run)
{
	return run->target == TARGET_COMMAND || run->target == TARGET_PROCESS;
}

static int files_add(struct files *f, struct pmudev *pmu)
{
	if (f->n == f->allocated) {
		int more = f->allocated ? 2 * f->allocated : 4;
		struct pmudev **p = realloc(f->pmu, more * sizeof(*p));

		if (!p)
			return -ENOMEM;
		f->pmu = p;
		f->allocated = more;
	}
	f->pmu[f->n++] = pmu;
	return 0;
}

static void files_close(struct files *f)
{
	for (int i = 0; i < f->n; i++)
		pmudev_close(f->pmu[i]);
	free(f->pmu);
	*f = (struct files){ 0 };
}

/*
 * Programs the events on the first file, and records what they are. The
 * default ones a core does not implement (QEMU's boards count instructions
 * only with -icount) are listed as not supported rather than failing: the
 * user did not ask for them.
 */
static int add_first_events(struct pmudev *pmu, struct stat_run *run, char **specs, int nspecs,
			    bool defaults)
{
	const struct armpmu_info *info = pmudev_info(pmu);
	struct pmudev_event ev;
	char why[200];
	int idx;

	if (run->group && stat_group_check(run->group, info, why, sizeof(why)))
		return fail("%s", why);
	for (int i = 0; i < nspecs; i++) {
		idx = pmudev_add_event(pmu, specs[i]);
		if (idx == -ENOSPC)
			return fail("%d events, but a %s has %u event counters, and the cycle counter for 'cycles': armpmu does not multiplex; count them in several runs",
				    nspecs, stat_core_name(info), info->num_counters);
		if (idx == -ENOENT && defaults) {
			run->unsupported[run->nunsupported++] = specs[i];
			continue;
		}
		if (idx == -EACCES)
			return fail("%s: counting kernel mode needs CAP_PERFMON or CAP_SYS_ADMIN; count user mode with :u",
				    specs[i]);
		if (idx < 0) {
			if (pmudev_event_error(specs[i], info, why, sizeof(why)))
				return fail("%s", why);
			return fail("%s: %s", specs[i], pmudev_strerror(idx));
		}
		struct counter *c = &run->counters[run->ncounters++];

		run->specs[run->nspecs++] = specs[i];
		c->idx = (unsigned int)idx;
		snprintf(c->name, sizeof(c->name), "%s", pmudev_counter_name(pmu, c->idx));
		c->event = idx == ARMPMU_CYCLE_COUNTER ? EV_CPU_CYCLES :
			   pmudev_event_parse(specs[i], info, &ev) ? 0 : ev.number;
	}
	run->info = *info;
	run->events_known = true;
	return EXIT_SUCCESS;
}

/*
 * Programs a later file like the first: the same specs in the same order
 * get the same counters (allocation is deterministic).
 */
static int add_events(struct pmudev *pmu, struct stat_run *run, char **specs, int nspecs,
		      bool defaults)
{
	if (!run->events_known)
		return add_first_events(pmu, run, specs, nspecs, defaults);
	for (int i = 0; i < run->nspecs; i++) {
		int idx = pmudev_add_event(pmu, run->specs[i]);

		if (idx < 0 || (unsigned int)idx != run->counters[i].idx)
			return fail("%s: %s", run->specs[i],
				    idx < 0 ? pmudev_strerror(idx) : "a different counter than before");
	}
	return EXIT_SUCCESS;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A shell's view of a wait status: the code, or 128 + the signal. */
static int shell_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/*
 * The command's file, searched in PATH as a shell does, before the counting
 * starts: the search is not the command's work.
 */
static int resolve(const char *name, char *path, size_t len)
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

/* What a forked child tells the parent, in memory shared across fork(). */
struct child_report {
	int start_err;
	int exec_err;
};

static struct child_report *child_report;

static int for_each_file(const struct files *f, int (*op)(struct pmudev *))
{
	for (int i = 0; i < f->n; i++) {
		int err = op(f->pmu[i]);

		if (err)
			return err;
	}
	return 0;
}

/*
 * START on each file's descriptor, for the forked child: its copy of the
 * handles was taken before the parent attached them to it, so it goes
 * around the library, which would still see them unattached.
 */
static int start_inherited(const struct files *f)
{
	for (int i = 0; i < f->n; i++)
		if (ioctl(pmudev_fd(f->pmu[i]), ARMPMU_IOC_START) < 0)
			return -errno;
	return 0;
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
	syscall(SYS_execve, argv[0], argv, environ);
	free(argv);
}

/* A forked child waiting on a pipe for the word to start. */
struct held_child {
	pid_t pid;
	int release_fd;
};

/*
 * Forks the child that becomes @path (NULL: an empty run, for calibration)
 * and holds it. Released, it starts the counters of @files itself (the
 * same object as the parent's, inherited), then makes the execve (or
 * exit_group) system call through the same syscall() path: its user-mode
 * instructions from START's return to the system call are the same in
 * every run, and an empty run counts exactly them.
 */
static int spawn_held(struct held_child *child, const struct files *files, const char *path,
		      char **cmd)
{
	/* Chosen now: the child's path to the system call is the same for both. */
	long nr = path ? SYS_execve : SYS_exit_group;
	int go[2];
	char byte;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	child_report->start_err = child_report->exec_err = 0;
	fflush(NULL);
	child->pid = fork();
	if (child->pid < 0) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	if (child->pid == 0) {
		/* pmuctl ignores SIGINT while a command runs; the command must not. */
		signal(SIGINT, SIG_DFL);
		close(go[1]);
		if (read(go[0], &byte, 1) != 1)
			_exit(127);	/* pmuctl gave up on this run */
		int err = start_inherited(files);

		if (err) {
			child_report->start_err = err;
			_exit(127);
		}
		/* exit_group takes path, NULL here, as its status: 0. */
		syscall(nr, path, cmd, environ);
		if (errno == ENOEXEC)
			exec_shell(path, cmd);
		child_report->exec_err = errno;
		syscall(SYS_exit_group, 126);
	}
	close(go[0]);
	child->release_fd = go[1];
	return 0;
}

/* Kills a held child that will not be released. */
static void abandon(struct held_child *child)
{
	close(child->release_fd);
	kill(child->pid, SIGKILL);
	while (waitpid(child->pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Sums the counts of @files into @sum; -EIO if any was disturbed. */
static int read_files(const struct files *files, struct armpmu_counts *sum)
{
	struct armpmu_counts c;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	for (int i = 0; i < files->n; i++) {
		int err = pmudev_read(files->pmu[i], &c);

		if (err && err != -EIO)
			return err;
		if (err)
			ret = err;
		sum->flags |= c.flags;
		sum->cycles += c.cycles;
		for (unsigned int k = 0; k < ARMPMU_MAX_COUNTERS; k++)
			sum->events[k] += c.events[k];
		sum->time_enabled += c.time_enabled;
		sum->time_running += c.time_running;
	}
	return ret;
}

/*
 * Task mode: a file for the held child, not opened before the fork (the
 * child must inherit it, to start it) and attached to it with FOLLOW, so
 * that its threads and children are counted too.
 */
static int open_task_file(struct stat_run *run, char **specs, int nspecs, bool defaults,
			  struct pmudev *pmu, pid_t pid)
{
	int err = pmudev_attach(pmu, pid, PMUDEV_ATTACH_FOLLOW);

	if (err)
		return fail("cannot count the command: %s", pmudev_strerror(err));
	return add_events(pmu, run, specs, nspecs, defaults);
}

/*
 * One counted run of @path (NULL: no command, the calibration run). The
 * counters are reset before the child is released and stopped after it
 * has exited.
 */
static int count_child(struct stat_run *run, char **specs, int nspecs, bool defaults,
		       const char *path, char **cmd, struct armpmu_counts *counts, int *status)
{
	struct files task_files = { 0 }, *files = &run->files;
	struct held_child child = { .pid = -1, .release_fd = -1 };
	struct pmudev *pmu = NULL;
	int err, ret;

	if (task_mode(run)) {
		if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
			return EXIT_FAILURE;
		err = files_add(&task_files, pmu);
		if (err) {
			pmudev_close(pmu);
			return fail("%s", strerror(-err));
		}
		files = &task_files;
	}
	err = spawn_held(&child, files, path, cmd);
	if (err) {
		ret = fail("cannot fork: %s", strerror(-err));
		goto close;
	}
	ret = pmu ? open_task_file(run, specs, nspecs, defaults, pmu, child.pid) :
		    EXIT_SUCCESS;
	if (ret == EXIT_SUCCESS && (err = for_each_file(files, pmudev_reset)))
		ret = fail("cannot reset the counters: %s", pmudev_strerror(err));
	if (ret != EXIT_SUCCESS) {
		abandon(&child);
		goto close;
	}
	if (write(child.release_fd, "", 1) != 1)
		ret = fail("cannot release the command: %s", strerror(errno));
	close(child.release_fd);
	while (waitpid(child.pid, status, 0) < 0 && errno == EINTR)
		;
	for_each_file(files, pmudev_stop);
	if (child_report->start_err == -EIO)
		run->disturbed = true;
	else if (child_report->start_err)
		ret = fail("cannot start the counters: %s", pmudev_strerror(child_report->start_err));
	if (ret == EXIT_SUCCESS) {
		err = read_files(files, counts);
		if (err == -EIO)
			run->disturbed = true;
		else if (err)
			ret = fail("cannot read the counters: %s", pmudev_strerror(err));
	}
close:
	files_close(&task_files);
	return ret;
}

static uint64_t value_of(const struct counter *c, const struct armpmu_counts *counts)
{
	return c->idx == ARMPMU_CYCLE_COUNTER ? counts->cycles : counts->events[c->idx];
}

/*
 * pmuctl's own share of a run, per counter: the least of a few empty runs
 * (interrupts can only add to it; under -icount it is exact).
 */
static int calibrate(struct stat_run *run, char **specs, int nspecs, bool defaults)
{
	struct armpmu_counts counts;
	int status, ret;

	for (int k = 0; k < CALIBRATION_RUNS; k++) {
		ret = count_child(run, specs, nspecs, defaults, NULL, NULL, &counts, &status);
		if (ret)
			return ret;
		if (run->disturbed)
			return fail("the counters were disturbed during calibration (see pmuctl status)");
		for (int i = 0; i < run->ncounters; i++) {
			struct counter *c = &run->counters[i];
			uint64_t v = value_of(c, &counts);

			if (k == 0 || v < c->overhead)
				c->overhead = v;
		}
	}
	run->calibrated = true;
	return EXIT_SUCCESS;
}

/* Adds one run's counts (less pmuctl's share, if calibrated) to the totals. */
static void accumulate(struct stat_run *run, const struct armpmu_counts *counts)
{
	for (int i = 0; i < run->ncounters; i++) {
		struct counter *c = &run->counters[i];
		double v = (double)value_of(c, counts);

		if (run->calibrated) {
			if (v < c->overhead)
				c->below_overhead = true;
			v = v < c->overhead ? 0 : v - c->overhead;
		}
		c->sum += v;
		c->sumsq += v * v;
	}
	run->time_enabled += counts->time_enabled;
	run->time_running += counts->time_running;
	run->runs++;
}

/*
 * A command that could not be executed: perf's words, a shell's status
 * (127 not found, 126 found but not executable), and no counts.
 */
static int workload_failed(struct stat_run *run, const char *name, int err)
{
	fail("Workload failed: %s ('%s')", strerror(err), name);
	run->workload_failed = true;
	return err == ENOENT ? 127 : 126;
}

static int run_once(struct stat_run *run, char **specs, int nspecs, bool defaults,
		    const char *path, char **cmd)
{
	struct armpmu_counts counts;
	int status, ret;
	double t0, t1;

	t0 = now();
	ret = count_child(run, specs, nspecs, defaults, path, cmd, &counts, &status);
	t1 = now();
	if (ret)
		return ret;
	if (child_report->exec_err)
		return workload_failed(run, cmd[0], child_report->exec_err);
	run->status = shell_status(status);
	run->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	run->elapsed += t1 - t0;
	accumulate(run, &counts);
	return EXIT_SUCCESS;
}

/* ---- -p PID ---- */

static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

/* Whether @tid is among the @n threads attached. */
static bool attached(const pid_t *tids, int n, pid_t tid)
{
	for (int i = 0; i < n; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

/*
 * Attaches a file (FOLLOW) to each thread of @pid not attached yet, as
 * /proc lists them. A thread that has exited meanwhile is skipped, and so
 * is one another file counts already (EBUSY) unless it is the main thread:
 * on a second look, that is a thread an attached one created, which its
 * file follows.
 */
static int attach_threads(struct stat_run *run, pid_t **tids, char **specs, int nspecs,
			  bool defaults)
{
	char dir_path[64];
	struct dirent *d;
	DIR *dir;
	int ret = EXIT_SUCCESS;

	snprintf(dir_path, sizeof(dir_path), "/proc/%d/task", (int)run->pid);
	dir = opendir(dir_path);
	if (!dir)
		return fail("no process %d", (int)run->pid);
	while (ret == EXIT_SUCCESS && (d = readdir(dir))) {
		pid_t tid = (pid_t)strtol(d->d_name, NULL, 10);
		struct pmudev *pmu;
		int err;

		if (tid <= 0 || attached(*tids, run->threads, tid))
			continue;
		if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
			ret = EXIT_FAILURE;
		else if ((err = pmudev_attach(pmu, tid, PMUDEV_ATTACH_FOLLOW))) {
			pmudev_close(pmu);
			if (err == -EACCES)
				ret = fail("not allowed to count process %d: it must be yours (and not setuid), or you need CAP_PERFMON, CAP_SYS_ADMIN or CAP_SYS_PTRACE",
					   (int)run->pid);
			else if (tid == run->pid && err == -EBUSY)
				ret = fail("process %d is already counted by another armpmu file",
					   (int)run->pid);
			else if (tid == run->pid || (err != -ESRCH && err != -EBUSY))
				ret = fail("cannot count thread %d: %s", (int)tid, pmudev_strerror(err));
		} else {
			pid_t *more = realloc(*tids, (run->threads + 1) * sizeof(**tids));

			if (!more || files_add(&run->files, pmu)) {
				free(more);
				pmudev_close(pmu);
				ret = fail("out of memory");
				break;
			}
			*tids = more;
			(*tids)[run->threads++] = tid;
			ret = add_events(pmu, run, specs, nspecs, defaults);
		}
	}
	closedir(dir);
	return ret;
}

/*
 * Waits for @pid to exit, or for SIGINT: SIGINT is blocked but while
 * waiting, so that it cannot slip in between the check and the wait.
 */
static int wait_process(pid_t pid, struct stat_run *run)
{
	struct sigaction sa = { .sa_handler = on_sigint };
	struct pollfd pfd = { .events = POLLIN };
	sigset_t block, during;
	int ret = EXIT_SUCCESS;

	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd.fd < 0)
		return fail("cannot watch process %d: %s", (int)pid, strerror(errno));
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &during);
	sigdelset(&during, SIGINT);
	sigaction(SIGINT, &sa, NULL);
	while (!got_sigint) {
		if (ppoll(&pfd, 1, NULL, &during) > 0)
			break;
		if (errno != EINTR) {
			ret = fail("cannot watch process %d: %s", (int)pid, strerror(errno));
			break;
		}
	}
	run->interrupted = got_sigint;
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	close(pfd.fd);
	return ret;
}

/*
 * Counts process @pid's threads from now until it exits or SIGINT: each
 * existing thread gets a file, and with FOLLOW the threads and children
 * they create are counted too. pmuctl's own work is in none of them: no
 * calibration.
 */
static int count_process(struct stat_run *run, char **specs, int nspecs, bool defaults)
{
	struct armpmu_counts counts;
	pid_t *tids = NULL;
	double t0;
	int ret, err;

	ret = attach_threads(run, &tids, specs, nspecs, defaults);
	/* A thread created before its creator was attached: look again. */
	if (ret == EXIT_SUCCESS)
		ret = attach_threads(run, &tids, specs, nspecs, defaults);
	free(tids);
	if (ret)
		return ret;
	err = for_each_file(&run->files, pmudev_reset);
	err = err ? err : for_each_file(&run->files, pmudev_start);
	if (err)
		return fail("cannot start the counters: %s", pmudev_strerror(err));
	t0 = now();
	ret = wait_process(run->pid, run);
	for_each_file(&run->files, pmudev_stop);
	run->elapsed = now() - t0;
	err = read_files(&run->files, &counts);
	if (err == -EIO)
		run->disturbed = true;
	else if (err)
		return fail("cannot read the counters: %s", pmudev_strerror(err));
	accumulate(run, &counts);
	return ret;
}

/* ---- CPU mode ---- */

/*
 * -C: one file bound to the CPU, this process pinned there (so the command,
 * forked later, starts there too). -a: one per online CPU, nothing pinned.
 */
static int open_files(struct stat_run *run, char **specs, int nspecs, bool defaults)
{
	int first = run->target == TARGET_CPU ? run->cpu : 0;
	int last = run->target == TARGET_CPU ? run->cpu : possible_cpus() - 1;
	unsigned int flags = run->target == TARGET_CPU ? 0 : PMUDEV_OPEN_NO_PIN;

	for (int cpu = first; cpu <= last; cpu++) {
		struct pmudev *pmu;
		int err = pmudev_open(&pmu, cpu, flags), ret;

		if (err == -ENXIO && run->target == TARGET_ALL_CPUS)
			continue;	/* offline: nothing runs there */
		if (err) {
			explain_open_error(err, cpu);
			return EXIT_FAILURE;
		}
		if (files_add(&run->files, pmu)) {
			pmudev_close(pmu);
			return fail("out of memory");
		}
		ret = add_events(pmu, run, specs, nspecs, defaults);
		if (ret)
			return ret;
	}
	return EXIT_SUCCESS;
}

static void usage(void)
{
	printf("Usage: pmuctl stat [-e EVENT[,EVENT...]]... [-M GROUP] [-r N] [-x SEP | --json]\n"
	       "                   [-C CPU | -a] [-o FILE] [--no-calibrate] -- COMMAND [ARGS...]\n"
	       "       pmuctl stat [-e EVENT[,EVENT...]]... [-M GROUP] [-x SEP | --json] [-o FILE]\n"
	       "                   -p PID\n"
	       "       pmuctl stat -M list\n\n"
	       "Counts events while COMMAND runs: COMMAND and every thread and child process\n"
	       "it creates, wherever the scheduler runs them, and nothing else. Prints what\n"
	       "the events counted (default: cycles,instructions), the metrics whose counts\n"
	       "were all counted (IPC, mispredicts and refills per access and per 1000\n"
	       "instructions, stall cycles per cycle) after '#', and the elapsed time, on\n"
	       "stderr (-o: in FILE). Ctrl-C ends the command, and the counts so far are\n"
	       "printed.\n\n"
	       "  -e, --event EVENTS  event names (pmuctl list), perf aliases, raw 0x11 or r11,\n"
	       "                      with :u (user mode) or :k (kernel mode); repeatable\n"
	       "  -M, --metrics GROUP[:u|:k]\n"
	       "                      the events of a metric group (below), with the modifier\n"
	       "  -r, --repeat N      run N times: means, and the relative standard deviation\n"
	       "  -x, --field-separator SEP\n"
	       "                      perf stat's fields, one line per count: VALUE, UNIT,\n"
	       "                      EVENT, [VARIANCE%%,] TIME COUNTED (ns), %% OF TIME\n"
	       "                      COUNTED, METRIC VALUE, METRIC UNIT\n"
	       "      --json          perf stat -j's: one JSON object per count\n"
	       "  -p, --pid PID       count a running process instead, until it exits or\n"
	       "                      Ctrl-C: its threads, and the threads and children they\n"
	       "                      create after that\n"
	       "  -C, --cpu CPU       count everything that runs on CPU while COMMAND runs\n"
	       "                      (pinned there); needs CAP_PERFMON or CAP_SYS_ADMIN\n"
	       "  -a, --all-cpus      count everything on every CPU while COMMAND runs; the same\n"
	       "  -o, --output FILE   write the counts to FILE\n"
	       "      --no-calibrate  keep pmuctl's own share of each count (by default the\n"
	       "                      least of %d empty runs is taken off, and shown)\n\n"
	       "Metric groups (-M; refused where the core lacks an event or counters):\n",
	       CALIBRATION_RUNS);
	stat_groups_print(stdout, 2);
	printf("\nMore events than the core has counters is refused: no multiplexing. Where\n"
	       "the threads ran but their counters could not be loaded (a whole-CPU counter\n"
	       "or perf held the PMU) they were not counted: the counts then show the share\n"
	       "of the time counted; counts of none of it, and counts that cannot be\n"
	       "trusted, are <not counted>.\n"
	       "Exit status: COMMAND's (128+N if killed by signal N), or with -p 0; 127\n"
	       "if COMMAND was not found, 126 if it could not be executed (no counts\n"
	       "then); 1 if pmuctl failed or the counts are not trustworthy, 2 for a\n"
	       "usage error.\n");
}

/* The options, as parsed; argv[optind] on is the command. */
struct stat_options {
	char *specs[MAX_EVENTS + 1];
	int nspecs;
	char group_specs[GROUP_MAX_EVENTS][48];	/* -M's events, with its modifier */
	int repeat;
	char *sep, *output;
	bool json, calibrated;
};

static int parse_pid(const char *arg, pid_t *pid)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n <= 0 || n > 0x3fffffff)
		return usage_error("-p needs a process ID, not '%s'", arg);
	*pid = (pid_t)n;
	return EXIT_SUCCESS;
}

/*
 * -e's comma-separated events, in place; an empty one ("", "a,,b") is
 * refused rather than skipped. Returns -1 to go on, or the exit status.
 */
static int parse_events(char *arg, struct stat_options *o)
{
	size_t len = strlen(arg);
	char *next;

	if (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
		return usage_error("-e '%s': an event name is empty", arg);
	for (; arg; arg = next) {
		next = strchr(arg, ',');
		if (next)
			*next++ = '\0';
		if (o->nspecs >= MAX_EVENTS)
			return usage_error("too many events");
		o->specs[o->nspecs++] = arg;
	}
	return -1;
}

/*
 * -M GROUP[:MODIFIER]: the group's events, after -e's, each with the
 * modifier (:u, :k); "-M list" lists the groups.
 */
static int parse_group(const char *arg, struct stat_options *o, struct stat_run *run)
{
	const char *colon = strchr(arg, ':');
	char name[32];
	const struct stat_group *g;

	if (!strcmp(arg, "list")) {
		printf("Metric groups (pmuctl stat -M GROUP[:u|:k]):\n");
		stat_groups_print(stdout, 2);
		return EXIT_SUCCESS;
	}
	if (run->group)
		return usage_error("one -M at a time");
	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
	g = stat_group_find(name);
	if (!g)
		return usage_error("no metric group '%s' (pmuctl stat -M list lists them)", name);
	run->group = g;
	for (int k = 0; k < GROUP_MAX_EVENTS && g->events[k]; k++) {
		if (o->nspecs >= MAX_EVENTS)
			return usage_error("too many events");
		snprintf(o->group_specs[k], sizeof(o->group_specs[k]), "%s%.8s", g->events[k],
			 colon ? colon : "");
		o->specs[o->nspecs++] = o->group_specs[k];
	}
	return -1;
}

/* Returns -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, struct stat_options *o, struct stat_run *run)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-calibrate", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool targets = false;	/* one of -p, -C, -a was given */
	char *end;
	int opt, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:e:M:r:x:p:C:ao:h", opts, NULL)) != -1) {
		if ((opt == 'p' || opt == 'C' || opt == 'a') && targets)
			return usage_error("-p, -C and -a go one at a time");
		switch (opt) {
		case 'e':
			ret = parse_events(optarg, o);
			if (ret >= 0)
				return ret;
			break;
		case 'M':
			ret = parse_group(optarg, o, run);
			if (ret >= 0)
				return ret;
			break;
		case 'r':
			errno = 0;
			o->repeat = (int)strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || o->repeat < 1 || o->repeat > 100000)
				return usage_error("-r needs a count from 1 to 100000, not '%s'", optarg);
			break;
		case 'x':
			o->sep = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'p':
			targets = true;
			run->target = TARGET_PROCESS;
			if (parse_pid(optarg, &run->pid))
				return EXIT_USAGE;
			break;
		case 'C':
			targets = true;
			run->target = TARGET_CPU;
			if (!parse_cpu(optarg, &run->cpu))
				return usage_error("no CPU '%s'", optarg);
			break;
		case 'a':
			targets = true;
			run->target = TARGET_ALL_CPUS;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'n':
			o->calibrated = false;
			break;
		case 'h':
			usage();
			return EXIT_SUCCESS;
		default:
			return option_error(opt, argv);
		}
	}
	if (run->target == TARGET_PROCESS) {
		if (optind != argc)
			return usage_error("-p counts a running process: no command too");
		if (o->repeat != 1)
			return usage_error("-p counts once: no -r");
	} else if (optind == argc) {
		return usage_error("no command to run");
	}
	if (o->sep && o->json)
		return usage_error("-x and --json do not go together");
	return -1;
}

/* Counts the command (-r times), after calibration; or -p's process. */
static int measure(struct stat_run *run, struct stat_options *o, bool defaults,
		   const char *path, char **cmd)
{
	int ret = EXIT_SUCCESS;

	if (run->target == TARGET_PROCESS)
		return count_process(run, o->specs, o->nspecs, defaults);
	if (!task_mode(run))
		ret = open_files(run, o->specs, o->nspecs, defaults);
	if (ret == EXIT_SUCCESS && o->calibrated)
		ret = calibrate(run, o->specs, o->nspecs, defaults);
	/* Ctrl-C is for the command: pmuctl lives on to print the counts. */
	signal(SIGINT, SIG_IGN);
	for (int i = 0; i < o->repeat && ret == EXIT_SUCCESS; i++)
		ret = run_once(run, o->specs, o->nspecs, defaults, path, cmd);
	signal(SIGINT, SIG_DFL);
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_options o = { .repeat = 1, .calibrated = true };
	struct stat_run run = { .target = TARGET_COMMAND };
	bool defaults;
	char path[4096], sig[64];
	FILE *out = stderr;
	int ret, err;

	ret = parse_options(argc, argv, &o, &run);
	if (ret >= 0)
		return ret;
	defaults = !o.nspecs;
	if (defaults) {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			o.specs[o.nspecs++] = (char *)default_events[i];
	}
	if (run.target != TARGET_PROCESS) {
		err = resolve(argv[optind], path, sizeof(path));
		if (err)
			return workload_failed(&run, argv[optind], err);
	}
	child_report = mmap(NULL, sizeof(*child_report), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (child_report == MAP_FAILED)
		return fail("cannot map memory: %s", strerror(errno));
	if (o.output && !(out = fopen(o.output, "we"))) {
		ret = fail("%s: %s", o.output, strerror(errno));
		goto unmap;
	}
	ret = measure(&run, &o, defaults, path, argv + optind);
	if (run.runs && !run.workload_failed) {
		if (o.json)
			stat_print_json(out, &run);
		else if (o.sep)
			stat_print_separated(out, &run, o.sep);
		else
			stat_print_table(out, &run, argv + optind);
		ret = run.status ? run.status : run.disturbed ? EXIT_FAILURE : ret;
		/* As perf stat does (psignal), whatever the format. */
		if (run.signal && (o.json || o.sep))
			fail("%s: killed by %s", argv[optind],
			     stat_signal_name(run.signal, sig, sizeof(sig)));
	}
	files_close(&run.files);
	if (out != stderr)
		fclose(out);
unmap:
	munmap(child_report, sizeof(*child_report));
	return ret;
}
