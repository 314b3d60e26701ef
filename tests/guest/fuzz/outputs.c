// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: what a successful ioctl's output must say: INFO, READ and read(2)'s
 * counts, READ_SLOTS, READ_THREADS, READ_SAMPLES, CPU_STATUS, REGS.
 */
#include "common.h"

static bool zero_u32s(const __u32 *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i])
			return false;
	return true;
}

/* Checks what INFO wrote. @watcher: the file was never bound. */
void check_info(struct worker *w, const struct call *c,
		const struct armpmu_info *info, bool watcher)
{
	bool bound = info->flags & ARMPMU_INFO_BOUND;

	if (info->cpu >= ncpus || info->cpu >= MAX_CPUS) {
		FAIL_AFTER(w, F_OUTPUT, c, "INFO cpu %u, but there are %u CPUs", info->cpu, ncpus);
		return;
	}
	if (info->num_counters != cpu_nc[info->cpu] || info->event_bits != cpu_eb[info->cpu] ||
	    (info->flags & ~0x7fU) || !zero_u32s(info->reserved, ARRAY_SIZE(info->reserved)) ||
	    !!(info->flags & ARMPMU_INFO_KERNEL_ALLOWED) != (w->role == AS_ROOT) ||
	    (watcher && bound))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "INFO cpu %u num_counters %u (expected %u) event_bits %u (expected %u) "
			   "flags %#x reserved[0] %#x%s", info->cpu, info->num_counters,
			   cpu_nc[info->cpu], info->event_bits, cpu_eb[info->cpu], info->flags,
			   info->reserved[0], watcher ? ", on a file never bound" : "");
}

/* Checks a snapshot from READ or read(2), @err its outcome (0 or EIO). */
void check_counts(struct worker *w, const struct call *c,
		  const struct armpmu_counts *counts, int err)
{
	unsigned int i;
	bool zero_tail = true;

	for (i = counts->nr; i < ARMPMU_MAX_COUNTERS && counts->nr <= ARMPMU_MAX_COUNTERS; i++)
		zero_tail &= counts->events[i] == 0;
	bool mux = counts->flags & ARMPMU_COUNTS_MULTIPLEXED;

	if ((mux ? counts->nr < num_counters || counts->nr > ARMPMU_MAX_COUNTERS ||
	     !(counts->flags & ARMPMU_COUNTS_INCOMPLETE) : counts->nr != num_counters) ||
	    (counts->flags & ~0x1fU) || !zero_tail ||
	    counts->time_running > counts->time_enabled ||
	    !!(counts->flags & ARMPMU_COUNTS_DISTURBED) != (err == EIO))
		FAIL_AFTER(w, F_OUTPUT, c, "%s: counts nr %u (expected %u) flags %#x%s",
			   tap_errname(err), counts->nr, num_counters, counts->flags,
			   zero_tail ? "" : ", events past nr not zero");
}

/*
 * A READ_SLOTS answer: the slots asked for, each within the file's time,
 * nothing programmed past the slots reported, empty slots all zero.
 */
void check_slots(struct worker *w, const struct call *c, const struct armpmu_read *rd,
		 const struct armpmu_slot *slot, uint32_t nr, int err)
{
	unsigned int i, bad = 0;

	for (i = 0; i < nr; i++)
		bad += slot[i].time_running > slot[i].time_enabled ||
		       slot[i].time_enabled > rd->time_enabled ||
		       (!(rd->programmed & (1U << i)) &&
			(slot[i].value || slot[i].time_enabled || slot[i].time_running));
	if (rd->nr != nr || rd->reserved[0] || rd->reserved[1] || (rd->flags & ~0x1fU) ||
	    rd->slots > ARMPMU_MAX_COUNTERS || (rd->programmed >> rd->slots) ||
	    rd->time_running > rd->time_enabled || bad ||
	    !!(rd->flags & ARMPMU_COUNTS_DISTURBED) != (err == EIO))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "%s: READ_SLOTS nr %u (asked %u) flags %#x slots %u programmed %#x, "
			   "%u slots off", tap_errname(err), rd->nr, nr, rd->flags, rd->slots,
			   rd->programmed, bad);
}

