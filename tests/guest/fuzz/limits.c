// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: the sampling limits. For the run the parent lowers the module's
 * sample_ring_user_kb to FUZZ_RING_USER_KB, so lab's files meet the bound
 * on a user's ring memory that a 1 MiB ring alone passes; each
 * SET_SAMPLING is checked against the limits its argument meets, and at
 * the end lab's charge must be back at zero.
 */
#include <inttypes.h>

#include "common.h"

#define PARAMS			"/sys/module/armpmu/parameters/"
/* Four rings of 16 KiB; one of 1 MiB is past it on its own. */
#define FUZZ_RING_USER_KB	64

struct limits limits;

static bool read_param(const char *name, uint64_t *v)
{
	char path[128], text[32] = "";
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(text, sizeof(text), f) && sscanf(text, "%" SCNu64, v) == 1;
	fclose(f);
	return ok;
}

void limits_lower(void)
{
	uint64_t rate, kb_max;
	char text[32];

	if (!read_param("sample_rate_max", &rate) || !read_param("sample_ring_kb_max", &kb_max) ||
	    !read_param("sample_ring_user_kb", &limits.user_kb_was) ||
	    !read_param("sample_max_stack", &limits.max_stack) || !rate) {
		tap_note("sampling limits: the module's parameters unreadable, not checked");
		return;
	}
	limits.min_period_ns = 1000000000ULL / rate;
	limits.ring_max = kb_max * 1024;
	snprintf(text, sizeof(text), "%u", FUZZ_RING_USER_KB);
	if (write_file(PARAMS "sample_ring_user_kb", text)) {
		tap_note("sampling limits: sample_ring_user_kb not writable, not checked");
		return;
	}
	limits.user_bound = FUZZ_RING_USER_KB * 1024;
	tap_note("sampling limits: periods %llu..%llu ns, rings %u..%llu bytes, a user's rings "
		 "%llu bytes for the run (was %llu KiB)", (ull)limits.min_period_ns,
		 (ull)ARMPMU_SAMPLING_PERIOD_MAX, (unsigned int)page_size, (ull)limits.ring_max,
		 (ull)limits.user_bound, (ull)limits.user_kb_was);
}

/*
 * A SET_SAMPLING whose argument was @sm, in writable memory: what its
 * fields alone decide. A worker's files, shared and private, were all
 * opened by its process as its user: lab's meet the bound, root's
 * (CAP_IPC_LOCK) never.
 */
void check_sampling(struct worker *w, struct call *c, const struct armpmu_sampling *sm, int err)
{
	bool lab_opened = w->role == AS_LAB;
	uint64_t bytes;
	bool well_formed = !(sm->flags & ~ARMPMU_SAMPLING_FLAGS) && !sm->reserved[0] &&
			   !sm->reserved[1] && !sm->reserved[2] &&
			   (!sm->max_stack || (sm->flags & ARMPMU_SAMPLING_CALLCHAIN)) &&
			   sm->period_ns && sm->ring_bytes >= (uint64_t)page_size;

	if (!limits.user_bound || !well_formed || err == EBADF || err == EINTR)
		return;
	if (sm->period_ns > ARMPMU_SAMPLING_PERIOD_MAX) {
		w->st->limits[LIMIT_PERIOD]++;
		if (err != ERANGE)
			FAIL_AFTER(w, F_WRONG, c, "a period above ARMPMU_SAMPLING_PERIOD_MAX gave "
				   "%s, not ERANGE", tap_errname(err));
	}
	if (sm->period_ns < limits.min_period_ns || sm->period_ns > ARMPMU_SAMPLING_PERIOD_MAX ||
	    sm->ring_bytes > limits.ring_max || sm->max_stack > limits.max_stack ||
	    (sm->flags & ARMPMU_SAMPLING_KERNEL))
		return;
	/* A chain's scratch is charged beside its ring. */
	bytes = sm->ring_bytes + ((sm->flags & ARMPMU_SAMPLING_CALLCHAIN) ?
		8 * (sm->max_stack ? sm->max_stack : (limits.max_stack ? limits.max_stack : 1)) : 0);
	if (lab_opened && bytes > limits.user_bound) {
		w->st->limits[LIMIT_LAB_RING]++;
		if (!err)
			FAIL_AFTER(w, F_WRONG, c, "lab got a ring of %llu bytes, past its user's "
				   "%llu", (ull)bytes, (ull)limits.user_bound);
	}
	if (!lab_opened) {
		w->st->limits[LIMIT_ROOT_RING]++;
		if (err == EPERM)
			FAIL_AFTER(w, F_WRONG, c, "EPERM for a file root (CAP_IPC_LOCK) opened");
	}
}

/*
 * After the run, every file closed: lab's charge is back at zero, so a
 * ring of the whole bound fits, and a second file's page does not. @met:
 * the calls that met each limit, all workers'.
 */
void limits_check_and_restore(const uint64_t met[LIMIT_KINDS])
{
	int *errs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char text[32];
	pid_t pid;

	if (!limits.user_bound || errs == MAP_FAILED) {
		tap_skip("lab's ring charge is back at zero after the run",
			 "sample_ring_user_kb not lowered");
		return;
	}
	tap_note("sampling limits met: %llu periods above the maximum, %llu rings of lab past "
		 "its bound, %llu rings of root's", (ull)met[LIMIT_PERIOD],
		 (ull)met[LIMIT_LAB_RING], (ull)met[LIMIT_ROOT_RING]);
	errs[0] = errs[1] = -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct armpmu_sampling whole = {
			.period_ns = 10000000, .ring_bytes = (__u32)limits.user_bound,
		}, page = { .period_ns = 10000000, .ring_bytes = (__u32)page_size };
		int fd = -1, fd2 = -1;

		if (!become_user(AS_LAB))
			_exit(100);
		errs[0] = dev_open(&fd);
		errs[0] = errs[0] ? errs[0] : ioc(fd, ARMPMU_IOC_SET_SAMPLING, &whole);
		/* A process of its own: this thread is the first file's. */
		pid = fork();
		if (pid == 0) {
			errs[1] = dev_open(&fd2);
			errs[1] = errs[1] ? errs[1] : ioc(fd2, ARMPMU_IOC_SET_SAMPLING, &page);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	tap_check(errs[0] == 0 && errs[1] == EPERM,
		  "lab's ring charge is back at zero after the run: a ring of its whole bound "
		  "fits, then a page more is EPERM",
		  "%llu bytes: %s, a page more: %s", (ull)limits.user_bound, tap_errname(errs[0]),
		  tap_errname(errs[1]));
	munmap(errs, 4096);
	snprintf(text, sizeof(text), "%llu", (ull)limits.user_kb_was);
	write_file(PARAMS "sample_ring_user_kb", text);
}
