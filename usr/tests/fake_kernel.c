// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stand-in for tern.ko, for cli-offline.sh: preloaded into tern
 * (LD_PRELOAD), it takes what the CLI sends on its generic netlink
 * sockets (sendmsg) and gives back (recvmsg) the replies of the scenario
 * TERN_FAKE names: replies a module could send, and that the CLI must
 * refuse rather than misread. No module, no privileges.
 *
 * Scenarios (one instance each; the lists and settings it does not name
 * are empty):
 *   type       an instance of type 9 (unknown to the CLI)
 *   framework  an instance of framework 9
 *   pool6      a NAT64 instance whose pool6 has no address
 *   eam        a SIIT instance whose EAMT entry has no IPv4 prefix
 *   rfc6791    a SIIT instance whose rfc6791v4-prefix has no address
 *   pool4      a NAT64 instance whose pool4 dump fails (EPERM)
 *
 * Built by cli-offline.sh: cc -shared -fPIC -I include $(pkg-config
 * --cflags --libs libnl-genl-3.0) fake_kernel.c -ldl.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/genl.h>

#include "tern_genl.h"

#define FAKE_FAMILY	0x7f0
#define QUEUE_MAX	16
#define DGRAM_MAX	4096

/* The replies not yet read, one datagram each, as the kernel sends them. */
static struct {
	char buf[DGRAM_MAX];
	size_t len;
} queue[QUEUE_MAX];
static size_t q_head, q_tail;

static bool is_genl(int fd)
{
	int v = 0;
	socklen_t len = sizeof(v);

	return !getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &len) &&
	       v == NETLINK_GENERIC &&
	       !getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &len) &&
	       v == AF_NETLINK;
}

static void queue_msg(const struct nlmsghdr *req, struct nl_msg *msg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);

	h->nlmsg_seq = req->nlmsg_seq;
	h->nlmsg_pid = req->nlmsg_pid;
	if (q_tail < QUEUE_MAX && h->nlmsg_len <= DGRAM_MAX) {
		memcpy(queue[q_tail].buf, h, h->nlmsg_len);
		queue[q_tail++].len = h->nlmsg_len;
	}
	nlmsg_free(msg);
}

