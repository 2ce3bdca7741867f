// SPDX-License-Identifier: GPL-2.0
/*
 * One Explicit Address Mapping (RFC 7757): its checks and the translation
 * of an address through it. The table of them is siit/eamt.c.
 */

#include <linux/netlink.h>
#include "siit/eamt.h"
#include "siit/prefix.h"

/*
 * @n (at most 32) bits of @a from bit @off on (0 = the most significant),
 * as the low bits of the result; or @v written there. They lie in the
 * 64-bit window of the 32-bit word holding bit @off and the next one.
 */
static u32 tern_bits6_get(const struct in6_addr *a, unsigned int off,
			  unsigned int n)
{
	unsigned int w = off / 32, shift = off % 32;
	u64 v;

	if (!n)
		return 0;
	v = (u64)ntohl(a->s6_addr32[w]) << 32;
	if (w < 3)
		v |= ntohl(a->s6_addr32[w + 1]);
	return (u32)((v << shift) >> (64 - n));
}

static void tern_bits6_set(struct in6_addr *a, unsigned int off,
			   unsigned int n, u32 bits)
{
	unsigned int w = off / 32, shift = off % 32;
	u64 v, mask;

	if (!n)
		return;
	mask = (~0ULL >> (64 - n)) << (64 - shift - n);
	v = (u64)ntohl(a->s6_addr32[w]) << 32;
	if (w < 3)
		v |= ntohl(a->s6_addr32[w + 1]);
	v = (v & ~mask) | (((u64)bits << (64 - shift - n)) & mask);
	a->s6_addr32[w] = htonl(v >> 32);
	if (w < 3)
		a->s6_addr32[w + 1] = htonl((u32)v);
}

/*
 * RFC 7757 3.3/3.4: the prefix of the other family, then the suffix bits
 * of the address. The IPv4 suffix (32 - IPv4 length bits) sits right
 * after the IPv6 prefix; when the IPv6 suffix is longer, its remaining
 * bits are zero 4 -> 6 and ignored 6 -> 4.
 */
void tern_eam_6to4(const struct tern_eam *e, const struct in6_addr *a6,
		   __be32 *a4)
{
	u32 host = tern_bits6_get(a6, e->p6.len, 32 - e->p4.len);

	*a4 = htonl(ntohl(e->p4.addr) | host);
}

void tern_eam_4to6(const struct tern_eam *e, __be32 a4, struct in6_addr *a6)
{
	*a6 = e->p6.addr;
	tern_bits6_set(a6, e->p6.len, 32 - e->p4.len,
		       ntohl(a4) & tern_hostmask4(e->p4.len));
}

int tern_eam_validate(const struct tern_eam *e, struct netlink_ext_ack *extack)
{
	/*
	 * RFC 7757 3.2: the suffix is copied bit for bit, so the IPv6 one
	 * must hold every bit of the IPv4 one; a shorter one would map
	 * several IPv4 addresses to one IPv6 address.
	 */
	if (e->p4.len > 32 || e->p6.len > 128 ||
	    128 - e->p6.len < 32 - e->p4.len) {
		NL_SET_ERR_MSG(extack,
			       "the IPv6 suffix must be at least as long as the IPv4 suffix: IPv6 length <= 96 + IPv4 length (RFC 7757)");
		return -EINVAL;
	}
	if (!tern_prefix_host_bits_clear(&e->p6.addr, 128, e->p6.len)) {
		NL_SET_ERR_MSG(extack,
			       "the IPv6 prefix has bits set after its length");
		return -EINVAL;
	}
	if (!tern_prefix_host_bits_clear(&e->p4.addr, 32, e->p4.len)) {
		NL_SET_ERR_MSG(extack,
			       "the IPv4 prefix has bits set after its length");
		return -EINVAL;
	}
	return 0;
}
