// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the generic netlink session with the tern kernel module:
 * the socket, and requests sent on it (their replies: nl_reply.c).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "nl_int.h"
#include "output.h"
#include "tern.h"

/* What the controller says of the family. */
struct family_info {
	int id;			/* -1: no answer */
	uint32_t version;
};

static int on_family(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct family_info *f = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CTRL_ATTR_MAX, NULL) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_ID] || !tb[CTRL_ATTR_VERSION])
		return NL_SKIP;
	f->id = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	f->version = nla_get_u32(tb[CTRL_ATTR_VERSION]);
	return NL_OK;
}

/*
 * Asks the generic netlink controller for the family (CTRL_CMD_GETFAMILY):
 * its id and version, in the one round trip genl_ctrl_resolve() makes.
 * Returns 0 or a libnl error (-NLE_OBJ_NOTFOUND: no such family).
 */
static int family_lookup(struct nl_sock *sk, struct family_info *f)
{
	struct nl_cb *cb, *orig;
	struct nl_msg *msg;
	int err;

	f->id = -1;
	msg = nlmsg_alloc();
	if (!msg)
		return -NLE_NOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, 0,
			 CTRL_CMD_GETFAMILY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, TERN_GENL_NAME) < 0) {
		nlmsg_free(msg);
		return -NLE_NOMEM;
	}
	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return err;
	orig = nl_socket_get_cb(sk);
	cb = nl_cb_clone(orig);
	nl_cb_put(orig);
	if (!cb)
		return -NLE_NOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_family, f);
	err = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	if (err < 0)
		return err;
	err = nl_wait_for_ack(sk);
	if (err < 0)
		return err;
	return f->id < 0 ? -NLE_OBJ_NOTFOUND : 0;
}

bool tern_nl_any_api;

/* What open_family() returns, quietly, for a family that is absent. */
#define NOT_LOADED (-1)

static int open_family(struct tern_nl **nlp, bool quiet)
{
	struct family_info f;
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

	err = family_lookup(nl->sk, &f);
	if (err == -NLE_OBJ_NOTFOUND && quiet) {
		status = NOT_LOADED;
		goto fail;
	}
	if (err == -NLE_OBJ_NOTFOUND) {
		status = tern_fail("the tern kernel module is not loaded (modprobe tern)");
		goto fail;
	}
	if (err < 0) {
		status = tern_fail("cannot look up the generic netlink family '%s': %s",
				   TERN_GENL_NAME, nl_geterror(err));
		goto fail;
	}
	nl->family = f.id;
	nl->api_version = f.version;
	/* Attributes of another API would be misread: refuse, once, here. */
	if (f.version != TERN_CLI_API_VERSION && !tern_nl_any_api) {
		status = tern_fail("the loaded tern module speaks netlink API %u, this CLI speaks %d; install the tern CLI that comes with the module (tern --version shows both)",
				   f.version, TERN_CLI_API_VERSION);
		goto fail;
	}

	/* Requests ask for acks themselves (not dumps: they end in DONE). */
	nl_socket_disable_auto_ack(nl->sk);
	*nlp = nl;
	return TERN_EXIT_OK;

fail:
	tern_nl_close(nl);
	return status;
}

int tern_nl_open(struct tern_nl **nlp)
{
	return open_family(nlp, false);
}

struct version_reply {
	char *buf;
	size_t size;
};

static int on_version(struct nlattr **tb, void *arg)
{
	struct version_reply *v = arg;

	if (!tb[TERN_A_VERSION])
		return tern_fail("malformed reply from the kernel: no version");
	snprintf(v->buf, v->size, "%s", nla_get_string(tb[TERN_A_VERSION]));
	return TERN_EXIT_OK;
}

int tern_nl_version(bool *loaded, char *buf, size_t size, uint32_t *api)
{
	struct version_reply v = { buf, size };
	struct tern_nl *nl;
	struct nl_msg *msg;
	int status;

	*loaded = false;
	tern_nl_any_api = true;
	status = open_family(&nl, true);
	if (status == NOT_LOADED)
		return TERN_EXIT_OK;
	if (status)
		return status;
	*loaded = true;
	*api = nl->api_version;
	msg = tern_nl_msg(nl, TERN_CMD_VERSION, false);
	status = msg ? tern_nl_run(nl, msg, on_version, &v) : TERN_EXIT_FAIL;
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
			 TERN_CLI_API_VERSION)) {
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
	struct tern_nl_req r = {
		.nl = nl,
		.fn = fn,
		.arg = arg,
		.miss_type = -1,
		.offs = -1,
	};
	struct nl_sock *sk = nl->sk;
	int err;

	tern_nl_watch(&r);

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
		return tern_nl_report_error(&r);
	if (r.intr && !nl->intr_ok)
		return tern_fail("the kernel's data changed during the dump; try again");
	if (r.intr)
		tern_fail("warning: the table changed while it was read: an entry may be missing or shown twice");
	if (r.msg[0])
		tern_fail("warning: %s", r.msg);
	return TERN_EXIT_OK;
}

void tern_nl_set_where(struct tern_nl *nl, tern_nl_where_fn fn, void *arg)
{
	nl->where = fn;
	nl->where_arg = arg;
}

void tern_nl_big(struct tern_nl *nl, size_t bytes)
{
	int fd = nl_socket_get_fd(nl->sk), size = bytes + 65536, one = 1;

	if (bytes > INT_MAX - 65536)
		size = INT_MAX;
	nlmsg_set_default_size(bytes);
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)) < 0)
		nl_socket_set_buffer_size(nl->sk, 0, size);
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
}

static int nl_request(uint8_t cmd, bool dump, bool intr_ok,
		      const char *instance, tern_nl_put_fn put,
		      const void *put_arg, tern_nl_reply_fn fn, void *arg)
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
	nl->intr_ok = intr_ok;
	status = tern_nl_run(nl, msg, fn, arg);
	tern_nl_close(nl);
	return status;
}

int tern_nl_request(uint8_t cmd, bool dump, const char *instance,
		    tern_nl_put_fn put, const void *put_arg,
		    tern_nl_reply_fn fn, void *arg)
{
	return nl_request(cmd, dump, cmd == TERN_CMD_SESSION_GET ||
			  cmd == TERN_CMD_BIB_GET, instance, put, put_arg, fn,
			  arg);
}

int tern_nl_dump_whole(uint8_t cmd, const char *instance, tern_nl_put_fn put,
		       const void *put_arg, tern_nl_reply_fn fn, void *arg)
{
	return nl_request(cmd, true, false, instance, put, put_arg, fn, arg);
}
