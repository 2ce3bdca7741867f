// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern monitor (the events of NAT64 instances: BIB entries and
 * sessions made and removed, as they happen).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "args.h"
#include "nat64.h"
#include "nl.h"
#include "output.h"
#include "tables.h"

static const char help_monitor[] =
	"Usage: tern [-i NAME] monitor [--json]\n"
	"\n"
	"Print the events of the NAT64 instances of this network namespace as\n"
	"they come, until interrupted (SIGINT, SIGTERM): BIB entries made and\n"
	"removed (if the instance's setting log-bib is true) and sessions made\n"
	"and removed (log-sessions). Both settings are false by default. One\n"
	"line per event:\n"
	"\n"
	"  TIME bib-add|bib-del PROTOCOL ADDR6#PORT ADDR4#PORT [static]\n"
	"  TIME session-add|session-del PROTOCOL ADDR6#PORT ADDR4#PORT\n"
	"       -> REMOTE4#PORT [STATE]\n"
	"  TIME block-add|block-del PROTOCOL PREFIX6/LEN ADDR4 FIRST-LAST\n"
	"\n"
	"Port blocks (setting port-block-size) are told whenever someone\n"
	"listens: a block of ports FIRST-LAST of ADDR4 given to the subscriber\n"
	"PREFIX6/LEN, and returned when its last BIB entry went.\n"
	"\n"
	"TIME is UTC (2026-11-25T12:00:00.123Z), when the kernel made the event;\n"
	"STATE the TCP state of a session (RFC 6146 3.5.2). Events are best\n"
	"effort: those lost, because the kernel had no memory or because this\n"
	"monitor did not read them in time, are counted in the counter\n"
	"events-dropped (tern stats). When this monitor lost some, it says so\n"
	"in its output, with a line 'TIME lost' (JSON: the event \"lost\",\n"
	"instance null unless -i), and on stderr, and goes on.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  only the events of this instance (default: all)\n"
	"  -j, --json           one JSON object per line, with the keys time,\n"
	"                       time-ns, instance, event, protocol, address6,\n"
	"                       port6, address4, port4 and: static (BIB\n"
	"                       events); remote4, remote-port4, state (null but\n"
	"                       for TCP) (session events); block events:\n"
	"                       time, time-ns, instance, event, protocol,\n"
	"                       prefix6, address4, port-min, port-max\n"
	"  -h, --help           show this help\n"
	"\n"
	"Joining the events needs CAP_NET_ADMIN in this network namespace.\n";

static const char *const event_names[] = {
	[TERN_EV_BIB_ADD] = "bib-add",
	[TERN_EV_BIB_DEL] = "bib-del",
	[TERN_EV_SESSION_ADD] = "session-add",
	[TERN_EV_SESSION_DEL] = "session-del",
	[TERN_EV_BLOCK_ADD] = "block-add",
	[TERN_EV_BLOCK_DEL] = "block-del",
};

struct monitor {
	const char *instance;	/* NULL: every instance */
	bool json;
};

/* One event, parsed. */
struct event {
	const char *instance;
	uint8_t type;		/* enum tern_event */
	uint64_t time_ns;
	uint8_t proto;
	struct taddr t6, t4, remote;
	bool session;
	bool block;
	char prefix6[INET6_ADDRSTRLEN + 4];	/* block events */
	uint16_t port_min, port_max;
	bool is_static;
	const char *state;	/* sessions: NULL but for TCP */
};

/* The TERN_A_BIB nest of a BIB event. */
static int parse_bib(struct nlattr *nest, struct event *ev)
{
	struct nat64_bib b;

	if (nat64_bib_parse(nest, &b) < 0)
		return -1;
	ev->proto = b.proto;
	ev->t6 = b.t6;
	ev->t4 = b.t4;
	ev->is_static = b.is_static;
	return 0;
}

/* The TERN_A_SESSION nest of a session event. */
static int parse_session(struct nlattr *nest, struct event *ev)
{
	struct nat64_session s;

	if (nat64_session_parse(nest, &s) < 0)
		return -1;
	ev->proto = s.proto;
	ev->t6 = s.t6;
	ev->t4 = s.t4;
	ev->remote = s.remote;
	ev->state = s.state;
	return 0;
}

