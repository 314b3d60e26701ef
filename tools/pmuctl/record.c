// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl record: where a command (or a running process, or thread) spends
 * its time, sampled by the driver every period of the threads' own
 * running time, with the counts of the events asked for at each sample,
 * written as perf record writes `perf record -e '{cpu-clock,EVENTS}:S'`
 * (record-file.c, perfdata.c), so that perf report, perf script, perf
 * annotate and Hotspot read it unchanged.
 *
 * A command is forked and held (stat-workload.c, as pmuctl stat does),
 * its file attached with FOLLOW and ENABLE_ON_EXEC, sampled, and armed;
 * released, it executes the command and the samples start there. -p
 * attaches a file to each thread of a running process (with FOLLOW), -t
 * to one thread. The driver's ring is drained when poll(2) says it holds
 * a quarter of its size, and at least every DRAIN_MS (every EARLY_MS in
 * the first EARLY_NS, so that a program that ends soon after its exec has
 * its mappings read); at each drain the processes' mappings are looked
 * at, so that a library opened after the start is named.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/stat.h>

#include "pmuctl.h"
#include "record-file.h"
#include "stat-workload.h"

#define DRAIN_MS	50
#define EARLY_MS	1
#define EARLY_NS	100000000ULL	/* 100 ms */
#define DEFAULT_FREQ	4000	/* perf record's -F */
#define RING_BYTES	(512 * 1024)
#define READ_ROOM	(64 * 1024)
#define MAX_FILES	256

static const char help[] =
	"Usage: pmuctl record [-e EVENTS] [-F HZ | -c NS] [-o FILE] [-p PID | -t TID | [--] COMMAND [ARGS]]\n"
	"\n"
	"Samples where a command spends its time: every period of its threads'\n"
	"own running time in user mode, the PC and the counts of EVENTS since the\n"
	"thread's previous sample. Writes perf's own file format, as\n"
	"perf record -e '{cpu-clock,EVENTS}:S' would: read it with pmuctl report,\n"
	"perf report (--group: a column per event), perf script, perf annotate\n"
	"or Hotspot.\n"
	"\n"
	"  -e, --event EVENTS   events read at each sample, comma-separated, as\n"
	"                       pmuctl stat -e takes them (default: cycles,instructions,\n"
	"                       the latter where the core counts it); user mode only\n"
	"  -F, --freq HZ        samples per second of running time (default 4000)\n"
	"  -c, --count NS       or a sample every NS nanoseconds of running time\n"
	"  -o, --output FILE    the file (default perf.data; an old one becomes FILE.old)\n"
	"  -p, --pid PID        a running process, its threads and what they create,\n"
	"                       until it ends or Ctrl-C\n"
	"  -t, --tid TID        one running thread\n"
	"  -g                   call graphs: each sample's callers too (--call-graph fp)\n"
	"      --call-graph fp  the callers from the frame records the driver walks in\n"
	"                       each sample (AArch64 code; 32-bit code keeps none)\n"
	"  -q, --quiet          no progress lines\n"
	"  -h, --help           this help\n"
	"\n"
	"A thread that executes a set-user-ID program is let go there (said).\n"
	"See pmuctl(1).\n";

struct record {
	const char *output;
	char *events[PERFDATA_MAX_EVENTS];
	int nevents;
	uint64_t freq, period_ns;
	pid_t pid, tid;
	bool quiet;
	bool callchain;		/* -g */
	bool defaults;		/* no -e: an event the core lacks is left out */
	char **cmd;
	struct pmudev *files[MAX_FILES];
	int nfiles;
	bool ended[MAX_FILES];
	struct record_file *rf;
	unsigned long wakeups;
	struct perfdata_config cfg;
	struct record_source src[PERFDATA_MAX_EVENTS];
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && end != s && !*end && *v > 0 && *s != '-';
}

static int add_events(struct record *r, char *arg)
{
	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		if (strchr(tok, '{') || strchr(tok, '}'))
			return usage_error("'%s': the events are one group already, with cpu-clock", tok);
		if (r->nevents == PERFDATA_MAX_EVENTS - 1)
			return usage_error("too many events");
		r->events[r->nevents++] = tok;
	}
	return 0;
}

