// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: the ioctls: the real ones with arguments from the interesting
 * values, the armpmu magic with a random nr, random numbers, and root's
 * RELEASE.
 */
#include "common.h"

static const uint32_t flag_vals[] = {
	0, EXCL_K, EXCL_K, EXCL_K, EXCL_U, EXCL_U | EXCL_K, EXCL_U | EXCL_K,
	4, 0x80000000U, 0xffffffffU,
};
static const uint32_t div_vals[] = { 0, 0, 1, 1, 2, 0x80000000U, 0xffffffffU };
/* Groups: mostly none, a few small ones that fill up, noise. */
static const uint32_t group_vals[] = { 0, 0, 0, 0, 1, 1, 2, 3, 0xffffffffU };

static const struct ioc_desc {
	const char *name;
	unsigned long req;
	enum argkind arg;
	size_t size;
} iocs[] = {
	{ "INFO", ARMPMU_IOC_INFO, A_OUT, sizeof(struct armpmu_info) },
	{ "BIND", ARMPMU_IOC_BIND, A_CPU, sizeof(__u32) },
	{ "SELECT", ARMPMU_IOC_SELECT, A_INDEX, sizeof(__u32) },
	{ "SET_EVENT", ARMPMU_IOC_SET_EVENT, A_EVENT, sizeof(struct armpmu_event) },
	{ "SET_DIVIDER", ARMPMU_IOC_SET_DIVIDER, A_DIVIDER, sizeof(__u32) },
	{ "RESET", ARMPMU_IOC_RESET, A_NONE, 0 },
	{ "START", ARMPMU_IOC_START, A_NONE, 0 },
	{ "STOP", ARMPMU_IOC_STOP, A_NONE, 0 },
	{ "READ", ARMPMU_IOC_READ, A_OUT, sizeof(struct armpmu_counts) },
	{ "CPU_STATUS", ARMPMU_IOC_CPU_STATUS, A_STATUS, sizeof(struct armpmu_cpu_status) },
	{ "RELEASE", ARMPMU_IOC_RELEASE, A_CPU, sizeof(__u32) },
	{ "SET_VALUE", ARMPMU_IOC_SET_VALUE, A_VALUE, sizeof(struct armpmu_value) },
	{ "SET_CYCLE_FILTER", ARMPMU_IOC_SET_CYCLE_FILTER, A_FLAGS, sizeof(__u32) },
	{ "ATTACH", ARMPMU_IOC_ATTACH, A_ATTACH, sizeof(struct armpmu_attach) },
	{ "FILE_STATUS", ARMPMU_IOC_FILE_STATUS, A_FILE, sizeof(struct armpmu_file_status) },
	{ "RELEASE_FILE", ARMPMU_IOC_RELEASE_FILE, A_FILE_ID, sizeof(__u32) },
	{ "REGS", ARMPMU_IOC_REGS, A_REGS, sizeof(struct armpmu_regs) },
	/* The header and room for every slot it may ask for. */
	{ "READ_SLOTS", ARMPMU_IOC_READ_SLOTS, A_SLOTS,
	  sizeof(struct armpmu_read) + ARMPMU_MAX_COUNTERS * sizeof(struct armpmu_slot) },
	{ "READ_THREADS", ARMPMU_IOC_READ_THREADS, A_THREADS,
	  sizeof(struct armpmu_threads) + THREADS_ROOM * THREAD_BYTES },
	{ "SET_SAMPLING", ARMPMU_IOC_SET_SAMPLING, A_SAMPLING, sizeof(struct armpmu_sampling) },
	{ "READ_SAMPLES", ARMPMU_IOC_READ_SAMPLES, A_SAMPLES,
	  sizeof(struct armpmu_samples) + SAMPLES_ROOM },
};

/*
 * One of the real ioctls, with arguments from the interesting values.
 * @watcher: the call goes to the never-bound private fd, so only calls that
 * do not bind are made there.
 */