/* The TERN_A_BLOCK nest of a block event. */
static int parse_block(struct nlattr *nest, struct event *ev)
{
	static struct nla_policy policy[TERN_BLOCK_MAX + 1] = {
		[TERN_BLOCK_PROTO] = { .type = NLA_U8 },
		[TERN_BLOCK_PREFIX6] = { .minlen = 16 },
		[TERN_BLOCK_PLEN] = { .type = NLA_U8 },
		[TERN_BLOCK_ADDR4] = { .minlen = 4 },
		[TERN_BLOCK_PORT_MIN] = { .type = NLA_U16 },
		[TERN_BLOCK_PORT_MAX] = { .type = NLA_U16 },
	};
	struct nlattr *e[TERN_BLOCK_MAX + 1];
	char a6[INET6_ADDRSTRLEN];
	int i;

	if (!nest || nla_parse_nested(e, TERN_BLOCK_MAX, nest, policy) < 0)
		return -1;
	for (i = TERN_BLOCK_PROTO; i <= TERN_BLOCK_PORT_MAX; i++)
		if (!e[i])
			return -1;
	ev->proto = nla_get_u8(e[TERN_BLOCK_PROTO]);
	if (!proto_name(ev->proto) ||
	    !inet_ntop(AF_INET6, nla_data(e[TERN_BLOCK_PREFIX6]), a6,
		       sizeof(a6)))
		return -1;
	snprintf(ev->prefix6, sizeof(ev->prefix6), "%s/%u", a6,
		 nla_get_u8(e[TERN_BLOCK_PLEN]));
	ev->t4.family = AF_INET;
	memcpy(&ev->t4.addr.v4, nla_data(e[TERN_BLOCK_ADDR4]), 4);
	ev->port_min = nla_get_u16(e[TERN_BLOCK_PORT_MIN]);
	ev->port_max = nla_get_u16(e[TERN_BLOCK_PORT_MAX]);
	return 0;
}