static int parse(int argc, char **argv, struct record *r)
{
	static const struct option longs[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	int opt, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:e:F:c:o:p:t:gqh", longs, NULL)) != -1) {
		switch (opt) {
		case 'g':
			r->callchain = true;
			break;
		case 'G':
			if (!strcmp(optarg, "fp")) {
				r->callchain = true;
				break;
			}
			if (!strncmp(optarg, "dwarf", 5) || !strcmp(optarg, "lbr"))
				return usage_error("--call-graph %s: not here yet; fp is (the frame "
						   "records of AArch64 code)", optarg);
			return usage_error("--call-graph: '%s' is not a way to record them (fp)",
					   optarg);
		case 'e':
			ret = add_events(r, optarg);
			if (ret)
				return ret;
			break;
		case 'F':
			if (!parse_u64(optarg, &r->freq) || r->freq > 1000000)
				return usage_error("-F: '%s' is not a frequency (Hz, 1 to 1000000)", optarg);
			break;
		case 'c':
			if (!parse_u64(optarg, &r->period_ns) || r->period_ns > ARMPMU_SAMPLING_PERIOD_MAX)
				return usage_error("-c: '%s' is not a period in ns (1 to 2^63 - 1)",
						   optarg);
			break;
		case 'o':
			r->output = optarg;
			break;
		case 'p':
		case 't':
			if (!parse_u64(optarg, &v) || v > INT32_MAX)
				return usage_error("-%c: '%s' is not a %s ID", opt, optarg,
						   opt == 'p' ? "process" : "thread");
			*(opt == 'p' ? &r->pid : &r->tid) = (pid_t)v;
			break;
		case 'q':
			r->quiet = true;
			break;
		case 'h':
			fputs(help, stdout);
			exit(EXIT_SUCCESS);
		default:
			return option_error(opt, argv);
		}
	}
	if (r->freq && r->period_ns)
		return usage_error("-F and -c: one or the other");
	if (r->pid && r->tid)
		return usage_error("-p and -t: one or the other");
	r->cmd = argv + optind;
	if (!*r->cmd && !r->pid && !r->tid)
		return usage_error("nothing to record: a COMMAND, -p PID or -t TID");
	if (*r->cmd && (r->pid || r->tid))
		return usage_error("a COMMAND, or -p/-t: not both");
	return 0;
}

/*
 * perf's type and config for an event name: perf's generic hardware events
 * by name (libpmudev lists them in perf's own order, PERF_COUNT_HW_CPU_CYCLES
 * 0 to PERF_COUNT_HW_BRANCH_MISSES 5), else the raw event number.
 */
static void perf_event_of(const char *spec, const struct armpmu_info *info,
			  struct perfdata_event *e)
{
	size_t len = strcspn(spec, ":");
	struct pmudev_event ev = { 0 };
	const char *alias;

	for (unsigned int i = 0; i <= PERF_COUNT_HW_BRANCH_MISSES && (alias = pmudev_perf_alias(i));
	     i++) {
		if (strlen(alias) == len && !strncasecmp(spec, alias, len)) {
			e->type = PERF_TYPE_HARDWARE;
			e->config = i;
			return;
		}
	}
	pmudev_event_parse(spec, info, &ev);
	e->type = PERF_TYPE_RAW;
	e->config = ev.number;
}

/* Programs @pmu with the events; the first file also fills the perf description. */
static int program(struct record *r, struct pmudev *pmu, bool first)
{
	for (int i = 0; i < r->nevents; i++) {
		char spec[64], why[160];
		int idx;

		/* Samples are of user mode: so are the counts that weigh them. */
		snprintf(spec, sizeof(spec), "%s%s", r->events[i], strchr(r->events[i], ':') ? "" : ":u");
		idx = pmudev_add_event(pmu, spec);
		if (idx == -ENOENT && first && r->defaults) {
			/* instructions where QEMU counts none (no icount) */
			memmove(&r->events[i], &r->events[i + 1],
				(size_t)(r->nevents - i - 1) * sizeof(r->events[0]));
			r->nevents--;
			i--;
			continue;
		}
		if (idx < 0) {
			if (pmudev_event_error(spec, pmudev_info(pmu), why, sizeof(why)))
				return fail("%s", why);
			return fail("%s: %s", r->events[i], pmudev_strerror(idx));
		}
		if (!first)
			continue;
		struct perfdata_event *e = &r->cfg.events[i + 1];

		snprintf(e->name, sizeof(e->name), "%s", pmudev_counter_name(pmu, (unsigned int)idx));
		perf_event_of(spec, pmudev_info(pmu), e);
		r->src[i] = (struct record_source){ .cycles = idx == ARMPMU_CYCLE_COUNTER,
						    .slot = (unsigned int)idx };
	}
	return 0;
}

