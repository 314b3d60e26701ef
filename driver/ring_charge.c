// SPDX-License-Identifier: GPL-2.0
/*
 * Ring memory charged to its owner. A sampled file's ring is kernel
 * memory no process's RSS shows, so the OOM killer would not pick the
 * user who made it hold so much: without a bound, one lab account's rings
 * took a 512 MiB board's memory and the killer took other users'
 * processes first. As perf charges its ring buffers to the user
 * (perf_event_mlock_kb), each ring is charged here to its file's opener's
 * user, all of a user's rings together bounded by sample_ring_user_kb
 * (the rule: privilege.h, armpmu_priv_ring_fits), and the pages are
 * charged to the memory cgroup of the process that asked for them
 * (sampling.c's __GFP_ACCOUNT).
 *
 * Locking: charges_lock guards the ledger (a hash of users, each with the
 * bytes its rings hold); a charge is decided and made under it, so two
 * files of one user cannot both take the last room. Process context only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include "armpmu.h"

static unsigned int sample_ring_user_kb = 8192;
module_param(sample_ring_user_kb, uint, 0644);
MODULE_PARM_DESC(sample_ring_user_kb,
		 "ring memory all of one user's sampled files may hold together, in KiB: SET_SAMPLING refuses more with EPERM, unless the opener had CAP_IPC_LOCK (default 8192)");

struct user_charge {
	struct hlist_node node;
	kuid_t user;
	u64 bytes;
};

static DEFINE_HASHTABLE(charges, 6);
static DEFINE_MUTEX(charges_lock);

static struct user_charge *find(kuid_t user)
{
	struct user_charge *c;

	hash_for_each_possible(charges, c, node, __kuid_val(user))
		if (uid_eq(c->user, user))
			return c;
	return NULL;
}

/*
 * Charges a ring of @bytes to @s's opener's user, returned in *@user for
 * armpmu_ring_uncharge: 0, -EPERM past the user's bound, or -ENOMEM.
 */
int armpmu_ring_charge(const struct armpmu_session *s, u32 bytes, kuid_t *user)
{
	u64 limit = (u64)READ_ONCE(sample_ring_user_kb) * 1024;
	struct user_charge *c, *fresh;
	int ret = 0;

	*user = s->opener_cred->uid;
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!fresh)
		return -ENOMEM;
	mutex_lock(&charges_lock);
	c = find(*user);
	if (!armpmu_priv_ring_allowed(s, c ? c->bytes : 0, bytes, limit)) {
		ret = -EPERM;
	} else if (c) {
		c->bytes += bytes;
	} else {
		fresh->user = *user;
		fresh->bytes = bytes;
		hash_add(charges, &fresh->node, __kuid_val(*user));
		fresh = NULL;
	}
	mutex_unlock(&charges_lock);
	kfree(fresh);
	return ret;
}

/* Gives back a ring of @bytes charged to @user; a user who holds none goes. */
void armpmu_ring_uncharge(kuid_t user, u32 bytes)
{
	struct user_charge *c;

	mutex_lock(&charges_lock);
	c = find(user);
	if (!WARN_ON_ONCE(!c || c->bytes < bytes)) {
		c->bytes -= bytes;
		if (!c->bytes) {
			hash_del(&c->node);
			kfree(c);
		}
	}
	mutex_unlock(&charges_lock);
}

/* Unload: every file is closed, so every ring was given back. */
void armpmu_ring_charges_exit(void)
{
	struct user_charge *c;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(charges, bkt, tmp, c, node) {
		WARN_ON_ONCE(c->bytes);
		hash_del(&c->node);
		kfree(c);
	}
}