/*
 * READ_SLOTS reads its input words (nr and reserved, the header's first
 * 24 bytes), then writes the header and the @nr slots asked for: a buffer
 * that ends after the input is EFAULT only if the call gets to the copy.
 */
void check_read_slots(struct worker *w, struct call *c, const struct ptr *p,
		      uint32_t nr, int err)
{
	size_t in = offsetof(struct armpmu_read, cycles), hdr = sizeof(struct armpmu_read);
	size_t out = nr <= ARMPMU_MAX_COUNTERS ? hdr + nr * sizeof(struct armpmu_slot) : 0;
	bool straddles = p->kind == PK_STRADDLE;

	if (!readable(p) && !(straddles && p->fill_len >= in)) {
		done(w, c, OP_IOCTL, err, only_efault);
		return;
	}
	done(w, c, OP_IOCTL, err, only_not_enotty);
	if ((!err || err == EIO) && !writable(p) && !(straddles && p->fill_len >= out))
		FAIL_AFTER(w, F_WRONG, c, "%s with a pointer it cannot write",
			   tap_errname(err));
}

/*
 * READ_THREADS reads its header, then writes the entries it filled and
 * the header: a successful call had room for both (a straddling buffer's
 * header, copied out last, says how many entries), and said sane things:
 * no more entries than asked or kept, from the index asked, each within
 * its own times, flags only the documented ones, no slot values where the
 * file kept none.
 */
/*
 * A call whose header is read before the room after it is written
 * (READ_THREADS, READ_SAMPLES): its errno checked; true if it succeeded
 * and its answer is there to check.
 */
static bool header_call_done(struct worker *w, struct call *c, const struct ptr *p,
			     size_t header, int err)
{
	bool straddles = p->kind == PK_STRADDLE;

	if (!readable(p) && !(straddles && p->fill_len >= header)) {
		done(w, c, OP_IOCTL, err, only_efault);
		return false;
	}
	done(w, c, OP_IOCTL, err, only_not_enotty);
	if (err)
		return false;
	if (!writable(p) && !straddles) {
		FAIL_AFTER(w, F_WRONG, c, "success with a pointer it cannot write");
		return false;
	}
	return true;
}

/*
 * READ_SAMPLES: as READ_THREADS, the header read first; what it gave must
 * be whole records of the kinds there are, no more than the room.
 */
void check_read_samples(struct worker *w, struct call *c, const struct ptr *p,
			const struct armpmu_samples *in, int err)
{
	struct armpmu_samples out;
	struct armpmu_record h;
	size_t off = 0, len;

	if (!header_call_done(w, c, p, sizeof(*in), err))
		return;
	memcpy(&out, p->fill, sizeof(out));
	len = out.size;
	if (len > in->size || sizeof(out) + len > p->fill_len || len % 8 ||
	    out.flags & ~ARMPMU_SAMPLES_ENDED) {
		FAIL_AFTER(w, F_OUTPUT, c, "READ_SAMPLES gave %zu bytes (room %u), flags %#x",
			   len, in->size, out.flags);
		return;
	}
	while (off < len) {
		memcpy(&h, (char *)p->fill + sizeof(out) + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || off + h.size > len ||
		    h.type < ARMPMU_RECORD_SAMPLE || h.type > ARMPMU_RECORD_LET_GO) {
			FAIL_AFTER(w, F_OUTPUT, c, "READ_SAMPLES record at %zu: type %u size %u",
				   off, h.type, h.size);
			return;
		}
		off += h.size;
	}
}

