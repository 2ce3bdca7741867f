// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: IP prefixes (ADDR/LEN).
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "tern_genl.h"
#include "prefix.h"

/* "ADDR/LEN" of @family; LEN may be omitted when @len_optional (full length). */
static int prefix_parse(const char *s, int family, bool len_optional,
			struct tern_prefix *p)
{
	char addr[INET6_ADDRSTRLEN];
	const char *slash, *c;
	unsigned int len = 0, max = family == AF_INET6 ? 128 : 32;

	slash = strchr(s, '/');
	if (!slash && len_optional)
		slash = s + strlen(s);
	if (!slash || slash == s || (size_t)(slash - s) >= sizeof(addr))
		return -1;
	memcpy(addr, s, slash - s);
	addr[slash - s] = '\0';

	memset(p, 0, sizeof(*p));
	p->family = family;
	if (inet_pton(family, addr, &p->addr) != 1)
		return -1;
	if (!*slash) {
		p->len = max;
		return 0;
	}

	c = slash + 1;
	if (*c == '\0' || strlen(c) > 3)
		return -1;
	for (; *c; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		len = len * 10 + (*c - '0');
	}
	if (len > max)
		return -1;
	p->len = len;
	return 0;
}

int prefix6_parse(const char *s, struct tern_prefix *p)
{
	return prefix_parse(s, AF_INET6, false, p);
}

int prefix4_parse(const char *s, struct tern_prefix *p)
{
	return prefix_parse(s, AF_INET, false, p);
}

int prefix_parse_any(const char *s, bool len_optional, struct tern_prefix *p)
{
	return prefix_parse(s, strchr(s, ':') ? AF_INET6 : AF_INET,
			    len_optional, p);
}

char *prefix_str(const struct tern_prefix *p, char *buf)
{
	char addr[INET6_ADDRSTRLEN];

	if (!inet_ntop(p->family, &p->addr, addr, sizeof(addr)))
		strcpy(addr, "?");
	snprintf(buf, PREFIX_STRLEN, "%s/%u", addr, p->len);
	return buf;
}

int prefix_put(struct nl_msg *msg, int attrtype, const struct tern_prefix *p)
{
	struct nlattr *nest;
	int alen = p->family == AF_INET6 ? 16 : 4;

	nest = nla_nest_start(msg, attrtype | NLA_F_NESTED);
	if (!nest)
		return -1;
	if (nla_put(msg, TERN_PREFIX_ADDR, alen, &p->addr) < 0 ||
	    nla_put_u8(msg, TERN_PREFIX_LEN, p->len) < 0) {
		nla_nest_cancel(msg, nest);
		return -1;
	}
	nla_nest_end(msg, nest);
	return 0;
}

int prefix_get(struct nlattr *nest, struct tern_prefix *p)
{
	static struct nla_policy policy[TERN_PREFIX_MAX + 1] = {
		[TERN_PREFIX_ADDR] = { .type = NLA_UNSPEC },
		[TERN_PREFIX_LEN] = { .type = NLA_U8 },
	};
	struct nlattr *tb[TERN_PREFIX_MAX + 1];
	struct nlattr *addr;

	if (nla_parse_nested(tb, TERN_PREFIX_MAX, nest, policy) < 0)
		return -1;
	addr = tb[TERN_PREFIX_ADDR];
	if (!addr || !tb[TERN_PREFIX_LEN])
		return -1;

	memset(p, 0, sizeof(*p));
	if (nla_len(addr) == 16)
		p->family = AF_INET6;
	else if (nla_len(addr) == 4)
		p->family = AF_INET;
	else
		return -1;
	memcpy(&p->addr, nla_data(addr), nla_len(addr));
	p->len = nla_get_u8(tb[TERN_PREFIX_LEN]);
	if (p->len > (p->family == AF_INET6 ? 128 : 32))
		return -1;
	return 0;
}
