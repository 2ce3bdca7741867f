// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of a translated ICMP error both directions share: the quoted
 * packet and the RFC 4884 extension, the checks on the quote, the new
 * buffer, and the RFC 6791 source for errors from untranslatable routers.
 */

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <net/dst.h>
#include "xlat/icmp_quote.h"

/*
 * Splits the message body at the RFC 4884 length (@words units of @unit
 * bytes; 0: no extension).
 */
void tern_err_split(struct tern_err *e, const u8 *body,
			   unsigned int len, unsigned int words,
			   unsigned int unit)
{
	unsigned int olen = words * unit;

	e->quote = body;
	e->quote_len = len;
	e->ext = NULL;
	e->ext_len = 0;
	/* A length that is not RFC 4884's: no extension (RFC 4884 5.4). */
	if (!words || olen < TERN_RFC4884_MIN || olen + 4 > len)
		return;
	e->quote_len = olen;
	e->ext = body + olen;
	e->ext_len = len - olen;
}

/*
 * Pads the translated quote (@qlen bytes in @msg) to a multiple of @unit,
 * at least 128 bytes, and appends the extension; returns the padded
 * length. When the whole does not fit @room, the quote is cut (RFC 7915
 * 4.2, 5.2: the extension is kept), never below 128 bytes; 0 (no
 * extension) only when the extension alone does not fit beside those.
 */
unsigned int tern_err_pad(u8 *msg, unsigned int qlen,
				 unsigned int unit, const struct tern_err *e,
				 unsigned int room)
{
	unsigned int padded = max_t(unsigned int, round_up(qlen, unit),
				    TERN_RFC4884_MIN);

	if (!e->ext || TERN_RFC4884_MIN + e->ext_len > room)
		return 0;
	if (padded + e->ext_len > room)
		padded = rounddown(room - e->ext_len, unit);
	if (padded > qlen)
		memset(msg + qlen, 0, padded - qlen);
	memcpy(msg + padded, e->ext, e->ext_len);
	return padded;
}

/*
 * The packet in error was sent by the error's destination (RFC 792, RFC
 * 4443 2.2: an error goes to the source of the packet it quotes). Any
 * other pair is forged: the error would reach a host about a packet it
 * never sent. A quote too short or of another version is left to
 * tern_inner_*(), which refuses it.
 */
bool tern_err_quote_from4(const struct tern_err *e, __be32 daddr)
{
	return e->quote_len < sizeof(struct iphdr) || e->quote[0] >> 4 != 4 ||
	       !memcmp(e->quote + offsetof(struct iphdr, saddr), &daddr,
		       sizeof(daddr));
}

bool tern_err_quote_from6(const struct tern_err *e,
				 const struct in6_addr *daddr)
{
	return e->quote_len < sizeof(struct ipv6hdr) ||
	       e->quote[0] >> 4 != 6 ||
	       !memcmp(e->quote + offsetof(struct ipv6hdr, saddr), daddr,
		       sizeof(*daddr));
}

/* @dst is NULL for a hairpinned error (translated back, not sent). */
struct sk_buff *tern_err_alloc(struct dst_entry *dst, unsigned int len)
{
	unsigned int hroom = dst ? LL_RESERVED_SPACE(dst->dev) +
				   dst->header_len : LL_MAX_HEADER;
	struct sk_buff *skb;

	skb = alloc_skb(hroom + len + (dst ? dst->dev->needed_tailroom : 0),
			GFP_ATOMIC);
	if (skb)
		skb_reserve(skb, hroom);
	return skb;
}

/* RFC 6791: a source for errors from untranslatable IPv6 addresses. */
__be32 tern_rfc6791_v4(const struct tern_config *cfg,
			      const struct in6_addr *from)
{
	u32 host = jhash(from, sizeof(*from), 0);
	u32 mask;

	/* A shift by 32 is undefined: a /32 pool is its one address. */
	if (cfg->rfc6791v4.len >= 32)
		return cfg->rfc6791v4.addr;
	mask = ~0U >> cfg->rfc6791v4.len;
	host &= mask;
	/* Not the network or broadcast address of a real subnet. */
	if (cfg->rfc6791v4.len <= 30 && (host == 0 || host == mask))
		host = 1;
	return cfg->rfc6791v4.addr | htonl(host);
}

void tern_rfc6791_v6(const struct tern_config *cfg, __be32 from,
			    struct in6_addr *a6)
{
	u32 host = jhash_1word((__force u32)from, 0);
	unsigned int len = cfg->rfc6791v6.len;

	*a6 = cfg->rfc6791v6.addr;
	if (len >= 128)
		return;
	if (len < 96)
		len = 96;	/* vary the last 32 bits only */
	host &= ~0U >> (len - 96);
	if (!host)
		host = 1;
	a6->s6_addr32[3] |= htonl(host);
}
