/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_MODE_H
#define _TERN_MODE_H

#include <linux/in6.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/skbuff.h>
#include "core/inst.h"
#include "xlat/packet.h"

struct dst_entry;
struct iphdr;
struct tern_mode_ops;

/*
 * One packet on its way through the translator, on the driver's stack
 * (xlat/xlat.c): what the parser found, what the mode decided, and what
 * the driver must do next. Nothing of it outlives the packet.
 */
struct tern_xlat {
	struct tern_instance *inst;
	const struct tern_config *cfg;
	const struct tern_mode_ops *mode;
	struct tern_pkt p;		/* the parser's findings */

	/* The decision: the translated packet's addresses (saddr, daddr). */
	union {
		__be32 a4[2];		/* 6->4 */
		struct in6_addr a6[2];	/* 4->6 */
	};
	int svia, dvia;			/* how the mode mapped them */
	/*
	 * Transport identifiers, read by the driver before ->source*() for
	 * packets that are not ICMP errors (NAT64 keys its sessions on them);
	 * a mode that changes them sets @nat and @nport.
	 */
	struct tern_l4id id;
	bool nat;
	__be16 nport[2];
	u32 mark;			/* the packet's (NAT64: pool4 choice) */
	bool dlocal;			/* 4->6: the destination is this host's */
	/*
	 * State ->source*() made for this packet (NAT64: a new session), for
	 * ->unwind() if the packet is dropped after all; NULL if none.
	 */
	void *fresh;
	/*
	 * A refusal of ->source*() the sender must hear of (RFC 6146 names
	 * the ICMP error): its type and code, in the packet's family. Or one
	 * nobody hears of (@silent): no error, not even by icmp-on-drop, and
	 * an ICMP error so refused is not translated with another source.
	 */
	bool err, silent;
	u8 err_type, err_code;
	/*
	 * ICMP errors, in a mode with ->quote4/6 (NAT64): what it decided for
	 * the quoted packet before anything else about the error: its
	 * translated addresses and identifiers, and the IPv6 host it is about.
	 */
	struct {
		bool valid;
		__be16 nport[2];
		union {
			__be32 a4[2];
			struct in6_addr a6[2];
		};
		struct in6_addr host6;
		__be32 host4;
	} q;

	/*
	 * Hairpinning (6->4, RFC 7757 4.2): the translated packet goes back
	 * to IPv6. The pass hands @back_skb (the IPv4 packet, or the ICMPv4
	 * error built for an ICMPv6 one: @back_error) and the route toward
	 * its destination (@back_dst, may be NULL) to the driver, which runs
	 * the 4->6 pass on it with the same struct.
	 */
	bool back_error;
	struct sk_buff *back_skb;
	struct dst_entry *back_dst;
	/*
	 * An ICMPv4 error the second pass owes the packet it drops. Its
	 * destination, the packet's source, is the translator's own (pool4,
	 * an EAM): the driver builds it and translates it to the first
	 * pass's IPv6 sender instead.
	 */
	bool back_err;
	u8 back_err_type, back_err_code;
	__be32 back_err_info;
	/*
	 * The second pass of an intrinsic hairpin: IPv4 addresses the mode
	 * maps back by pool6, not by the EAMT (see siit/hairpin.c).
	 */
	bool second_pass;
	unsigned int n_by_pool6;
	__be32 by_pool6[2];
};

/*
 * Verdicts of a pass beyond netfilter's, acted on by the driver: the
 * packet hairpins (x->back_*), or is a super-packet to translate as
 * segments (still owned, untouched).
 */
#define TERN_XLAT_HAIRPIN	(NF_MAX_VERDICT + 1)
#define TERN_XLAT_SEGMENT	(NF_MAX_VERDICT + 2)

/*
 * What a mode (SIIT; NAT64 next) decides for the driver. Each callback
 * fills in the struct tern_xlat it is given and returns 0, or the
 * TERN_STAT_* counter of the reason it refuses. Called under
 * rcu_read_lock() with BHs off, for every packet: no sleeping, no lock
 * shared between CPUs on the way of an established flow.
 */
struct tern_mode_ops {
	const char *name;
	/*
	 * Optional, 4->6: is a packet to @daddr, an address of this host, the
	 * mode's (NAT64: pool4 may share the host's addresses; its transport
	 * addresses are the mode's)? Called once the packet is parsed and
	 * x->id read, before any check; reads state, never changes it. NULL:
	 * the host's addresses are never the mode's.
	 */
	bool (*local4)(const struct tern_xlat *x, __be32 daddr);
	/*
	 * 6->4. @dest6: is @daddr one this mode translates? Sets a4[1] and
	 * dvia; refuses with a PASS_* counter (the packet is not Tern's).
	 * @source6: the source, once the packet is parsed; sets a4[0] and
	 * svia; refuses with a DROP_* counter.
	 */
	int (*dest6)(struct tern_xlat *x, const struct in6_addr *daddr);
	int (*source6)(struct tern_xlat *x, const struct in6_addr *saddr);
	/*
	 * The destination of an ICMPv6 error (a4[1], mapped by @dest6): may
	 * an error be sent there? (Its source may be replaced, RFC 6791.)
	 */
	bool (*error_dest_ok6)(const struct tern_xlat *x);
	/* Does the translated packet come back to IPv6 here (hairpin)? */
	bool (*hairpins)(const struct tern_xlat *x,
			 const struct in6_addr *daddr6);
	/*
	 * Before the 4->6 pass of a hairpin: @iph is the IPv4 packet to
	 * translate back, @inner the packet an ICMPv4 error quotes (or NULL).
	 */
	void (*hairpin_prepare)(struct tern_xlat *x, const struct iphdr *iph,
				const struct iphdr *inner);