/* A reply of @req (of @family, command @cmd): its attributes go after. */
static struct nl_msg *reply(const struct nlmsghdr *req, int family,
			    uint8_t cmd)
{
	struct nl_msg *msg;
	int flags = req->nlmsg_flags & NLM_F_DUMP ? NLM_F_MULTI : 0;

	msg = nlmsg_alloc();
	if (msg && !genlmsg_put(msg, 0, 0, family, 0, flags, cmd,
				TERN_GENL_API_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (!msg)
		abort();
	return msg;
}

/* The end of @req: NLMSG_DONE of a dump, else the ack (@err: its error). */
static void end(const struct nlmsghdr *req, int err)
{
	struct nl_msg *msg;
	struct nlmsgerr e = { .error = err, .msg = *req };

	if ((req->nlmsg_flags & NLM_F_DUMP) && !err) {
		msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
		if (!msg || nlmsg_append(msg, &err, sizeof(err), 0) < 0)
			abort();
	} else {
		msg = nlmsg_alloc_simple(NLMSG_ERROR, 0);
		e.msg.nlmsg_len = sizeof(e.msg);
		if (!msg || nlmsg_append(msg, &e, sizeof(e), 0) < 0)
			abort();
	}
	queue_msg(req, msg);
}

/* An IPv4 prefix nest with a length and no address. */
static void put_bad_prefix(struct nl_msg *msg, int type)
{
	struct nlattr *n = nla_nest_start(msg, type | NLA_F_NESTED);

	nla_put_u8(msg, TERN_PREFIX_LEN, 24);
	nla_nest_end(msg, n);
}

static void put_prefix6(struct nl_msg *msg, int type)
{
	static const uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	struct nlattr *n = nla_nest_start(msg, type | NLA_F_NESTED);

	nla_put(msg, TERN_PREFIX_ADDR, sizeof(a), a);
	nla_put_u8(msg, TERN_PREFIX_LEN, 120);
	nla_nest_end(msg, n);
}

/* The one instance of the dump, "t". */
static void instance(const struct nlmsghdr *req, const char *s)
{
	struct nl_msg *msg = reply(req, FAKE_FAMILY, TERN_CMD_INSTANCE_GET);
	bool nat64 = !strcmp(s, "pool6") || !strcmp(s, "pool4");

	nla_put_string(msg, TERN_A_INSTANCE, "t");
	nla_put_u8(msg, TERN_A_TYPE, !strcmp(s, "type") ? 9 :
		   nat64 ? TERN_TYPE_NAT64 : TERN_TYPE_SIIT);
	nla_put_u8(msg, TERN_A_FRAMEWORK, !strcmp(s, "framework") ? 9 :
		   TERN_FW_NETFILTER);
	if (!strcmp(s, "pool6"))
		put_bad_prefix(msg, TERN_A_POOL6);
	queue_msg(req, msg);
}

/* The request @req of the CLI, answered as scenario @s says. */
static void answer(const struct nlmsghdr *req, const char *s)
{
	const struct genlmsghdr *g = nlmsg_data(req);
	struct nl_msg *msg;
	struct nlattr *n;

	if (req->nlmsg_type == GENL_ID_CTRL) {
		msg = reply(req, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
		nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, TERN_GENL_NAME);
		nla_put_u16(msg, CTRL_ATTR_FAMILY_ID, FAKE_FAMILY);
		nla_put_u32(msg, CTRL_ATTR_VERSION, TERN_GENL_API_VERSION);
		queue_msg(req, msg);
		end(req, 0);
		return;
	}
	switch (g->cmd) {
	case TERN_CMD_INSTANCE_GET:
		instance(req, s);
		break;
	case TERN_CMD_GLOBAL_GET:
		msg = reply(req, FAKE_FAMILY, g->cmd);
		n = nla_nest_start(msg, TERN_A_GLOBALS | NLA_F_NESTED);
		nla_put_u8(msg, TERN_G_ENABLED, 1);	/* libnl drops an empty nest */
		if (!strcmp(s, "rfc6791"))
			put_bad_prefix(msg, TERN_G_RFC6791V4);
		nla_nest_end(msg, n);
		queue_msg(req, msg);
		break;
	case TERN_CMD_EAMT_GET:
		if (strcmp(s, "eam"))
			break;
		msg = reply(req, FAKE_FAMILY, g->cmd);
		n = nla_nest_start(msg, TERN_A_EAM | NLA_F_NESTED);
		put_prefix6(msg, TERN_EAM_PREFIX6);
		nla_nest_end(msg, n);
		queue_msg(req, msg);
		break;
	case TERN_CMD_POOL4_GET:
		if (!strcmp(s, "pool4")) {
			end(req, -EPERM);
			return;
		}
		break;
	}
	end(req, 0);
}

ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	static ssize_t (*real)(int, const struct msghdr *, int);
	const char *s = getenv("TERN_FAKE");
	char buf[65536];
	size_t i, len = 0;

	if (!real)
		real = (ssize_t (*)(int, const struct msghdr *, int))
		       dlsym(RTLD_NEXT, "sendmsg");
	if (!s || !is_genl(fd))
		return real(fd, m, flags);
	for (i = 0; i < m->msg_iovlen; i++) {
		if (len + m->msg_iov[i].iov_len > sizeof(buf)) {
			errno = EMSGSIZE;
			return -1;
		}
		memcpy(buf + len, m->msg_iov[i].iov_base, m->msg_iov[i].iov_len);
		len += m->msg_iov[i].iov_len;
	}
	if (len >= NLMSG_HDRLEN + GENL_HDRLEN)
		answer((struct nlmsghdr *)buf, s);
	return len;
}

ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	static ssize_t (*real)(int, struct msghdr *, int);
	struct sockaddr_nl *from = m->msg_name;
	size_t len, n;

	if (!real)
		real = (ssize_t (*)(int, struct msghdr *, int))
		       dlsym(RTLD_NEXT, "recvmsg");
	if (!getenv("TERN_FAKE") || !is_genl(fd))
		return real(fd, m, flags);
	if (q_head == q_tail) {
		errno = EIO;	/* the CLI waits for more than it asked */
		return -1;
	}
	len = queue[q_head].len;
	n = len < m->msg_iov[0].iov_len ? len : m->msg_iov[0].iov_len;
	memcpy(m->msg_iov[0].iov_base, queue[q_head].buf, n);
	if (from && m->msg_namelen >= sizeof(*from)) {
		memset(from, 0, sizeof(*from));
		from->nl_family = AF_NETLINK;
		m->msg_namelen = sizeof(*from);
	}
	m->msg_controllen = 0;
	m->msg_flags = n < len ? MSG_TRUNC : 0;
	if (!(flags & MSG_PEEK) && ++q_head == q_tail)
		q_head = q_tail = 0;
	return flags & MSG_TRUNC ? (ssize_t)len : (ssize_t)n;
}
