/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the NAT64 table commands (bib, session) and tern monitor
 * share: transport addresses (ADDR#PORT), the protocol options --tcp, --udp,
 * --icmp (nat64.c), and BIB entries and sessions read (nat64_entry.c).
 */
#ifndef TERN_CLI_NAT64_H
#define TERN_CLI_NAT64_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <netlink/msg.h>

#include "prefix.h"
#include "tern.h"

/* A transport address (ICMP: the port is the query identifier). */
struct taddr {
	int family;			/* AF_INET6 or AF_INET */
	union {
		struct in6_addr v6;
		struct in_addr v4;
	} addr;
	uint16_t port;
};

/* Accepted syntax, for error messages. */
#define TADDR_FORMS "ADDR6#PORT, [ADDR6]:PORT, ADDR4#PORT or ADDR4:PORT"

/* Longest output of taddr_str(), NUL included. */
#define TADDR_STRLEN (INET6_ADDRSTRLEN + 6)

/* Parses one of TADDR_FORMS (PORT 0..65535, decimal). 0 or -1. */
int taddr_parse(const char *s, struct taddr *t);

/* Writes "ADDR#PORT" into @buf (TADDR_STRLEN bytes); returns @buf. */
char *taddr_str(const struct taddr *t, char *buf);

/* "ESTABLISHED"... for an enum tern_tcp_state; NULL if bad. */
const char *tcp_state_name(uint8_t state);

/* "tcp", "udp", "icmp" for IPPROTO_TCP, ... ; NULL for anything else. */
const char *proto_name(uint8_t proto);

/*
 * The arguments of command @cmd ("bib list"), like table_args(), plus
 * --tcp, --udp or --icmp into *@proto (left 0 if none; two are a usage
 * error). Returns TERN_EXIT_OK or TERN_EXIT_USAGE (after reporting).
 */
int nat64_args(const char *cmd, int argc, char **argv, struct tern_opts *opts,
	       const char **pos, int max, int *npos, bool *json,
	       uint8_t *proto);

/* A BIB entry (TERN_A_BIB). */
struct nat64_bib {
	uint8_t proto;
	struct taddr t6, t4;
	bool is_static;
	uint32_t sessions;	/* 0 if absent (events) */
};

/* A session (TERN_A_SESSION). */
struct nat64_session {
	uint8_t proto;
	struct taddr t6, t4, remote;
	const char *state;	/* NULL but for TCP */
	bool has_expires;	/* dumps; not events */
	uint32_t expires_ms;
};

/*
 * Reads the nest @nest (may be NULL) into @b or @s. Returns 0, or -1 if it
 * is malformed: an attribute missing, an unknown protocol or TCP state.
 */
int nat64_bib_parse(struct nlattr *nest, struct nat64_bib *b);
int nat64_session_parse(struct nlattr *nest, struct nat64_session *s);

/*
 * Adds the members of @b or @s to the JSON object @o (keys protocol,
 * address6, port6, address4, port4, then static and, for a dump
 * (@dump), sessions; or remote4, remote-port4, state and, if known,
 * expires-ms).
 */
struct json_object;
void nat64_bib_json(struct json_object *o, const struct nat64_bib *b,
		    bool dump);
void nat64_session_json(struct json_object *o, const struct nat64_session *s);

/* Adds TERN_A_PROTO *(uint8_t *)@arg unless 0 (a tern_nl_put_fn). */
int nat64_put_proto(struct nl_msg *msg, const void *arg);

/*
 * The filters of bib list and session list (nat64_filter.c): the entries
 * whose IPv4 side is ADDR4 (and PORT), whose IPv6 address is in PREFIX6,
 * and of the subscriber of an IPv6 address; all those given (AND).
 */
struct nat64_filter {
	uint8_t proto;			/* 0: every protocol */
	bool has4, has_port4, has6, has_sub;
	bool only_static;		/* TERN_FILTER_STATIC */
	struct in_addr addr4;
	uint16_t port4;
	struct tern_prefix prefix6;
	struct in6_addr sub;
};

/*
 * Takes --ipv4 ADDR4[:PORT], --ipv6 PREFIX6 and --subscriber ADDR6 (each
 * at most once) out of @argv (*@argc shrinks) into @f, zeroed first.
 * Returns TERN_EXIT_OK or TERN_EXIT_USAGE after reporting.
 */
int nat64_filter_args(const char *cmd, int *argc, char **argv,
		      struct nat64_filter *f);

/* Adds TERN_A_PROTO and TERN_A_FILTER of @arg (a tern_nl_put_fn). */
int nat64_put_filter(struct nl_msg *msg, const void *arg);

#endif /* TERN_CLI_NAT64_H */
