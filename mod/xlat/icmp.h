/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ICMP_H
#define _TERN_ICMP_H

#include <linux/skbuff.h>
#include "tern_genl.h"

enum tern_icmp_kind {
	TERN_ICMP_ECHO,		/* translatable now: type mapped */
	TERN_ICMP_ERROR,	/* an error message */
	TERN_ICMP_INFO,		/* informational other than echo */
	TERN_ICMP_OTHER,	/* unknown or without counterpart */
};

/* The counter of an ICMP message not translated; 0 for echo (translated). */
static inline int tern_icmp_drop_reason(enum tern_icmp_kind kind)
{
	switch (kind) {
	case TERN_ICMP_ECHO:
		return 0;
	case TERN_ICMP_ERROR:
		return TERN_STAT_DROP_ICMP_ERROR;
	case TERN_ICMP_INFO:
		return TERN_STAT_DROP_ICMP_INFO;
	default:
		return TERN_STAT_DROP_ICMP_OTHER;
	}
}

enum tern_icmp_kind tern_icmp6_classify(u8 type6, u8 *type4);
enum tern_icmp_kind tern_icmp4_classify(u8 type4, u8 *type6);

int tern_icmp4_err_map(u8 type, u8 code, u8 *type6, u8 *code6, int *ptr);
int tern_icmp6_err_map(u8 type, u8 code, u8 *type4, u8 *code4);
int tern_icmp_ptr_4to6(u32 ptr);
int tern_icmp_ptr_6to4(u32 ptr);
u32 tern_icmp_mtu_4to6(const u16 *plateaus, unsigned int n, u32 mtu4,
		       u32 tot_len, u32 mtu6_out, u32 mtu4_in);
u32 tern_icmp_mtu_6to4(u32 mtu6, u32 mtu4_out, u32 mtu6_in, bool frag);

void tern_icmp4_error(struct sk_buff *skb, int type, int code, __be32 info);
void tern_icmp6_error(struct sk_buff *skb, u8 type, u8 code, u32 info);

#endif /* _TERN_ICMP_H */