/* The depth the module gives a chain (its sample_max_stack), for perf's attribute. */
static uint16_t max_stack(void)
{
	FILE *f = fopen("/sys/module/armpmu/parameters/sample_max_stack", "r");
	unsigned int n = 127;

	if (f) {
		if (fscanf(f, "%u", &n) != 1 || n > ARMPMU_MAX_STACK_LIMIT)
			n = 127;
		fclose(f);
	}
	return (uint16_t)n;
}

/*
 * SET_SAMPLING, with a smaller ring if the module allows no bigger
 * (E2BIG), or the user's rings leave no room for it (EPERM).
 */
static int set_sampling(struct record *r, struct pmudev *pmu)
{
	uint32_t ring_bytes = RING_BYTES;
	int err;

	for (;;) {
		err = pmudev_set_sampling(pmu, r->period_ns, ring_bytes,
					  r->callchain ? ARMPMU_SAMPLING_CALLCHAIN : 0);
		if (!err)
			return 0;
		if ((err != -E2BIG && err != -EPERM) || ring_bytes <= 4096)
			break;
		ring_bytes /= 2;
	}
	if (err == -EPERM)
		return fail("cannot sample: this user's sampling rings already hold what the module "
			    "allows a user (its sample_ring_user_kb parameter); close some, or ask "
			    "for a higher bound");
	if (err == -ERANGE)
		return fail("-F %llu: more samples a second than the module allows "
			    "(its sample_rate_max parameter)",
			    (unsigned long long)(r->freq ? r->freq : 1000000000 / r->period_ns));
	if (err == -ENOTTY || err == -EINVAL)
		return fail("this armpmu module cannot sample (it is older than pmuctl)");
	return fail("cannot sample: %s", pmudev_strerror(err));
}

/* A file attached to @tid, programmed and sampled, not started. */
static int open_file(struct record *r, pid_t tid, unsigned int flags)
{
	struct pmudev *pmu;
	int err, ret;

	if (r->nfiles == MAX_FILES)
		return fail("more than %d threads", MAX_FILES);
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	r->files[r->nfiles++] = pmu;
	err = pmudev_attach(pmu, tid, flags);
	if (err == -ESRCH && r->nfiles > 1)
		return -ESRCH;	/* a thread of -p that ended meanwhile */
	if (err == -EACCES)
		return fail("not allowed to record %s %d: %s: it must be yours (and not "
			    "set-user-ID), or you need CAP_SYS_PTRACE",
			    r->tid ? "thread" : "process", (int)tid, strerror(EACCES));
	if (err)
		return fail("cannot record thread %d: %s", (int)tid, pmudev_strerror(err));
	ret = program(r, pmu, false);
	return ret ? ret : set_sampling(r, pmu);
}

/*
 * The events and the rate tried on a file with no mode yet, before
 * anything runs; it tells the events' slots and perf names.
 */
static int probe(struct record *r)
{
	struct pmudev *pmu;
	int ret;

	/* Task mode for pmuctl itself, for a moment: the events need a mode. */
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, 0))
		return EXIT_FAILURE;
	ret = program(r, pmu, true);
	if (!ret)
		ret = set_sampling(r, pmu);
	pmudev_close(pmu);
	return ret;
}

