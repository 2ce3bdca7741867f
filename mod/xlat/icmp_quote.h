/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ICMP_QUOTE_H
#define _TERN_ICMP_QUOTE_H

#include <linux/skbuff.h>
#include "core/inst.h"

struct dst_entry;

/* RFC 4884: the "original datagram" field is at least 128 bytes long. */
#define TERN_RFC4884_MIN	128

/* An ICMP error being translated. */
struct tern_err {
	const u8 *quote;		/* the packet in error, as quoted */
	unsigned int quote_len;		/* its bytes (RFC 4884 length if any) */
	const u8 *ext;			/* RFC 4884 extension structure */
	unsigned int ext_len;
};

/*
 * Splits the message body at the RFC 4884 length (@words units of @unit
 * bytes; 0: no extension).
 */
void tern_err_split(struct tern_err *e, const u8 *body, unsigned int len,
		    unsigned int words, unsigned int unit);
/*
 * Pads the translated quote and appends the extension within @room;
 * returns the padded length, 0 for no extension.
 */
unsigned int tern_err_pad(u8 *msg, unsigned int qlen, unsigned int unit,
			  const struct tern_err *e, unsigned int room);
/* Was the quoted packet sent by the error's destination @daddr? */
bool tern_err_quote_from4(const struct tern_err *e, __be32 daddr);
bool tern_err_quote_from6(const struct tern_err *e,
			  const struct in6_addr *daddr);
/* A buffer for an error of @len bytes toward @dst (NULL: a hairpin). */
struct sk_buff *tern_err_alloc(struct dst_entry *dst, unsigned int len);
/* RFC 6791 sources for errors from untranslatable addresses. */
__be32 tern_rfc6791_v4(const struct tern_config *cfg,
		       const struct in6_addr *from);
void tern_rfc6791_v6(const struct tern_config *cfg, __be32 from,
		     struct in6_addr *a6);

#endif /* _TERN_ICMP_QUOTE_H */
