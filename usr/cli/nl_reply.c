// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the replies of a netlink request, and its errors.
 *
 * libnl does not hand extended acks (the TLVs the kernel appends to an
 * NLMSG_ERROR or NLMSG_DONE when NETLINK_EXT_ACK is on) to its callers, so
 * they are parsed here.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/genl/genl.h>

#include "nl_int.h"
#include "output.h"
#include "tern.h"

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

/*
 * Read the extended ack TLVs of @nlh, which start @off bytes into its
 * payload (then aligned), if the kernel says it appended some.
 */
static void parse_extack(struct tern_nl_req *r, struct nlmsghdr *nlh, size_t off)
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
	if (tb[EXTACK_OFFS] && nla_len(tb[EXTACK_OFFS]) >= (int)sizeof(uint32_t))
		r->offs = nla_get_u32(tb[EXTACK_OFFS]);
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
static void parse_nlmsgerr_extack(struct tern_nl_req *r, struct nlmsgerr *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	size_t off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	parse_extack(r, nlh, off);
}

int tern_nl_on_valid(struct nl_msg *msg, void *arg)
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
		[TERN_A_VERSION] = { .type = NLA_STRING },
		[TERN_A_API_VERSION] = { .type = NLA_U32 },
		[TERN_A_BLOCK] = { .type = NLA_NESTED },
	};
	struct tern_nl_req *r = arg;
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

/* A part of a dump of data that changed since its first part. */
static int on_intr(struct nl_msg *msg, void *arg)
{
	struct tern_nl_req *r = arg;

	(void)msg;
	r->intr = true;
	return NL_OK;
}

/* End of a dump; since Linux 4.19 it may carry the error that ended it. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct tern_nl_req *r = arg;
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
	struct tern_nl_req *r = arg;

	parse_nlmsgerr_extack(r, nlmsg_data(nlmsg_hdr(msg)));
	r->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct tern_nl_req *r = arg;

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

int tern_nl_report_error(const struct tern_nl_req *r)
{
	const char *name;
	char where[512];

	if (r->offs >= 0 && r->nl->where) {
		r->nl->where(r->offs, where, sizeof(where), r->nl->where_arg);
		if (where[0])
			return tern_fail("%s: %s", where,
					 r->msg[0] ? r->msg : strerror(r->error));
	}
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

void tern_nl_watch(struct tern_nl_req *r)
{
	struct nl_sock *sk = r->nl->sk;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, tern_nl_on_valid, r);
	nl_socket_modify_cb(sk, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, r);
	nl_socket_modify_cb(sk, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_intr, r);
	nl_socket_modify_cb(sk, NL_CB_ACK, NL_CB_CUSTOM, on_ack, r);
	nl_socket_modify_err_cb(sk, NL_CB_CUSTOM, on_error, r);
}
