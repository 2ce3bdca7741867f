// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: listening to a multicast group of the tern family (tern
 * monitor) until SIGINT or SIGTERM.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "nl_int.h"
#include "output.h"
#include "tern.h"

/* Listening: the command wanted, the signal that ends it. */
static volatile sig_atomic_t listen_stop;
/*
 * Set while output is written (tern_nl_listen_write_begin()): a stop then
 * ends the process at once, as a stop during the wait ends the loop. A
 * write that blocks on a reader that stopped reading would otherwise wait
 * for ever if the signal came after the last check of listen_stop and
 * before the write's system call.
 */
static volatile sig_atomic_t listen_writing;

static void on_stop_signal(int sig)
{
	(void)sig;
	listen_stop = 1;
	if (listen_writing)
		_exit(TERN_EXIT_OK);
}

bool tern_nl_listen_write_begin(void)
{
	listen_writing = 1;
	if (!listen_stop)
		return true;
	listen_writing = 0;
	return false;
}

void tern_nl_listen_write_end(void)
{
	listen_writing = 0;
}

struct listen {
	struct tern_nl_req r;
	uint8_t cmd;
};

bool tern_nl_listen_stopping(void)
{
	return listen_stop;
}

static int on_notification(struct nl_msg *msg, void *arg)
{
	struct listen *l = arg;
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));

	/* Stopping: not one more line (its write could block again). */
	if (listen_stop)
		return NL_STOP;
	if (nlmsg_hdr(msg)->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN) ||
	    g->cmd != l->cmd)
		return NL_SKIP;
	return tern_nl_on_valid(msg, &l->r);
}

int tern_nl_listen(struct tern_nl *nl, const char *group, uint8_t cmd,
		   tern_nl_reply_fn fn, int (*lost)(void *arg), void *arg)
{
	struct listen l = {
		.r = { .nl = nl, .fn = fn, .arg = arg, .miss_type = -1 },
		.cmd = cmd,
	};
	struct sigaction sa = { .sa_handler = on_stop_signal };
	struct pollfd pfd;
	sigset_t block, orig;
	int grp, err, one = 1;

	grp = genl_ctrl_resolve_grp(nl->sk, TERN_GENL_NAME, group);
	if (grp == -NLE_OBJ_NOTFOUND)
		return tern_fail("the tern kernel module has no '%s' group (too old?)",
				 group);
	if (grp < 0)
		return tern_fail("cannot look up the multicast group '%s': %s",
				 group, nl_geterror(grp));
	err = nl_socket_add_membership(nl->sk, grp);
	if (err == -NLE_PERM)
		return tern_fail("Operation not permitted (need CAP_NET_ADMIN in this network namespace)");
	if (err < 0)
		return tern_fail("cannot join the multicast group '%s': %s",
				 group, nl_geterror(err));
	/* Events this socket cannot take are counted (events-dropped). */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK,
		   NETLINK_BROADCAST_ERROR, &one, sizeof(one));
	/* Notifications have sequence number 0: no check. */
	nl_socket_disable_seq_check(nl->sk);
	/* Room for bursts; the kernel caps it at net.core.rmem_max. */
	nl_socket_set_buffer_size(nl->sk, 4 << 20, 0);
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, on_notification,
			    &l);

	/*
	 * SIGINT and SIGTERM are blocked only from the check of listen_stop
	 * to ppoll(), which lets them in while it waits (none is missed);
	 * everything written (the events, the warning, the "lost" line) is
	 * written with them let in, between tern_nl_listen_write_begin() and
	 * _end(): a stop then ends the process (no SA_RESTART either: a
	 * write outside them ends with EINTR).
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pfd.fd = nl_socket_get_fd(nl->sk);
	pfd.events = POLLIN;
	while (!listen_stop && !l.r.status) {
		err = ppoll(&pfd, 1, NULL, &orig);
		if (err < 0 && errno == EINTR)
			continue;
		if (err < 0) {
			l.r.status = tern_fail("poll: %s", strerror(errno));
			break;
		}
		sigprocmask(SIG_SETMASK, &orig, NULL);
		err = nl_recvmsgs_default(nl->sk);
		/* ENOBUFS (libnl: "Out of memory"): the buffer overflowed. */
		if (err == -NLE_NOMEM && tern_nl_listen_write_begin()) {
			tern_fail("warning: events lost (the receive buffer was full)");
			tern_nl_listen_write_end();
			if (lost)
				l.r.status = lost(arg);
		} else if (err < 0 && err != -NLE_NOMEM && !l.r.status) {
			l.r.status = tern_fail("netlink: %s", nl_geterror(err));
		}
		sigprocmask(SIG_BLOCK, &block, NULL);
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return l.r.status;
}
