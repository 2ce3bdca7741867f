/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_INNER_H
#define _TERN_INNER_H

#include "xlat/mode.h"

/*
 * The packet in error quoted by an ICMP error ("inner" packet), translated
 * from a buffer into another (RFC 7915 4.3, 5.3). They return the bytes
 * written to @out (at most @out_size: the rest of the quote is cut off) or
 * -1 if the inner packet is malformed or cannot be translated. Its
 * addresses are the mode's decision (x->mode->inner4/inner6). 6to4:
 * *@frag says whether the IPv6 packet had a Fragment header.
 */
int tern_inner_4to6(const struct tern_xlat *x, const u8 *in,
		    unsigned int in_len, u8 *out, unsigned int out_size,
		    u32 *tot_len);
int tern_inner_6to4(const struct tern_xlat *x, const u8 *in,
		    unsigned int in_len, u8 *out, unsigned int out_size,
		    bool *frag);

#endif /* _TERN_INNER_H */
