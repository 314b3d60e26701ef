/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's accounts (lab/rootfs/etc/passwd and group): root, `lab` in
 * group armpmu, and `guest` outside it. Tests drop to them in forked
 * children to see what an ordinary account gets.
 */
#ifndef ARMPMU_TESTS_USERS_H
#define ARMPMU_TESTS_USERS_H

#include <grp.h>
#include <stdbool.h>
#include <unistd.h>

#define ARMPMU_GID		990
#define LAB_UID			1000
#define LAB_GID			1000
#define GUEST_UID		1001
#define GUEST_GID		1001

enum guest_user { AS_ROOT, AS_LAB, AS_GUEST };

static inline const char *user_name(enum guest_user who)
{
	return who == AS_ROOT ? "root" : who == AS_LAB ? "lab" : "guest";
}

/*
 * Takes @who's identity for good (uid, gid and supplementary groups, so no
 * capabilities are left). Returns false if the kernel would not.
 */
static inline bool become_user(enum guest_user who)
{
	static const gid_t lab_groups[] = { ARMPMU_GID };
	static const gid_t guest_groups[] = { GUEST_GID };
	uid_t uid = who == AS_LAB ? LAB_UID : GUEST_UID;
	gid_t gid = who == AS_LAB ? LAB_GID : GUEST_GID;

	if (who == AS_ROOT)
		return true;
	if (setgroups(1, who == AS_LAB ? lab_groups : guest_groups) ||
	    setgid(gid) || setuid(uid))
		return false;
	return geteuid() == uid && getegid() == gid;
}

#endif /* ARMPMU_TESTS_USERS_H */