void op_real_ioctl(struct worker *w, bool watcher)
{
	/* INFO, CPU_STATUS, RELEASE, FILE_STATUS, RELEASE_FILE */
	static const unsigned int watcher_iocs[] = { 0, 9, 10, 14, 15 };
	const struct ioc_desc *d;
	union {
		__u32 u32;
		struct armpmu_event ev;
		struct armpmu_value val;
		struct armpmu_cpu_status st;
		struct armpmu_info info;
		struct armpmu_counts counts;
		struct armpmu_attach at;
		struct armpmu_file_status fst;
		struct armpmu_regs regs;
		struct {
			struct armpmu_read hdr;
			struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
		} rd;
		struct {
			struct armpmu_threads hdr;
			char room[THREADS_ROOM * THREAD_BYTES];
		} th;
		struct armpmu_sampling sm;
		struct {
			struct armpmu_samples hdr;
			char room[SAMPLES_ROOM];
		} smp;
	} in, out;
	const char *fdkind = "(watcher)";
	struct call c;
	struct ptr p = { 0 };
	int fd, slot, err;
	uint32_t status_cpu = 0;

	if (watcher) {
		d = &iocs[watcher_iocs[below(w, ARRAY_SIZE(watcher_iocs))]];
		fd = w->priv[0];
	} else {
		d = &iocs[below(w, ARRAY_SIZE(iocs))];
		fd = pick_fd(w, &fdkind, &slot);
	}
	/*
	 * Root's RELEASE is rare (op_release): it takes CPUs from the others;
	 * RELEASE_FILE would end their files at random.
	 */
	if ((d->req == ARMPMU_IOC_RELEASE || d->req == ARMPMU_IOC_RELEASE_FILE) &&
	    w->role == AS_ROOT)
		d = &iocs[9];
	memset(&in, 0, sizeof(in));
	switch (d->arg) {
	case A_NONE:
		break;
	case A_CPU:
		in.u32 = PICK(w, cpu_vals);
		break;
	case A_INDEX:
		in.u32 = PICK(w, idx_vals);
		break;
	case A_DIVIDER:
		in.u32 = PICK(w, div_vals);
		break;
	case A_FLAGS:
		in.u32 = PICK(w, flag_vals);
		break;
	case A_EVENT:
		in.ev.event = PICK(w, ev_vals);
		in.ev.flags = PICK(w, flag_vals);
		in.ev.group = PICK(w, group_vals);
		in.ev.reserved = reserved(w);
		break;
	case A_VALUE:
		in.val.counter = PICK(w, counter_vals);
		in.val.reserved = reserved(w);
		in.val.value = pick64(w);
		break;
	case A_STATUS:
		in.st.cpu = chance(w, 800) ? below(w, ncpus) : PICK(w, cpu_vals);
		in.st.reserved[below(w, 3)] = reserved(w);
		/* Output fields are ignored on input: garbage must not matter. */
		if (chance(w, 300)) {
			in.st.flags = rnd(w);
			in.st.owner_pid = rnd(w);
			in.st.info.num_counters = rnd(w);
		}
		status_cpu = in.st.cpu;
		break;
	case A_OUT:
		memset(&in, 0xa5, sizeof(in));
		break;
	case A_SLOTS:
		memset(&in, 0xa5, sizeof(in));
		in.rd.hdr.nr = PICK(w, nr_vals);
		in.rd.hdr.reserved[0] = reserved(w);
		in.rd.hdr.reserved[1] = reserved(w);
		break;
	case A_THREADS:
		memset(&in, 0xa5, sizeof(in));
		in.th.hdr.index = chance(w, 700) ? below(w, 3) : PICK(w, idx_vals);
		in.th.hdr.nr = chance(w, 900) ? below(w, THREADS_ROOM + 1) : PICK(w, nr_vals);
		in.th.hdr.slots = chance(w, 800) ? below(w, ARMPMU_MAX_COUNTERS + 1) :
			       PICK(w, nr_vals);
		in.th.hdr.reserved[0] = reserved(w);
		in.th.hdr.reserved[1] = reserved(w);
		/* More than the room: only with slots the driver refuses. */
		if (in.th.hdr.nr > THREADS_ROOM && in.th.hdr.slots <= ARMPMU_MAX_COUNTERS)
			in.th.hdr.slots = ARMPMU_MAX_COUNTERS + 1 + below(w, 2);
		break;
	case A_SAMPLING: {
		/*
		 * Mostly slow ticks: at sample_rate_max's 10 kHz a debug
		 * kernel's fuzzing slows to a crawl; the fastest, rarely.
		 */
		static const __u64 periods[] = {
			0, 10000000, 1000000, 99999, 1, 0, 10000000, 1000000, 100000,
			ARMPMU_SAMPLING_PERIOD_MAX, ARMPMU_SAMPLING_PERIOD_MAX + 1, UINT64_MAX,
		};
		/* Around a page, the lowered user's bound (limits.c) and the ring's. */
		static const __u32 rings[] = {
			4096, 8192, 0, 1U << 20, 4095, (1U << 20) + 1, 16384, 65536, 65536 + 4096,
		};
		static const __u32 depths[] = { 0, 0, 1, 8, 127, 128, 4097, 0xffffffffU };

		in.sm.period_ns = chance(w, 900) ? periods[below(w, ARRAY_SIZE(periods))] :
				  rnd64(w);
		in.sm.ring_bytes = chance(w, 900) ? rings[below(w, ARRAY_SIZE(rings))] : rnd(w);
		in.sm.flags = chance(w, 900) ? below(w, ARMPMU_SAMPLING_FLAGS + 1) : rnd(w);
		if ((in.sm.flags & ARMPMU_SAMPLING_CALLCHAIN) || chance(w, 100))
			in.sm.max_stack = depths[below(w, ARRAY_SIZE(depths))];
		in.sm.reserved[below(w, 3)] = reserved(w);
		break;
	}
	case A_SAMPLES:
		memset(&in, 0xa5, sizeof(in));
		in.smp.hdr.size = chance(w, 900) ? SAMPLES_ROOM - 8 * below(w, 200) :
				  below(w, ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS));
		in.smp.hdr.reserved[0] = reserved(w);
		in.smp.hdr.reserved[1] = reserved(w);
		in.smp.hdr.reserved[2] = reserved(w);
		break;
	case A_ATTACH:
		/* Itself, a thread that does not exist, init (root's), noise. */
		in.at.tid = chance(w, 600) ? 0 : chance(w, 500) ? 0x3fffffffU :
			    chance(w, 500) ? 1 : rnd(w);
		in.at.flags = chance(w, 800) ? below(w, 2) : rnd(w);
		in.at.reserved[below(w, 2)] = reserved(w);
		break;
	case A_FILE:
		in.fst.id = chance(w, 800) ? below(w, 64) : rnd(w);
		in.fst.reserved[below(w, 4)] = reserved(w);
		break;
	case A_FILE_ID:
		in.u32 = chance(w, 800) ? below(w, 64) : rnd(w);
		break;
	case A_REGS:
		in.regs.cpu = chance(w, 800) ? below(w, ncpus) : PICK(w, cpu_vals);
		in.regs.reserved[below(w, 4)] = reserved(w);
		/* Output fields are ignored on input. */
		if (chance(w, 300)) {
			in.regs.flags = rnd(w);
			in.regs.num_counters = rnd(w);
		}
		status_cpu = in.regs.cpu;
		break;
	}

	call_init(&c, d->name, fd, fdkind);
	c.req = d->req;
	if (d->arg == A_NONE) {
		/* The argument is ignored: anything will do. */
		p.kind = chance(w, 900) ? PK_NULL : PK_RANDOM;
		p.addr = p.kind == PK_NULL ? 0 : (uintptr_t)rnd64(w);
		p.fill = NULL;
	} else {
		p = pick_ptr(w, d->size);
		fill_ptr(&p, &in, d->size);
		call_ptr(&c, &p);
		switch (d->arg) {
		case A_EVENT:
			call_arg(&c, in.ev.event);
			call_arg(&c, in.ev.flags);
			call_arg(&c, in.ev.group);
			call_arg(&c, in.ev.reserved);
			break;
		case A_VALUE:
			call_arg(&c, in.val.counter);
			call_arg(&c, in.val.reserved);
			call_arg(&c, in.val.value);
			break;
		case A_REGS:
			call_arg(&c, in.regs.cpu);
			call_arg(&c, in.regs.reserved[0]);
			break;
		case A_SLOTS:
			call_arg(&c, in.rd.hdr.nr);
			call_arg(&c, in.rd.hdr.reserved[0]);
			call_arg(&c, in.rd.hdr.reserved[1]);
			break;
		case A_THREADS:
			call_arg(&c, in.th.hdr.index);
			call_arg(&c, in.th.hdr.nr);
			call_arg(&c, in.th.hdr.slots);
			call_arg(&c, in.th.hdr.reserved[0]);
			call_arg(&c, in.th.hdr.reserved[1]);
			break;
		case A_STATUS:
			call_arg(&c, in.st.cpu);
			call_arg(&c, in.st.reserved[0]);
			call_arg(&c, in.st.reserved[1]);
			call_arg(&c, in.st.reserved[2]);
			break;
		case A_ATTACH:
			call_arg(&c, in.at.tid);
			call_arg(&c, in.at.flags);
			call_arg(&c, in.at.reserved[0]);
			call_arg(&c, in.at.reserved[1]);
			break;
		case A_FILE:
			call_arg(&c, in.fst.id);
			break;
		case A_SAMPLING:
			call_arg(&c, in.sm.period_ns);
			call_arg(&c, in.sm.ring_bytes);
			call_arg(&c, in.sm.flags);
			call_arg(&c, in.sm.max_stack);
			break;
		case A_SAMPLES:
			call_arg(&c, in.smp.hdr.size);
			break;
		case A_OUT:
			break;
		default:
			call_arg(&c, in.u32);
		}
	}
	err = ioctl(fd, d->req, (void *)p.addr) < 0 ? errno : 0;

	if (d->arg == A_SLOTS) {
		check_read_slots(w, &c, &p, in.rd.hdr.nr, err);
	} else if (d->arg == A_THREADS) {
		check_read_threads(w, &c, &p, &in.th.hdr, err);
		return;
	} else if (d->arg == A_SAMPLES) {
		check_read_samples(w, &c, &p, &in.smp.hdr, err);
		return;
	} else if (d->arg == A_SAMPLING && readable(&p)) {
		done(w, &c, OP_IOCTL, err, only_sampling);
		/* The read-only page holds what it was made with, not @in. */
		if (writable(&p))
			check_sampling(w, &c, &in.sm, err);
	} else if (d->arg != A_NONE && !readable(&p) && (d->arg != A_OUT)) {
		/* Input copied first: a pointer it cannot read is EFAULT, always. */
		done(w, &c, OP_IOCTL, err, only_efault);
	} else if (d->arg == A_OUT || d->arg == A_STATUS || d->arg == A_FILE ||
		   d->arg == A_REGS) {
		done(w, &c, OP_IOCTL, err, watcher ? only_watcher : only_not_enotty);
		if ((!err || err == EIO) && !writable(&p) && d->arg != A_NONE)
			FAIL_AFTER(w, F_WRONG, &c, "%s with a pointer it cannot write",
				   tap_errname(err));
	} else if (d->req == ARMPMU_IOC_RELEASE || d->req == ARMPMU_IOC_RELEASE_FILE) {
		/* Not root here: get_user, then the capability. */
		static const int only_eperm[] = { EPERM, EFAULT, 0 };

		done(w, &c, OP_IOCTL, err, only_eperm);
	} else {
		done(w, &c, OP_IOCTL, err, watcher ? only_watcher : only_not_enotty);
	}
	if (!writable(&p))
		return;
	if (d->req == ARMPMU_IOC_INFO && !err) {
		memcpy(&out.info, p.fill, sizeof(out.info));
		check_info(w, &c, &out.info, watcher);
	} else if (d->req == ARMPMU_IOC_READ && (!err || err == EIO)) {
		memcpy(&out.counts, p.fill, sizeof(out.counts));
		check_counts(w, &c, &out.counts, err);
	} else if (d->req == ARMPMU_IOC_CPU_STATUS && !err) {
		memcpy(&out.st, p.fill, sizeof(out.st));
		check_status(w, &c, &out.st, status_cpu);
	} else if (d->req == ARMPMU_IOC_REGS && !err) {
		memcpy(&out.regs, p.fill, sizeof(out.regs));
		check_regs(w, &c, &out.regs, status_cpu);
	} else if (d->req == ARMPMU_IOC_READ_SLOTS && (!err || err == EIO)) {
		memcpy(&out.rd, p.fill, sizeof(out.rd.hdr) + in.rd.hdr.nr * sizeof(out.rd.slot[0]));
		check_slots(w, &c, &out.rd.hdr, out.rd.slot, in.rd.hdr.nr, err);
	}
}

