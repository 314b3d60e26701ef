/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's accounts (lab/rootfs/etc/passwd and group): root, `lab` in
 * group armpmu, and `guest` outside it. Tests drop to them in forked
 * children to see what an ordinary account gets. On a board that got
 * armpmu from the Debian packages (tools/pmu-vm --packages), the group is
 * the one pmuctl's package created, with a gid of the system's choosing.
 */
#ifndef ARMPMU_TESTS_USERS_H
#define ARMPMU_TESTS_USERS_H

#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ARMPMU_GID		990
#define LAB_UID			1000
#define LAB_GID			1000
#define GUEST_UID		1001
#define GUEST_GID		1001

enum guest_user { AS_ROOT, AS_LAB, AS_GUEST };

/*
 * Group armpmu's gid, as /etc/group has it: the lab's ARMPMU_GID, or the
 * packages' (read from the file: the programs are static, without NSS).
 */
static inline gid_t armpmu_gid(void)
{
	FILE *f = fopen("/etc/group", "re");
	gid_t gid = ARMPMU_GID;
	struct group *g;

	while (f && (g = fgetgrent(f)))
		if (!strcmp(g->gr_name, "armpmu")) {
			gid = g->gr_gid;
			break;
		}
	if (f)
		fclose(f);
	return gid;
}

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
	const gid_t lab_groups[] = { armpmu_gid() };
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
