/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Deterministic NAT64 (RFC 7422): the mapping between a subscriber (an
 * IPv6 prefix of the subscriber space) and its IPv4 address and port
 * block, from the configuration alone. The one definition of it: tern.ko
 * (mod/nat64/det.c) and the tern CLI (tern det lookup) include this.
 * Pure integer arithmetic, no allocation, no state.
 *
 * A shape, for one protocol: the subscriber space S/s (det-space), the
 * subscriber prefix length L (subscriber-prefix-len), the n addresses of
 * pool4 for the protocol in ascending order A[0..n), their port range
 * [pmin, pmax] and the block size B (det-block-size; 0: the largest that
 * gives every subscriber a block). With P = pmax - pmin + 1 ports and
 * K = floor(P / B) blocks per address:
 *
 *   index i   = bits s .. L-1 of the IPv6 address (0 .. 2^(L-s) - 1)
 *   address   = A[i mod n]
 *   block b   = i div n
 *   ports     = pmin + b*B .. pmin + b*B + B - 1
 *
 * and back, for an address A[j] and a port p in [pmin, pmin + K*B):
 *   b = (p - pmin) div B, i = b*n + j (a subscriber if i < 2^(L-s)).
 *
 * Neighbouring subscribers get different addresses (i mod n): the
 * addresses are used evenly however few subscribers are active, and a
 * box that owns a set of addresses owns every subscriber mapped to them.
 * The mapping needs 2^(L-s) <= n*K; L - s is at most 32.
 */
#ifndef _TERN_DET_H
#define _TERN_DET_H

#include <linux/types.h>

struct tern_det_shape {
	__u32 n_addrs;		/* pool4 addresses of the protocol */
	__u32 pmin, pmax;	/* their port range, inclusive */
	__u32 block;		/* ports per block; 0: derived */
	__u8 space_len;		/* s: the subscriber space's prefix length */
	__u8 sub_len;		/* L: a subscriber's prefix length */
};

/* Why a shape cannot be used (tern_det_check()). */
enum tern_det_err {
	TERN_DET_OK,
	TERN_DET_E_LEN,		/* s > L, or L - s > 32 */
	TERN_DET_E_EMPTY,	/* no address */
	TERN_DET_E_BLOCK,	/* B larger than the range */
	TERN_DET_E_SHORT,	/* fewer blocks than subscribers */
};

/* Subscribers of the space: 2^(L-s). */
static inline __u64 tern_det_subs(const struct tern_det_shape *d)
{
	return 1ULL << (d->sub_len - d->space_len);
}

static inline __u32 tern_det_ports(const struct tern_det_shape *d)
{
	return d->pmax - d->pmin + 1;
}

/*
 * The block size in force: B, or with B = 0 the largest that gives each
 * subscriber one: floor(P / ceil(2^(L-s) / n)).
 */
static inline __u32 tern_det_block(const struct tern_det_shape *d)
{
	__u32 per_addr;

	if (d->block)
		return d->block;
	if (!d->n_addrs)
		return 0;
	/* ceil(2^(L-s) / n) in 32 bits: 2^(L-s) - 1 fits. */
	per_addr = (__u32)(tern_det_subs(d) - 1) / d->n_addrs + 1;
	return per_addr > tern_det_ports(d) ? 0 :
	       tern_det_ports(d) / per_addr;
}

/* K: blocks per address. */
static inline __u32 tern_det_blocks(const struct tern_det_shape *d)
{
	__u32 b = tern_det_block(d);

	return b ? tern_det_ports(d) / b : 0;
}

/* Can @d map every subscriber of its space? */
static inline enum tern_det_err tern_det_check(const struct tern_det_shape *d)
{
	__u32 b;

	if (d->space_len > d->sub_len || d->sub_len > 128 ||
	    d->sub_len - d->space_len > 32)
		return TERN_DET_E_LEN;
	if (!d->n_addrs)
		return TERN_DET_E_EMPTY;
	if (d->pmin > d->pmax || d->pmax > 65535)
		return TERN_DET_E_BLOCK;
	b = tern_det_block(d);
	if (d->block > tern_det_ports(d))
		return TERN_DET_E_BLOCK;
	if (!b || (__u64)d->n_addrs * tern_det_blocks(d) < tern_det_subs(d))
		return TERN_DET_E_SHORT;
	return TERN_DET_OK;
}

/* Bit @k (0: the most significant) of the 128-bit address @a. */
static inline unsigned int tern_det_bit(const __u8 *a, unsigned int k)
{
	return (a[k / 8] >> (7 - k % 8)) & 1;
}

/* Is @a6 in the space @space/@d->space_len? */
static inline int tern_det_in_space(const struct tern_det_shape *d,
				    const __u8 *space, const __u8 *a6)
{
	unsigned int k;

	for (k = 0; k < d->space_len; k++)
		if (tern_det_bit(space, k) != tern_det_bit(a6, k))
			return 0;
	return 1;
}

/* The index of the subscriber of @a6 (in the space): bits s .. L-1. */
static inline __u32 tern_det_index(const struct tern_det_shape *d,
				   const __u8 *a6)
{
	__u32 i = 0;
	unsigned int k;

	for (k = d->space_len; k < d->sub_len; k++)
		i = i << 1 | tern_det_bit(a6, k);
	return i;
}

/* The prefix (@d->sub_len long) of subscriber @i of the space @space. */
static inline void tern_det_prefix(const struct tern_det_shape *d,
				   const __u8 *space, __u32 i, __u8 *out)
{
	unsigned int k, bits = d->sub_len - d->space_len;

	for (k = 0; k < 16; k++)
		out[k] = 0;
	for (k = 0; k < d->space_len; k++)
		out[k / 8] |= tern_det_bit(space, k) << (7 - k % 8);
	for (k = 0; k < bits; k++) {
		unsigned int pos = d->space_len + k;

		if ((i >> (bits - 1 - k)) & 1)
			out[pos / 8] |= 1 << (7 - pos % 8);
	}
}

/*
 * Subscriber @i's address (its position in the ascending list of the
 * protocol's pool4 addresses) and its block's first port. @d checked.
 */
static inline void tern_det_map(const struct tern_det_shape *d, __u32 i,
				__u32 *addr_idx, __u32 *first)
{
	*addr_idx = i % d->n_addrs;
	*first = d->pmin + (i / d->n_addrs) * tern_det_block(d);
}

/*
 * The subscriber whose block holds @port of the address at @addr_idx;
 * 0 if none does (a port past the last block, a block of no subscriber).
 */
static inline int tern_det_unmap(const struct tern_det_shape *d,
				 __u32 addr_idx, __u32 port, __u32 *i)
{
	__u32 b = tern_det_block(d);
	__u64 idx;

	if (!b || addr_idx >= d->n_addrs || port < d->pmin || port > d->pmax)
		return 0;
	if ((port - d->pmin) / b >= tern_det_blocks(d))
		return 0;
	idx = (__u64)((port - d->pmin) / b) * d->n_addrs + addr_idx;
	if (idx >= tern_det_subs(d))
		return 0;
	*i = (__u32)idx;
	return 1;
}

#endif /* _TERN_DET_H */