/*
 * Ioctl type bytes the VFS answers itself, before the driver (FIOCLEX,
 * FIONBIO, FIONREAD, FIGETBSZ, FIFREEZE, FICLONE, FS_IOC_*...): their
 * errnos are the VFS's, not armpmu's, so random numbers avoid them.
 */
static bool vfs_type(unsigned int type)
{
	return type == 0x00 || type == 'T' || type == 'X' || type == 'f' ||
	       type == 0x94 || type == 0x15;
}

/* The armpmu magic with a random nr, direction and size. */
void op_magic_ioctl(struct worker *w)
{
	static const unsigned int sizes[] = {
		0, 1, 4, 8, 16, sizeof(struct armpmu_info), sizeof(struct armpmu_counts),
		sizeof(struct armpmu_cpu_status), sizeof(struct armpmu_value),
	};
	unsigned int dir = below(w, 4), nr, size;
	const char *fdkind;
	unsigned long req;
	struct call c;
	struct ptr p;
	int fd, slot, err;

	nr = chance(w, 700) ? below(w, 16) : rnd(w) & 0xff;
	size = chance(w, 700) ? sizes[below(w, ARRAY_SIZE(sizes))] : rnd(w) & _IOC_SIZEMASK;
	req = _IOC(dir, ARMPMU_IOC_MAGIC, nr, size);
	/* RELEASE from root is op_release's, rarely. */
	if (req == ARMPMU_IOC_RELEASE && w->role == AS_ROOT)
		req = _IOC(dir, ARMPMU_IOC_MAGIC, 0x0e, size);
	/* READ_SAMPLES writes as much as its header says: op_ioctl's, with its room. */
	if (req == ARMPMU_IOC_READ_SAMPLES)
		req = _IOC(dir, ARMPMU_IOC_MAGIC, 0x16, size);
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, size);
	if (p.fill)
		memset(p.fill, below(w, 2) ? 0 : 0xa5, p.fill_len);
	call_init(&c, "ioctl", fd, fdkind);
	c.req = req;
	call_ptr(&c, &p);
	err = ioctl(fd, req, (void *)p.addr) < 0 ? errno : 0;
	done(w, &c, OP_MAGIC, err, NULL);
	if (!err && !writable(&p) && (dir & _IOC_READ) && size)
		FAIL_AFTER(w, F_WRONG, &c, "success with a pointer it cannot write");
}