/* "2026-11-25T12:00:00.123Z" */
static void format_time(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;
	size_t n;

	if (!gmtime_r(&sec, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03uZ",
		 (unsigned int)(ns / 1000000u % 1000u));
}

static void print_text(const struct event *ev, const char *when)
{
	char a6[TADDR_STRLEN], a4[TADDR_STRLEN], r4[TADDR_STRLEN];

	if (ev->block) {
		inet_ntop(AF_INET, &ev->t4.addr.v4, a4, sizeof(a4));
		printf("%s %s %s %s %s %u-%u\n", when, event_names[ev->type],
		       proto_name(ev->proto), ev->prefix6, a4, ev->port_min,
		       ev->port_max);
		return;
	}
	printf("%s %s %s %s %s", when, event_names[ev->type],
	       proto_name(ev->proto), taddr_str(&ev->t6, a6),
	       taddr_str(&ev->t4, a4));
	if (ev->session) {
		printf(" -> %s", taddr_str(&ev->remote, r4));
		if (ev->state)
			printf(" %s", ev->state);
	} else if (ev->is_static) {
		fputs(" static", stdout);
	}
	putchar('\n');
}

static int print_json(const struct event *ev, const char *when)
{
	struct json_object *o = json_obj();
	struct nat64_session sess = {
		.proto = ev->proto, .t6 = ev->t6, .t4 = ev->t4,
		.remote = ev->remote, .state = ev->state,
	};
	struct nat64_bib bib = {
		.proto = ev->proto, .t6 = ev->t6, .t4 = ev->t4,
		.is_static = ev->is_static,
	};

	json_add_str(o, "time", when);
	json_add_u64(o, "time-ns", ev->time_ns);
	json_add_str(o, "instance", ev->instance);
	json_add_str(o, "event", event_names[ev->type]);
	if (ev->block) {
		char a4[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &ev->t4.addr.v4, a4, sizeof(a4));
		json_add_str(o, "protocol", proto_name(ev->proto));
		json_add_str(o, "prefix6", ev->prefix6);
		json_add_str(o, "address4", a4);
		json_add_u64(o, "port-min", ev->port_min);
		json_add_u64(o, "port-max", ev->port_max);
	} else if (ev->session)
		nat64_session_json(o, &sess);
	else
		nat64_bib_json(o, &bib, false);
	return json_emit(o);
}

/*
 * A reader at the other end of a pipe sees each line at once. A write
 * blocked on a reader that stopped reading, ended by SIGINT or SIGTERM:
 * what it held is dropped (the exit would block on it again), no error.
 */
static int flush_line(void)
{
	bool ok = false;

	if (tern_nl_listen_write_begin()) {
		ok = fflush(stdout) == 0 && !ferror(stdout);
		tern_nl_listen_write_end();
	}
	if (ok)
		return TERN_EXIT_OK;
	if (tern_nl_listen_stopping()) {
		__fpurge(stdout);
		clearerr(stdout);
		return TERN_EXIT_OK;
	}
	return tern_fail("cannot write the output: %s", strerror(errno));
}

static int on_event(struct nlattr **tb, void *arg)
{
	struct monitor *m = arg;
	struct event ev = { 0 };
	char when[64];
	int status;

	if (!tb[TERN_A_INSTANCE] || !tb[TERN_A_EVENT] || !tb[TERN_A_TIME])
		return tern_fail("malformed event from the kernel");
	ev.instance = nla_get_string(tb[TERN_A_INSTANCE]);
	ev.type = nla_get_u8(tb[TERN_A_EVENT]);
	ev.time_ns = nla_get_u64(tb[TERN_A_TIME]);
	/* Kinds this CLI does not know (a newer module) are skipped. */
	if (ev.type >= ARRAY_SIZE(event_names))
		return TERN_EXIT_OK;
	ev.session = ev.type == TERN_EV_SESSION_ADD ||
		     ev.type == TERN_EV_SESSION_DEL;
	ev.block = ev.type == TERN_EV_BLOCK_ADD ||
		   ev.type == TERN_EV_BLOCK_DEL;
	if ((ev.block ? parse_block(tb[TERN_A_BLOCK], &ev) :
	     ev.session ? parse_session(tb[TERN_A_SESSION], &ev) :
			  parse_bib(tb[TERN_A_BIB], &ev)) < 0)
		return tern_fail("malformed event from the kernel");
	if (m->instance && strcmp(m->instance, ev.instance))
		return TERN_EXIT_OK;
	format_time(ev.time_ns, when, sizeof(when));
	if (m->json) {
		status = print_json(&ev, when);
		if (status)
			return status;
	} else {
		print_text(&ev, when);
	}
	return flush_line();
}

/*
 * Events were lost (the socket's receive buffer overflowed: ENOBUFS); the
 * kernel does not say how many. Said in the stream itself, for whoever
 * reads it later (a journal), besides the warning on stderr.
 */
static int on_lost(void *arg)
{
	struct monitor *m = arg;
	struct json_object *o;
	struct timespec ts;
	uint64_t ns;
	char when[64];
	int status;

	clock_gettime(CLOCK_REALTIME, &ts);
	ns = (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
	format_time(ns, when, sizeof(when));
	if (m->json) {
		o = json_obj();
		json_add_str(o, "time", when);
		json_add_u64(o, "time-ns", ns);
		json_add_str(o, "instance", m->instance);
		json_add_str(o, "event", "lost");
		status = json_emit(o);
		if (status)
			return status;
	} else {
		printf("%s lost\n", when);
	}
	return flush_line();
}

/* stdout's buffer while listening (setvbuf()); it outlives the command. */
static char out_buf[1 << 16];

int cmd_monitor(int argc, char **argv, struct tern_opts *opts)
{
	struct monitor m = { .json = opts->json };
	struct tern_nl *nl;
	int status, n;

	if (table_help(argc, argv, help_monitor))
		return TERN_EXIT_OK;
	status = table_args("monitor", argc, argv, opts, NULL, 0, &n, &m.json);
	if (status)
		return status;
	m.instance = opts->instance;
	/*
	 * Fully buffered even on a terminal (line-buffered there by default,
	 * written by printf() itself): a line reaches the terminal or pipe
	 * only in flush_line(), inside tern_nl_listen_write_begin() and
	 * _end(). A line is far shorter than the buffer.
	 */
	setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
	status = tern_nl_open(&nl);
	if (status)
		return status;
	status = tern_nl_listen(nl, TERN_GENL_MCGRP_EVENTS, TERN_CMD_EVENT,
				on_event, on_lost, &m);
	tern_nl_close(nl);
	return status;
}
