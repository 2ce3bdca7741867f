// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: what the NAT64 table commands share.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "args.h"
#include "nat64.h"
#include "output.h"
#include "tables.h"
#include "tern_genl.h"

/* A decimal port: digits only, 0..65535. */
static int port_parse(const char *s, uint16_t *port)
{
	unsigned long v = 0;
	const char *c;

	if (!*s || strlen(s) > 5)
		return -1;
	for (c = s; *c; c++) {
		if (!isdigit((unsigned char)*c))
			return -1;
		v = v * 10 + (*c - '0');
	}
	if (v > 65535)
		return -1;
	*port = v;
	return 0;
}

int taddr_parse(const char *s, struct taddr *t)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *port;
	char *sep;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	memset(t, 0, sizeof(*t));
	if (buf[0] == '[') {
		/* [ADDR6]:PORT */
		sep = strchr(buf, ']');
		if (!sep || sep[1] != ':')
			return -1;
		*sep = '\0';
		port = sep + 2;
		t->family = AF_INET6;
		if (inet_pton(AF_INET6, buf + 1, &t->addr.v6) != 1)
			return -1;
		return port_parse(port, &t->port);
	}
	sep = strrchr(buf, '#');
	if (!sep) {
		/* ADDR4:PORT (an IPv6 address needs # or brackets) */
		sep = strchr(buf, ':');
		if (!sep || strchr(sep + 1, ':'))
			return -1;
	}
	*sep = '\0';
	port = sep + 1;
	t->family = strchr(buf, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(t->family, buf, &t->addr) != 1)
		return -1;
	return port_parse(port, &t->port);
}

char *taddr_str(const struct taddr *t, char *buf)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(t->family, &t->addr, a, sizeof(a));
	snprintf(buf, TADDR_STRLEN, "%s#%u", a, t->port);
	return buf;
}

const char *proto_name(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return "tcp";
	case IPPROTO_UDP:
		return "udp";
	case IPPROTO_ICMP:
		return "icmp";
	}
	return NULL;
}

int nat64_put_proto(struct nl_msg *msg, const void *arg)
{
	const uint8_t *proto = arg;

	if (!*proto)
		return 0;
	return nla_put_u8(msg, TERN_A_PROTO, *proto) < 0 ? -1 : 0;
}

/* --tcp, --udp, --icmp into *@data (a uint8_t), as table_args_flags() asks. */
static int proto_flag(const char *a, void *data)
{
	static const struct {
		const char *opt;
		uint8_t proto;
	} protos[] = {
		{ "--tcp", IPPROTO_TCP },
		{ "--udp", IPPROTO_UDP },
		{ "--icmp", IPPROTO_ICMP },
	};
	uint8_t *proto = data;
	size_t p;

	for (p = 0; p < ARRAY_SIZE(protos); p++)
		if (!strcmp(a, protos[p].opt))
			break;
	if (p == ARRAY_SIZE(protos))
		return -1;
	if (*proto && *proto != protos[p].proto)
		return tern_usage("--tcp, --udp and --icmp are mutually exclusive");
	*proto = protos[p].proto;
	return TERN_EXIT_OK;
}

int nat64_args(const char *cmd, int argc, char **argv, struct tern_opts *opts,
	       const char **pos, int max, int *npos, bool *json,
	       uint8_t *proto)
{
	*proto = 0;
	return table_args_flags(cmd, argc, argv, opts, pos, max, npos, json,
				proto_flag, proto);
}
