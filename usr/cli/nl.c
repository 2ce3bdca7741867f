// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the generic netlink session with the tern kernel module.
 *
 * libnl does not hand extended acks (the TLVs the kernel appends to an
 * NLMSG_ERROR or NLMSG_DONE when NETLINK_EXT_ACK is on) to its callers, so
 * they are parsed here.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "nl.h"
#include "output.h"
#include "tern.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK		270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK		11
#endif
#ifndef NETLINK_BROADCAST_ERROR
#define NETLINK_BROADCAST_ERROR	4
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED		0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS		0x200
#endif

/*
 * Extended ack attributes (enum nlmsgerr_attrs), numbered here because
 * older uapi headers lack the later ones.
 */
enum {
	EXTACK_MSG = 1,
	EXTACK_OFFS,
	EXTACK_COOKIE,
	EXTACK_POLICY,
	EXTACK_MISS_TYPE,
	EXTACK_MISS_NEST,
	EXTACK_MAX = EXTACK_MISS_NEST,
};

struct tern_nl {
	struct nl_sock *sk;
	int family;
};

/* The state of one request while its replies come in. */
struct request {
	struct tern_nl *nl;
	tern_nl_reply_fn fn;
	void *arg;
	bool done;		/* ack, end of dump or error seen */
	int status;		/* exit status of a failed reply callback */
	int error;		/* errno reported by the kernel, 0 if none */
	char msg[512];		/* extended ack message, "" if none */
	int miss_type;		/* attribute reported missing, -1 if none */
	bool miss_nested;	/* ... inside a nest (not top level) */
};

/*
 * Read the extended ack TLVs of @nlh, which start @off bytes into its
 * payload (then aligned), if the kernel says it appended some.
 */
static void parse_extack(struct request *r, struct nlmsghdr *nlh, size_t off)
{
	struct nlattr *tb[EXTACK_MAX + 1];
	const char *s;
	size_t plen;
	int n;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    nlh->nlmsg_len < NLMSG_HDRLEN)
		return;
	plen = nlh->nlmsg_len - NLMSG_HDRLEN;
	off = NLMSG_ALIGN(off);
	if (off >= plen)
		return;
	if (nla_parse(tb, EXTACK_MAX,
		      (struct nlattr *)((char *)NLMSG_DATA(nlh) + off),
		      plen - off, NULL) < 0)
		return;

	if (tb[EXTACK_MSG] && nla_len(tb[EXTACK_MSG]) > 0) {
		s = nla_data(tb[EXTACK_MSG]);
		n = strnlen(s, nla_len(tb[EXTACK_MSG]));
		while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
			n--;
		if ((size_t)n >= sizeof(r->msg))
			n = sizeof(r->msg) - 1;
		memcpy(r->msg, s, n);
		r->msg[n] = '\0';
	}
	if (tb[EXTACK_MISS_TYPE] &&
	    nla_len(tb[EXTACK_MISS_TYPE]) >= (int)sizeof(uint32_t)) {
		r->miss_type = nla_get_u32(tb[EXTACK_MISS_TYPE]);
		r->miss_nested = tb[EXTACK_MISS_NEST] != NULL;
	}
}

/*
 * NLMSG_ERROR: struct nlmsgerr, then (unless NLM_F_CAPPED) the payload of
 * the request it answers, then the TLVs.
 */