/* Takes every record from @pmu's ring into the file; true once it has ended. */
static int drain(struct record *r, int i)
{
	static union {
		struct armpmu_samples head;
		char bytes[sizeof(struct armpmu_samples) + READ_ROOM];
	} buf;
	int err;

	do {
		memset(&buf.head, 0, sizeof(buf.head));
		buf.head.size = READ_ROOM;
		err = pmudev_read_samples(r->files[i], &buf.head);
		if (err == -EINTR)
			continue;
		if (err)
			return fail("cannot read the samples: %s", pmudev_strerror(err));
		err = record_file_add(r->rf, buf.bytes + sizeof(buf.head), buf.head.size);
		if (err)
			return fail("%s: %s", r->output, strerror(-err));
		if (buf.head.flags & ARMPMU_SAMPLES_ENDED && !buf.head.pending)
			r->ended[i] = true;
	} while (buf.head.size);
	return 0;
}

static bool all_ended(const struct record *r)
{
	for (int i = 0; i < r->nfiles; i++)
		if (!r->ended[i])
			return false;
	return true;
}

/* Drains until every file has ended (or Ctrl-C for -p, -t). */
static int collect(struct record *r)
{
	struct pollfd pfd[MAX_FILES];
	uint64_t previous = now_ns(), first = previous;
	int ret = 0, err;

	while (!ret && !all_ended(r)) {
		int n = 0;
		uint64_t started;

		for (int i = 0; i < r->nfiles; i++)
			if (!r->ended[i])
				pfd[n++] = (struct pollfd){ .fd = pmudev_fd(r->files[i]), .events = POLLIN };
		if (poll(pfd, (nfds_t)n, now_ns() - first < EARLY_NS ? EARLY_MS : DRAIN_MS) > 0)
			r->wakeups++;
		if (interrupted) {
			for (int i = 0; i < r->nfiles; i++)
				pmudev_stop(r->files[i]);
		}
		started = now_ns();
		for (int i = 0; i < r->nfiles && !ret; i++)
			if (!r->ended[i])
				ret = drain(r, i);
		record_file_scan(r->rf, started);
		err = ret ? 0 : record_file_flush(r->rf, previous);
		if (err)
			ret = fail("%s: %s", r->output, strerror(-err));
		previous = started;
		if (interrupted)
			break;
	}
	return ret;
}

/* -p: a file for each thread of the process (FOLLOW); -t: the one thread. */
static int attach_running(struct record *r)
{
	uint64_t t = now_ns();
	char path[64];
	struct dirent *d;
	DIR *dir;
	int ret;

	if (r->tid) {
		char link[64];
		struct stat st;
		pid_t pid = r->tid;
		FILE *f;

		/* The thread's process, from its status. */
		snprintf(link, sizeof(link), "/proc/%d/status", (int)r->tid);
		f = fopen(link, "r");
		if (f) {
			char line[128];

			while (fgets(line, sizeof(line), f))
				if (sscanf(line, "Tgid: %d", &pid) == 1)
					break;
			fclose(f);
		}
		if (stat(link, &st))
			return fail("no thread %d", (int)r->tid);
		ret = open_file(r, r->tid, 0);
		return ret ? ret : record_file_thread(r->rf, (uint32_t)pid, (uint32_t)r->tid, t, NULL);
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)r->pid);
	dir = opendir(path);
	if (!dir)
		return fail("no process %d", (int)r->pid);
	ret = open_file(r, r->pid, PMUDEV_ATTACH_FOLLOW);
	if (!ret)
		ret = record_file_thread(r->rf, (uint32_t)r->pid, (uint32_t)r->pid, t, NULL);
	while (!ret && (d = readdir(dir))) {
		int tid = atoi(d->d_name);

		if (tid <= 0 || tid == r->pid)
			continue;
		ret = open_file(r, tid, PMUDEV_ATTACH_FOLLOW);
		if (ret == -ESRCH) {
			pmudev_close(r->files[--r->nfiles]);
			ret = 0;
			continue;
		}
		if (!ret)
			ret = record_file_thread(r->rf, (uint32_t)r->pid, (uint32_t)tid, t, NULL);
	}
	closedir(dir);
	return ret;
}

/* perf record's: perf.data, and an old one kept as perf.data.old. */
static void keep_old(const char *path)
{
	char old[4096];
	struct stat st;

	if (stat(path, &st) || !st.st_size)
		return;
	snprintf(old, sizeof(old), "%s.old", path);
	if (rename(path, old))
		say("%s: cannot keep it as %s: %s", path, old, strerror(errno));
}