void check_read_threads(struct worker *w, struct call *c, const struct ptr *p,
			const struct armpmu_threads *in, int err)
{
	struct armpmu_threads out;
	const struct armpmu_threads *hdr = &out;
	union {
		struct armpmu_thread t;
		char bytes[THREAD_BYTES];
	} e;
	size_t size = ARMPMU_THREAD_SIZE(in->slots), need;
	unsigned int bad = 0;

	if (!header_call_done(w, c, p, sizeof(*in), err))
		return;
	/* Copies: a misaligned buffer's fields are read byte by byte. */
	memcpy(&out, p->fill, sizeof(out));
	need = sizeof(*hdr) + (size_t)hdr->nr * size;
	if (hdr->nr > in->nr || need > p->fill_len) {
		FAIL_AFTER(w, F_OUTPUT, c, "READ_THREADS filled %u entries (asked %u), %zu bytes "
			   "into a buffer of %zu", hdr->nr, in->nr, need, p->fill_len);
		return;
	}
	for (uint32_t i = 0; i < hdr->nr; i++) {
		const struct armpmu_thread *t = &e.t;
		bool no_slots;

		memcpy(e.bytes, p->fill + sizeof(out) + i * size, size);
		no_slots = t->flags & ARMPMU_THREAD_NO_SLOTS;

		bad += (t->flags & ~(ARMPMU_THREAD_EXITED | ARMPMU_THREAD_NO_SLOTS)) ||
		       t->time_running > t->time_enabled;
		for (uint32_t k = 0; no_slots && k < in->slots; k++)
			bad += t->value[k] != 0;
	}
	if (hdr->index != in->index || hdr->slots != in->slots ||
	    hdr->reserved[0] || hdr->reserved[1] || (hdr->flags & ~ARMPMU_THREADS_LOST) ||
	    !!(hdr->flags & ARMPMU_THREADS_LOST) != (hdr->lost != 0) ||
	    hdr->threads > ARMPMU_THREADS_KEPT ||
	    (hdr->nr && (uint64_t)hdr->index + hdr->nr > hdr->threads) || bad)
		FAIL_AFTER(w, F_OUTPUT, c,
			   "READ_THREADS index %u (asked %u) nr %u slots %u flags %#x threads %u "
			   "lost %u, %u entries off", hdr->index, in->index, hdr->nr, hdr->slots,
			   hdr->flags, hdr->threads, hdr->lost, bad);
}

void check_status(struct worker *w, const struct call *c,
		  const struct armpmu_cpu_status *st, uint32_t cpu)
{
	bool usable = st->flags & ARMPMU_CPU_USABLE;

	if (st->cpu != cpu || (st->flags & ~0x3fU) ||
	    !zero_u32s(st->reserved, ARRAY_SIZE(st->reserved)) ||
	    (!(st->flags & ARMPMU_CPU_OWNED) && (st->owner_pid || st->owner_uid ||
						  (st->flags & ARMPMU_CPU_CALLER))) ||
	    (!(st->flags & ARMPMU_CPU_FOREIGN) && st->foreign_counters) ||
	    (usable && cpu < MAX_CPUS && (st->info.num_counters != cpu_nc[cpu] ||
					  st->info.cpu != cpu ||
					  (st->info.flags & ~(ARMPMU_INFO_CAN_FILTER |
							      ARMPMU_INFO_EVENTS_KNOWN |
							      ARMPMU_INFO_CAN_DIVIDE)))))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "CPU_STATUS cpu %u (asked %u) flags %#x owner %u/%u foreign %#x "
			   "info.cpu %u info.num_counters %u info.flags %#x",
			   st->cpu, cpu, st->flags, st->owner_pid, st->owner_uid,
			   st->foreign_counters, st->info.cpu, st->info.num_counters,
			   st->info.flags);
}

/* A successful REGS: root's only, of the CPU asked, its N as INFO says. */
void check_regs(struct worker *w, const struct call *c,
		const struct armpmu_regs *r, uint32_t cpu)
{
	uint32_t n = (r->pmcr >> 11) & 0x1f;

	if (w->role != AS_ROOT || r->cpu != cpu || cpu >= MAX_CPUS ||
	    (r->flags & ~ARMPMU_REGS_CYCLE_FILTER) ||
	    !zero_u32s(r->reserved, ARRAY_SIZE(r->reserved)) ||
	    (cpu_nc[cpu] && (r->num_counters != cpu_nc[cpu] || n != cpu_nc[cpu])))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "REGS as %s: cpu %u (asked %u) flags %#x num_counters %u PMCR.N %u "
			   "(INFO says %u)", user_name(w->role), r->cpu, cpu, r->flags,
			   r->num_counters, n, cpu < MAX_CPUS ? cpu_nc[cpu] : 0);
}