static void parse_nlmsgerr_extack(struct request *r, struct nlmsgerr *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	size_t off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	parse_extack(r, nlh, off);
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	static struct nla_policy policy[TERN_A_MAX + 1] = {
		[TERN_A_INSTANCE] = { .type = NLA_STRING },
		[TERN_A_TYPE] = { .type = NLA_U8 },
		[TERN_A_FRAMEWORK] = { .type = NLA_U8 },
		[TERN_A_POOL6] = { .type = NLA_NESTED },
		[TERN_A_GLOBALS] = { .type = NLA_NESTED },
		[TERN_A_STATS] = { .type = NLA_NESTED },
		[TERN_A_BIB] = { .type = NLA_NESTED },
		[TERN_A_SESSION] = { .type = NLA_NESTED },
		[TERN_A_TABLES] = { .type = NLA_NESTED },
		[TERN_A_EVENT] = { .type = NLA_U8 },
		[TERN_A_TIME] = { .type = NLA_U64 },
	};
	struct request *r = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[TERN_A_MAX + 1];
	int err;

	if (nlh->nlmsg_type != r->nl->family)
		return NL_SKIP;
	err = genlmsg_parse(nlh, 0, tb, TERN_A_MAX, policy);
	if (err < 0) {
		r->status = tern_fail("malformed reply from the kernel: %s",
				      nl_geterror(err));
		r->done = true;
		return NL_STOP;
	}
	if (r->fn) {
		r->status = r->fn(tb, r->arg);
		if (r->status) {
			r->done = true;
			return NL_STOP;
		}
	}
	return NL_OK;
}

/* End of a dump; since Linux 4.19 it may carry the error that ended it. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(err))) {
		memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
		if (err < 0) {
			r->error = -err;
			parse_extack(r, nlh, sizeof(err));
		}
	}
	r->done = true;
	return NL_STOP;
}

/* Success acknowledgement (error 0); may still carry a warning. */
static int on_ack(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;

	parse_nlmsgerr_extack(r, nlmsg_data(nlmsg_hdr(msg)));
	r->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct request *r = arg;

	(void)who;
	r->error = e->error < 0 ? -e->error : e->error;
	parse_nlmsgerr_extack(r, e);
	r->done = true;
	return NL_STOP;
}

static const char *attr_name(int type)
{
	static const char *const names[] = {
		[TERN_A_INSTANCE] = "instance",
		[TERN_A_TYPE] = "type",
		[TERN_A_FRAMEWORK] = "framework",
		[TERN_A_POOL6] = "pool6",
		[TERN_A_GLOBALS] = "globals",
		[TERN_A_STATS] = "stats",
	};

	if (type < 0 || type >= (int)ARRAY_SIZE(names))
		return NULL;
	return names[type];
}

static int report_error(const struct request *r)
{
	const char *name;

	if (r->msg[0])
		return tern_fail("%s", r->msg);
	if (r->error == EPERM)
		return tern_fail("Operation not permitted (need CAP_NET_ADMIN in this network namespace)");
	if (r->miss_type >= 0) {
		name = r->miss_nested ? NULL : attr_name(r->miss_type);
		if (name)
			return tern_fail("%s (the kernel needs the '%s' attribute)",
					 strerror(r->error), name);
		return tern_fail("%s (the kernel needs nested attribute %d)",
				 strerror(r->error), r->miss_type);
	}
	return tern_fail("%s", strerror(r->error));
}

int tern_nl_open(struct tern_nl **nlp)
{
	struct tern_nl *nl;
	int one = 1;
	int status;
	int err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return tern_fail("out of memory");
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		free(nl);
		return tern_fail("out of memory");
	}

	err = genl_connect(nl->sk);
	if (err < 0) {
		status = tern_fail("cannot open a generic netlink socket: %s",
				   nl_geterror(err));
		goto fail;
	}
	/* Kernels without extended acks: errors fall back to strerror(). */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));

	err = genl_ctrl_resolve(nl->sk, TERN_GENL_NAME);
	if (err == -NLE_OBJ_NOTFOUND) {
		status = tern_fail("the tern kernel module is not loaded (modprobe tern)");
		goto fail;
	}
	if (err < 0) {
		status = tern_fail("cannot look up the generic netlink family '%s': %s",
				   TERN_GENL_NAME, nl_geterror(err));
		goto fail;
	}
	nl->family = err;

	/* Requests ask for acks themselves (not dumps: they end in DONE). */
	nl_socket_disable_auto_ack(nl->sk);
	*nlp = nl;
	return TERN_EXIT_OK;

fail:
	tern_nl_close(nl);
	return status;
}

