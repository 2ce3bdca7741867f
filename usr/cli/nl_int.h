/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the netlink session's files share (nl.c opens the socket
 * and runs requests, nl_reply.c reads their replies and errors,
 * nl_listen.c listens to a multicast group).
 */
#ifndef TERN_CLI_NL_INT_H
#define TERN_CLI_NL_INT_H

#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>

#include "nl.h"

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

struct tern_nl {
	struct nl_sock *sk;
	int family;
	uint32_t api_version;	/* the family's version (the module's API) */
	/*
	 * A dump of a table that changes as it is read (sessions, BIB): one
	 * the kernel flags as such (NLM_F_DUMP_INTR) is shown with a warning,
	 * not refused; a retry could not do better under traffic.
	 */
	bool intr_ok;
	/* Optional: names what the request has at an offset (errors). */
	tern_nl_where_fn where;
	void *where_arg;
};

/* The state of one request while its replies come in. */
struct tern_nl_req {
	struct tern_nl *nl;
	tern_nl_reply_fn fn;
	void *arg;
	bool done;		/* ack, end of dump or error seen */
	int status;		/* exit status of a failed reply callback */
	int error;		/* errno reported by the kernel, 0 if none */
	char msg[512];		/* extended ack message, "" if none */
	int miss_type;		/* attribute reported missing, -1 if none */
	bool miss_nested;	/* ... inside a nest (not top level) */
	bool intr;		/* a part was flagged NLM_F_DUMP_INTR */
	long offs;		/* offset of the attribute at fault, or -1 */
};

/* The reply callbacks of @r on its socket (tern_nl_on_valid and the ends). */
void tern_nl_watch(struct tern_nl_req *r);

/* Hands a reply message to the request's callback (NL_OK, NL_SKIP, NL_STOP). */
int tern_nl_on_valid(struct nl_msg *msg, void *arg);

/* Reports the kernel's error of @r; returns the exit status. */
int tern_nl_report_error(const struct tern_nl_req *r);

#endif /* TERN_CLI_NL_INT_H */
