// SPDX-License-Identifier: GPL-2.0
/*
 * task-test: what a file's opener may see and end of other users' files.
 * - FILE_STATUS as lab, with root's task-mode file open, with /proc
 *   mounted as it is and with hidepid=2: lab sees its own file and not
 *   root's, and @hidden counts root's (the driver before issue 27 showed
 *   root's owner, thread and state to any member of the group); pmuctl
 *   status, as lab, says how many files it does not show.
 * - RELEASE and RELEASE_FILE through a descriptor lab opened and handed to
 *   a root process (SCM_RIGHTS): EPERM, the rights being the opener's at
 *   open; the file aimed at goes on counting. Root's own descriptor then
 *   releases it.
 */
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "../checks.h"
#include "../users.h"
#include "task.h"

#define PMUCTL		"/usr/local/bin/pmuctl"

/* ---- FILE_STATUS as lab ---- */

struct lab_view {
	int err;
	bool seen_root, seen_own, proc_visible, pmuctl_says, enoent_first;
	__u32 hidden_first, hidden_alone;
};

/* As lab: count itself, and walk FILE_STATUS; @target is root's thread. */
static void lab_walk(struct lab_view *v, pid_t target)
{
	struct armpmu_attach at = { 0 };
	struct armpmu_file_status st;
	char path[64];
	int fd = -1, err;
	__u32 id = 1;

	snprintf(path, sizeof(path), "/proc/%d", (int)target);
	v->proc_visible = access(path, F_OK) == 0;
	err = dev_open(&fd);
	/* Before lab's own file has a mode: nothing to see, root's hidden. */
	if (!err) {
		memset(&st, 0, sizeof(st));
		st.id = 1;
		v->enoent_first = ioc(fd, ARMPMU_IOC_FILE_STATUS, &st) == ENOENT;
		v->hidden_alone = st.hidden;
	}
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	while (!err) {
		memset(&st, 0, sizeof(st));
		st.id = id;
		err = ioc(fd, ARMPMU_IOC_FILE_STATUS, &st);
		if (id == 1)
			v->hidden_first = st.hidden;
		if (err)
			break;
		if (st.owner_uid != LAB_UID || st.target_tid == (__u32)target)
			v->seen_root = true;
		if (st.flags & ARMPMU_FILE_CALLER)
			v->seen_own = true;
		id = st.id + 1;
	}
	v->err = err == ENOENT ? 0 : err;
	dev_close(&fd);
}

/* As lab: pmuctl status says that files are not shown. */
static bool pmuctl_says_hidden(void)
{
	FILE *p = popen(PMUCTL " status 2>&1", "r");
	char line[256];
	bool said = false;

	if (!p)
		return false;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, "not shown"))
			said = true;
	pclose(p);
	return said;
}

