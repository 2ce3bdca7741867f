// SPDX-License-Identifier: GPL-2.0
/*
 * Address mapping: RFC 6052 IPv4-embedded IPv6 addresses and the IPv4
 * special-purpose ranges of RFC 6890.
 */

#include <linux/netlink.h>
#include <net/ipv6.h>
#include "core/addr.h"

/*
 * Where the four IPv4 octets go for each prefix length (RFC 6052 2.2):
 * byte 8 (bits 64-71, the u-octet) is always skipped.
 */
static const u8 tern_rfc6052_pos[6][4] = {
	{ 4, 5, 6, 7 },		/* /32 */
	{ 5, 6, 7, 9 },		/* /40 */
	{ 6, 7, 9, 10 },	/* /48 */
	{ 7, 9, 10, 11 },	/* /56 */
	{ 9, 10, 11, 12 },	/* /64 */
	{ 12, 13, 14, 15 },	/* /96 */
};

static const u8 *tern_rfc6052_layout(u8 len)
{
	return tern_rfc6052_pos[len == 96 ? 5 : (len - 32) / 8];
}

/* True if no bit of @addr (@bits long) is set after the first @len. */
bool tern_prefix_host_bits_clear(const void *addr, unsigned int bits,
				 unsigned int len)
{
	const u8 *a = addr;
	unsigned int i;

	for (i = len; i < bits; i++)
		if (a[i / 8] & (0x80 >> (i % 8)))
			return false;
	return true;
}

int tern_prefix6_validate_rfc6052(const struct tern_prefix6 *p,
				  struct netlink_ext_ack *extack)
{
	struct in6_addr masked;

	switch (p->len) {
	case 32: case 40: case 48: case 56: case 64: case 96:
		break;
	default:
		NL_SET_ERR_MSG(extack,
			       "pool6 prefix length must be 32, 40, 48, 56, 64 or 96 (RFC 6052)");
		return -EINVAL;
	}
	ipv6_addr_prefix(&masked, &p->addr, p->len);
	if (!ipv6_addr_equal(&masked, &p->addr)) {
		NL_SET_ERR_MSG(extack,
			       "pool6 prefix has bits set beyond its prefix length");
		return -EINVAL;
	}
	if (p->addr.s6_addr[8]) {
		NL_SET_ERR_MSG(extack,
			       "pool6 prefix bits 64-71 (the u-octet) must be zero (RFC 6052)");
		return -EINVAL;
	}
	if (ipv6_addr_is_multicast(&p->addr)) {
		NL_SET_ERR_MSG(extack, "pool6 prefix must not be multicast");
		return -EINVAL;
	}
	return 0;
}


bool tern_rfc6052_6to4(const struct tern_prefix6 *p,
		       const struct in6_addr *a6, __be32 *a4)
{
	const u8 *pos;
	u8 *o = (u8 *)a4;

	/* The usual length (the Well-Known Prefix's): three words to compare. */
	if (p->len == 96) {
		if ((a6->s6_addr32[0] ^ p->addr.s6_addr32[0]) |
		    (a6->s6_addr32[1] ^ p->addr.s6_addr32[1]) |
		    (a6->s6_addr32[2] ^ p->addr.s6_addr32[2]))
			return false;
		*a4 = a6->s6_addr32[3];
		return true;
	}
	if (!ipv6_prefix_equal(a6, &p->addr, p->len))
		return false;
	pos = tern_rfc6052_layout(p->len);
	o[0] = a6->s6_addr[pos[0]];
	o[1] = a6->s6_addr[pos[1]];
	o[2] = a6->s6_addr[pos[2]];
	o[3] = a6->s6_addr[pos[3]];
	return true;
}

void tern_rfc6052_4to6(const struct tern_prefix6 *p, __be32 a4,
		       struct in6_addr *a6)
{
	const u8 *pos = tern_rfc6052_layout(p->len);
	const u8 *i = (const u8 *)&a4;

	*a6 = p->addr;	/* bits beyond the prefix, u-octet and suffix: zero */
	a6->s6_addr[pos[0]] = i[0];
	a6->s6_addr[pos[1]] = i[1];
	a6->s6_addr[pos[2]] = i[2];
	a6->s6_addr[pos[3]] = i[3];
}

struct tern_range4 {
	u32 net;
	u8 len;
};

static bool tern_in_ranges(__be32 a, const struct tern_range4 *r, int n)
{
	u32 h = ntohl(a);
	int i;

	for (i = 0; i < n; i++)
		if (((h ^ r[i].net) & (~0U << (32 - r[i].len))) == 0)
			return true;
	return false;
}

/* RFC 6890 (and updates) special-purpose ranges whose Global flag is False. */
static const struct tern_range4 tern_nonglobal4[] = {
	{ 0x00000000, 8 },	/* RFC 1122 this network */
	{ 0x0a000000, 8 },	/* RFC 1918 */
	{ 0x64400000, 10 },	/* RFC 6598 shared address space */
	{ 0x7f000000, 8 },	/* RFC 1122 loopback */
	{ 0xa9fe0000, 16 },	/* RFC 3927 link local */
	{ 0xac100000, 12 },	/* RFC 1918 */
	{ 0xc0000000, 24 },	/* RFC 6890 IETF protocol assignments */
	{ 0xc0000200, 24 },	/* RFC 5737 TEST-NET-1 */
	{ 0xc0a80000, 16 },	/* RFC 1918 */
	{ 0xc6120000, 15 },	/* RFC 2544 benchmarking */
	{ 0xc6336400, 24 },	/* RFC 5737 TEST-NET-2 */
	{ 0xcb007100, 24 },	/* RFC 5737 TEST-NET-3 */
	{ 0xe0000000, 4 },	/* multicast */
	{ 0xf0000000, 4 },	/* RFC 1112 reserved, limited broadcast */
};

/* Global exceptions inside 192.0.0.0/24 (RFC 7723 PCP, RFC 8155 TURN). */
static const struct tern_range4 tern_global_exc4[] = {
	{ 0xc0000009, 32 },
	{ 0xc000000a, 32 },
};

bool tern_addr4_is_nonglobal(__be32 a)
{
	if (tern_in_ranges(a, tern_global_exc4, ARRAY_SIZE(tern_global_exc4)))
		return false;
	return tern_in_ranges(a, tern_nonglobal4, ARRAY_SIZE(tern_nonglobal4));
}
