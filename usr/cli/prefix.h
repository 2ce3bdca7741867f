/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: IP prefixes (ADDR/LEN) on the command line and in netlink
 * attributes (nested enum tern_prefix_attr).
 */
#ifndef TERN_CLI_PREFIX_H
#define TERN_CLI_PREFIX_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <netlink/msg.h>

struct tern_prefix {
	int family;			/* AF_INET6 or AF_INET */
	union {
		struct in6_addr v6;
		struct in_addr v4;
	} addr;
	uint8_t len;
};

/* Accepted syntax, for error messages. */
#define PREFIX6_FORMS "ADDR/LEN, e.g. 64:ff9b::/96, with LEN 0..128"

/* Longest output of prefix_str(), NUL included. */
#define PREFIX_STRLEN (INET6_ADDRSTRLEN + 4)

/*
 * Parse "ADDR/LEN" with an IPv6 ADDR and 0 <= LEN <= 128. Syntax only: the
 * kernel decides which lengths and addresses make sense.
 * Returns 0, or -1 if @s is not such a prefix.
 */
int prefix6_parse(const char *s, struct tern_prefix *p);

/* The same for IPv4: "ADDR/LEN" with 0 <= LEN <= 32. */
#define PREFIX4_FORMS "ADDR/LEN, e.g. 192.0.2.0/24, with LEN 0..32"
int prefix4_parse(const char *s, struct tern_prefix *p);

/*
 * Either family (IPv6 if @s has a ':'); with @len_optional, a bare address
 * is a full-length prefix.
 */
int prefix_parse_any(const char *s, bool len_optional, struct tern_prefix *p);

/* Write "ADDR/LEN" into @buf (PREFIX_STRLEN bytes) and return @buf. */
char *prefix_str(const struct tern_prefix *p, char *buf);

/* Add @p to @msg as a nested attribute of type @attrtype. */
int prefix_put(struct nl_msg *msg, int attrtype, const struct tern_prefix *p);

/*
 * Read a nested prefix attribute.
 * Returns 0, or -1 if the attribute is malformed.
 */
int prefix_get(struct nlattr *nest, struct tern_prefix *p);

#endif /* TERN_CLI_PREFIX_H */