void tern_nl_close(struct tern_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

struct nl_msg *tern_nl_msg(struct tern_nl *nl, uint8_t cmd, bool dump)
{
	struct nl_msg *msg;

	msg = nlmsg_alloc();
	if (!msg) {
		tern_fail("out of memory");
		return NULL;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 dump ? NLM_F_DUMP : NLM_F_ACK, cmd,
			 TERN_GENL_VERSION)) {
		nlmsg_free(msg);
		tern_fail("out of memory");
		return NULL;
	}
	return msg;
}

int tern_nl_put_instance(struct nl_msg *msg, const char *name)
{
	if (!name)
		return 0;
	return nla_put_string(msg, TERN_A_INSTANCE, name) < 0 ? -1 : 0;
}

int tern_nl_build_error(void)
{
	return tern_fail("cannot build the request: an argument is too long");
}

int tern_nl_run(struct tern_nl *nl, struct nl_msg *msg, tern_nl_reply_fn fn,
		void *arg)
{
	struct request r = {
		.nl = nl,
		.fn = fn,
		.arg = arg,
		.miss_type = -1,
	};
	struct nl_sock *sk = nl->sk;
	int err;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);
	nl_socket_modify_cb(sk, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &r);
	nl_socket_modify_cb(sk, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &r);
	nl_socket_modify_err_cb(sk, NL_CB_CUSTOM, on_error, &r);

	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return tern_fail("cannot send the request: %s", nl_geterror(err));

	/*
	 * A dump spans any number of NLM_F_MULTI messages and ends with
	 * NLMSG_DONE; a "do" request gets its reply (if any) and then the
	 * ack. nl_recvmsgs_default() may return in between: keep reading.
	 */
	while (!r.done) {
		err = nl_recvmsgs_default(sk);
		if (err == -NLE_DUMP_INTR && !r.error && !r.status)
			return tern_fail("the kernel's data changed during the dump; try again");
		if (err < 0 && !r.done)
			return tern_fail("netlink: %s", nl_geterror(err));
	}

	if (r.status)
		return r.status;
	if (r.error)
		return report_error(&r);
	if (r.msg[0])
		tern_fail("warning: %s", r.msg);
	return TERN_EXIT_OK;
}

int tern_nl_request(uint8_t cmd, bool dump, const char *instance,
		    tern_nl_put_fn put, const void *put_arg,
		    tern_nl_reply_fn fn, void *arg)
{
	struct tern_nl *nl;
	struct nl_msg *msg;
	int status;

	status = tern_nl_open(&nl);
	if (status)
		return status;
	msg = tern_nl_msg(nl, cmd, dump);
	if (!msg) {
		tern_nl_close(nl);
		return TERN_EXIT_FAIL;
	}
	if (tern_nl_put_instance(msg, instance) < 0 ||
	    (put && put(msg, put_arg) < 0)) {
		nlmsg_free(msg);
		tern_nl_close(nl);
		return tern_nl_build_error();
	}
	status = tern_nl_run(nl, msg, fn, arg);
	tern_nl_close(nl);
	return status;
}

/* Listening: the command wanted, the signal that ends it. */
static volatile sig_atomic_t listen_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	listen_stop = 1;
}

struct listen {
	struct request r;
	uint8_t cmd;
};

static int on_notification(struct nl_msg *msg, void *arg)
{
	struct listen *l = arg;
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));

	if (nlmsg_hdr(msg)->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN) ||
	    g->cmd != l->cmd)
		return NL_SKIP;
	return on_valid(msg, &l->r);
}

int tern_nl_listen(struct tern_nl *nl, const char *group, uint8_t cmd,
		   tern_nl_reply_fn fn, void *arg)
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

	/* The signals are let in only while waiting: none is missed. */
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
		err = nl_recvmsgs_default(nl->sk);
		/* ENOBUFS (libnl: "Out of memory"): the buffer overflowed. */
		if (err == -NLE_NOMEM) {
			tern_fail("warning: events lost (the receive buffer was full)");
			continue;
		}
		if (err < 0 && !l.r.status)
			l.r.status = tern_fail("netlink: %s", nl_geterror(err));
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return l.r.status;
}