static void as_lab_view(struct lab_view *v, pid_t target)
{
	int p[2], status;
	pid_t pid;

	memset(v, 0, sizeof(*v));
	if (pipe(p)) {
		v->err = errno;
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct lab_view mine = { .err = EPERM };

		close(p[0]);
		if (become_user(AS_LAB)) {
			lab_walk(&mine, target);
			mine.pmuctl_says = pmuctl_says_hidden();
		}
		if (write(p[1], &mine, sizeof(mine)) != sizeof(mine))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], v, sizeof(*v)) != sizeof(*v))
		v->err = v->err ? v->err : ECHILD;
	close(p[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
}

static int mount_proc(const char *opts)
{
	return mount("proc", "/proc", "proc", MS_REMOUNT, opts) ? errno : 0;
}

void test_file_visibility(void)
{
	struct armpmu_attach at = { 0 };
	struct lab_view v;
	const char *how[2] = { "/proc as mounted", "/proc with hidepid=2" };
	char name[160];
	pid_t target;
	int fd = -1, err, i;

	fflush(stdout);
	target = fork();
	if (target == 0) {
		for (;;)
			pause();
	}
	at.tid = (__u32)target;
	err = target < 0 ? errno : dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	if (!tap_errno(err, 0, "FILE_STATUS: root's task-mode file counts a root process")) {
		stop_child(target);
		dev_close(&fd);
		return;
	}
	for (i = 0; i < 2; i++) {
		err = i ? mount_proc("hidepid=2") : 0;
		if (err) {
			tap_skip(how[i], "remounting /proc: %s", tap_errname(err));
			continue;
		}
		as_lab_view(&v, target);
		if (i)
			mount_proc("hidepid=0");
		snprintf(name, sizeof(name),
			 "FILE_STATUS as lab, %s: its own file, not root's; hidden counts root's", how[i]);
		tap_check(!v.err && v.seen_own && !v.seen_root && v.hidden_first >= 1, name,
			  "%s: own %d, root's %d, hidden %u (from id 1)", tap_errname(v.err),
			  v.seen_own, v.seen_root, v.hidden_first);
		snprintf(name, sizeof(name),
			 "FILE_STATUS as lab with no file of its own, %s: ENOENT, hidden counts root's",
			 how[i]);
		tap_check(v.enoent_first && v.hidden_alone >= 1, name, "ENOENT %d, hidden %u",
			  v.enoent_first, v.hidden_alone);
		snprintf(name, sizeof(name), "%s: lab %s root's process in /proc", how[i],
			 i ? "does not see" : "sees");
		tap_check(v.proc_visible == !i, name, "visible %d", v.proc_visible);
		snprintf(name, sizeof(name), "pmuctl status as lab, %s: says files are not shown",
			 how[i]);
		tap_check(v.pmuctl_says, name, "no line with \"not shown\"");
	}
	stop_child(target);
	dev_close(&fd);
}

/* ---- RELEASE and RELEASE_FILE by the opener's rights ---- */

/* As lab, open the device and hand the descriptor over @sock. */
static void lab_hands_descriptor(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (char *)"x", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int fd;

	if (!become_user(AS_LAB) || dev_open(&fd))
		_exit(1);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	_exit(sendmsg(sock, &msg, 0) == 1 ? 0 : 1);
}

static int receive_descriptor(int sock, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;

	if (recvmsg(sock, &msg, 0) != 1)
		return errno ? errno : EPROTO;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return EPROTO;
	memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return 0;
}

/* The id of @fd's own file, from FILE_STATUS (0: not found). */
static __u32 own_id(int fd)
{
	struct armpmu_file_status st = { .id = 1 };

	while (!ioc(fd, ARMPMU_IOC_FILE_STATUS, &st)) {
		if (st.flags & ARMPMU_FILE_CALLER)
			return st.id;
		st.id++;
	}
	return 0;
}

void test_release_by_opener(void)
{
	struct armpmu_counts c;
	int sv[2], fd_cpu = -1, fd_lab = -1, fd_root = -1, err, status;
	__u32 id = 0;
	pid_t pid;

	err = open_bound(0, &fd_cpu);
	if (!err)
		id = own_id(fd_cpu);
	err = err ? err : id ? 0 : ENOENT;
	err = err ? err : socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ? errno : 0;
	if (!tap_errno(err, 0, "RELEASE: root's file bound to CPU 0, and a socket for lab's descriptor")) {
		dev_close(&fd_cpu);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		lab_hands_descriptor(sv[1]);
	}
	close(sv[1]);
	err = pid < 0 ? errno : receive_descriptor(sv[0], &fd_lab);
	close(sv[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (!tap_errno(err, 0, "RELEASE: lab's descriptor handed to root (SCM_RIGHTS)")) {
		dev_close(&fd_cpu);
		return;
	}
	tap_errno(ioc_u32(fd_lab, ARMPMU_IOC_RELEASE, 0), EPERM,
		  "EPERM: RELEASE by root through lab's descriptor (the opener's rights)");
	tap_errno(ioc_u32(fd_lab, ARMPMU_IOC_RELEASE_FILE, id), EPERM,
		  "EPERM: RELEASE_FILE by root through lab's descriptor");
	tap_errno(read_counts(fd_cpu, &c), 0, "...and root's file goes on counting");
	dev_close(&fd_lab);
	err = dev_open(&fd_root);
	err = err ? err : ioc_u32(fd_root, ARMPMU_IOC_RELEASE_FILE, id);
	tap_errno(err, 0, "RELEASE_FILE through root's own descriptor");
	tap_errno(read_counts(fd_cpu, &c), ECANCELED, "...and the released file is ECANCELED");
	dev_close(&fd_root);
	dev_close(&fd_cpu);
}