static int record_command(struct record *r, int *status)
{
	struct stat_workload w;
	struct stat_usage usage;
	const char *base;
	int sig, ret;

	ret = stat_workload_find(&w, r->cmd);
	if (ret)
		return ret;
	ret = stat_workload_prepare(&w);
	if (ret)
		return ret;
	ret = open_file(r, w.pid, PMUDEV_ATTACH_FOLLOW | PMUDEV_ATTACH_ENABLE_ON_EXEC);
	if (!ret && pmudev_start(r->files[0]))
		ret = fail("cannot start sampling the command");
	if (ret) {
		stat_workload_abandon(&w);
		return ret;
	}
	base = strrchr(w.path, '/') ? strrchr(w.path, '/') + 1 : w.path;
	/* Its name from its exec on, should the driver's EXEC come late. */
	ret = record_file_thread(r->rf, (uint32_t)w.pid, (uint32_t)w.pid, now_ns(), base);
	stat_workload_release(&w);
	if (!ret)
		ret = collect(r);
	if (ret) {
		stat_workload_abandon(&w);
		return ret;
	}
	return stat_workload_finish(&w, status, &sig, &usage);
}

int cmd_record(int argc, char **argv)
{
	static char default_events[] = "cycles,instructions";
	struct record r = { .output = "perf.data" };
	struct record_stats st;
	struct stat sb;
	int ret, status = 0, err;

	ret = parse(argc, argv, &r);
	if (ret)
		return ret;
	r.defaults = !r.nevents;
	if (r.defaults)
		add_events(&r, default_events);
	if (!r.freq && !r.period_ns)
		r.freq = DEFAULT_FREQ;
	if (!r.period_ns)
		r.period_ns = 1000000000 / r.freq;
	r.cfg = (struct perfdata_config){
		.nevents = (unsigned int)r.nevents + 1, .freq = r.freq != 0,
		.period = r.freq ? r.freq : r.period_ns, .exclude_kernel = true,
		.enable_on_exec = *r.cmd != NULL, .argc = argc, .argv = argv,
		.callchain = r.callchain, .max_stack = max_stack(),
	};
	perfdata_leader(&r.cfg);

	ret = probe(&r);
	if (ret)
		return ret;
	r.cfg.nevents = (unsigned int)r.nevents + 1;
	keep_old(r.output);
	err = record_file_open(&r.rf, r.output, &r.cfg, r.src);
	if (err) {
		ret = fail("%s: %s", r.output, strerror(-err));
		goto out;
	}
	if (*r.cmd) {
		/* Ctrl-C is for the command: pmuctl lives on to write the file. */
		signal(SIGINT, SIG_IGN);
		ret = record_command(&r, &status);
		signal(SIGINT, SIG_DFL);
	} else {
		signal(SIGINT, on_sigint);
		ret = attach_running(&r);
		for (int i = 0; !ret && i < r.nfiles; i++)
			if (pmudev_start(r.files[i]))
				ret = fail("cannot start sampling");
		if (!ret)
			ret = collect(&r);
		signal(SIGINT, SIG_DFL);
	}
	err = record_file_close(r.rf, &st);
	if (err && !ret)
		ret = fail("%s: %s", r.output, strerror(-err));
	if (ret && ret != 126 && ret != 127)
		goto out;
	if (st.lost)
		say("%llu samples lost: the driver's ring was full (a lower -F loses fewer)",
		    (unsigned long long)st.lost);
	if (st.no_frames)
		say("%llu samples of 32-bit code have no callers: AArch32 code keeps no frame "
		    "records for --call-graph fp to walk", (unsigned long long)st.no_frames);
	if (st.chains_cut)
		say("%llu call chains end short: a frame record could not be read, or the "
		    "module's sample_max_stack was reached", (unsigned long long)st.chains_cut);
	if (!r.quiet) {
		fprintf(stderr, "[ perf record: Woken up %lu times to write data ]\n", r.wakeups);
		stat(r.output, &sb);
		fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			(double)sb.st_size / (1024 * 1024), r.output, (unsigned long long)st.samples);
	}
	if (!ret)
		ret = status;
out:
	for (int i = 0; i < r.nfiles; i++)
		pmudev_close(r.files[i]);
	return ret;
}