/* A random ioctl number: not armpmu's, so ENOTTY. */
void op_random_ioctl(struct worker *w)
{
	static const int only_enotty[] = { ENOTTY, 0 };
	const char *fdkind;
	unsigned long req;
	struct call c;
	struct ptr p;
	int fd, slot, err;

	do {
		req = rnd(w);
	} while (_IOC_TYPE(req) == ARMPMU_IOC_MAGIC || vfs_type(_IOC_TYPE(req)));
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, 512);
	call_init(&c, "ioctl", fd, fdkind);
	c.req = req;
	call_ptr(&c, &p);
	err = ioctl(fd, req, (void *)p.addr) < 0 ? errno : 0;
	done(w, &c, OP_RANDOM, err, only_enotty);
}

/* Root only, rarely: take a CPU from whoever owns it. */
void op_release(struct worker *w)
{
	static const int only_release[] = { ESRCH, 0 };
	uint32_t cpu = below(w, ncpus);
	const char *fdkind;
	struct call c;
	int fd, slot, err;

	fd = chance(w, 500) ? w->priv[0] : pick_fd(w, &fdkind, &slot);
	call_init(&c, "RELEASE", fd, fd == w->priv[0] ? "(watcher)" : fdkind);
	c.req = ARMPMU_IOC_RELEASE;
	call_arg(&c, cpu);
	err = ioc_u32(fd, ARMPMU_IOC_RELEASE, cpu);
	done(w, &c, OP_RELEASE, err, only_release);
}