	/* 4->6, the same steps: a6[1]/dvia, then a6[0]/svia. */
	int (*dest4)(struct tern_xlat *x, __be32 daddr);
	int (*source4)(struct tern_xlat *x, __be32 saddr, __be32 daddr);
	/*
	 * Optional (NAT64): ->source4() returned TERN_STAT_SYN_STORED, the
	 * mode keeps @skb for later (RFC 6146 3.5.2.2). Returns
	 * TERN_STAT_SYN_STORED (@skb is the mode's now) or the DROP_* counter
	 * of why it did not (@skb is still the driver's).
	 */
	int (*keep4)(struct tern_xlat *x, struct sk_buff *skb);
	/*
	 * Optional (a stateful mode): the packet ->source*() accepted is
	 * dropped after all (no route, too big, no memory): forget x->fresh,
	 * the state made for it, so that a packet that is not translated
	 * leaves none behind.
	 */
	void (*unwind)(struct tern_xlat *x);

	/*
	 * Optional (a stateful mode): the packet an ICMP error quotes, with
	 * protocol @proto and identifiers @id (valid if quoted), before the
	 * error's own addresses are decided: fills in x->q (4->6: and the
	 * error's destination, a6[1]). Returns 0 or a DROP_* counter. ICMP
	 * errors never create or refresh state.
	 */
	int (*quote4)(struct tern_xlat *x, __be32 s4, __be32 d4, u8 proto,
		      const struct tern_l4id *id);
	int (*quote6)(struct tern_xlat *x, const struct in6_addr *s6,
		      const struct in6_addr *d6, u8 proto,
		      const struct tern_l4id *id);

	/*
	 * The addresses of the packet quoted by an ICMP error (RFC 7915 4.3,
	 * 5.3): the decision of a normal packet, for the packet in error;
	 * @nport (the quoted identifiers of @id on entry) may be changed.
	 * Return false if the quoted packet cannot be translated.
	 */
	bool (*inner6)(const struct tern_xlat *x, const struct in6_addr *s6,
		       const struct in6_addr *d6, __be32 *s4, __be32 *d4,
		       const struct tern_l4id *id, __be16 *nport);
	bool (*inner4)(const struct tern_xlat *x, __be32 s4, __be32 d4,
		       struct in6_addr *s6, struct in6_addr *d6,
		       const struct tern_l4id *id, __be16 *nport);
};

extern const struct tern_mode_ops tern_siit_mode;
extern const struct tern_mode_ops tern_nat64_mode;

/*
 * The callbacks every packet makes, named here so that the packet path
 * calls the two modes' directly (INDIRECT_CALL_2, as the kernel's own
 * receive path does) instead of through a retpoline.
 */
int tern_siit_dest6(struct tern_xlat *x, const struct in6_addr *daddr);
int tern_siit_source6(struct tern_xlat *x, const struct in6_addr *saddr);
bool tern_siit_hairpins(const struct tern_xlat *x,
			const struct in6_addr *daddr6);
int tern_siit_dest4(struct tern_xlat *x, __be32 daddr);
int tern_siit_source4(struct tern_xlat *x, __be32 saddr, __be32 daddr);
int tern_nat64_dest6(struct tern_xlat *x, const struct in6_addr *daddr);
int tern_nat64_source6(struct tern_xlat *x, const struct in6_addr *saddr);
bool tern_nat64_hairpins(const struct tern_xlat *x,
			 const struct in6_addr *daddr6);
int tern_nat64_dest4(struct tern_xlat *x, __be32 daddr);
int tern_nat64_source4(struct tern_xlat *x, __be32 saddr, __be32 daddr);

/* x->mode->@op(x, ...), a direct call for SIIT and NAT64. */
#define tern_mode_call(x, op, ...)					\
	INDIRECT_CALL_2((x)->mode->op, tern_siit_##op, tern_nat64_##op,	\
			x, __VA_ARGS__)

/* The ops of @inst's mode. */
static inline const struct tern_mode_ops *
tern_mode_of(const struct tern_instance *inst)
{
	return inst->type == TERN_TYPE_NAT64 ? &tern_nat64_mode :
					       &tern_siit_mode;
}

/* The packet is dropped after ->source*() accepted it: see ->unwind(). */
static inline void tern_unwind(struct tern_xlat *x)
{
	if (x->fresh && x->mode->unwind)
		x->mode->unwind(x);
	x->fresh = NULL;
}

static inline void tern_xlat_init(struct tern_xlat *x,
				  struct tern_instance *inst,
				  const struct tern_config *cfg)
{
	x->inst = inst;
	x->cfg = cfg;
	x->mode = tern_mode_of(inst);
	x->back_error = false;
	x->back_err = false;
	x->back_skb = NULL;
	x->back_dst = NULL;
	x->second_pass = false;
	x->n_by_pool6 = 0;
	x->id.valid = false;
	x->nat = false;
	x->dlocal = false;
	x->fresh = NULL;
	x->q.valid = false;
	x->err = false;
	x->silent = false;
}

#endif /* _TERN_MODE_H */
