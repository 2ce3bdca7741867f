// SPDX-License-Identifier: GPL-2.0
/*
 * The SIIT mode (RFC 7915 with RFC 6052, RFC 7757): what the driver asks
 * of it for each packet. Addresses are mapped one by one, statelessly:
 * the EAMT first, then pool6 unless denylist4 forbids (siit/mapping.c),
 * and refused by the rules of RFC 7915 4.1/5.1 and RFC 6052 3.1.
 */

#include <linux/ip.h>
#include "core/modes.h"
#include "siit/denylist4.h"
#include "siit/eamt.h"
#include "siit/hairpin.h"
#include "siit/mapping.h"
#include "siit/siit.h"
#include "xlat/route.h"

/* 4->6 mapping; in a hairpin's second pass, some addresses by pool6. */
static int tern_siit_map4(const struct tern_xlat *x, __be32 a4,
			  struct in6_addr *a6)
{
	return tern_map_4to6_by(x->cfg, a4, a6, x->by_pool6,
				x->n_by_pool6);
}

int tern_siit_dest6(struct tern_xlat *x, const struct in6_addr *daddr)
{
	x->dvia = tern_map_6to4(x->cfg, daddr, &x->a4[1]);
	return x->dvia == TERN_VIA_NONE ? TERN_STAT_PASS_NO_MAPPING : 0;
}

/* The source, and the checks on both IPv4 addresses (RFC 7915 5.1). */
int tern_siit_source6(struct tern_xlat *x, const struct in6_addr *saddr)
{
	__be32 daddr = x->a4[1];

	x->svia = tern_map_6to4(x->cfg, saddr, &x->a4[0]);
	if (x->svia == TERN_VIA_NONE)
		return TERN_STAT_DROP_SRC_UNTRANSLATABLE;
	if (tern_addr4_never_translated(x->a4[0]) ||
	    tern_addr4_never_translated(daddr))
		return TERN_STAT_DROP_SPECIAL4;
	if (tern_map_wkp_refuses(x->cfg, x->svia, x->a4[0]) ||
	    tern_map_wkp_refuses(x->cfg, x->dvia, daddr))
		return TERN_STAT_DROP_WKP_NONGLOBAL;
	/* Never a source the IPv4 side must take for a martian. */
	if (tern_addr4_is_host(x->inst, x->a4[0]))
		return TERN_STAT_DROP_SPECIAL4;
	return 0;
}

static bool tern_siit_error_dest_ok6(const struct tern_xlat *x)
{
	return !tern_addr4_never_translated(x->a4[1]) &&
	       !tern_map_wkp_refuses(x->cfg, x->dvia, x->a4[1]);
}

int tern_siit_dest4(struct tern_xlat *x, __be32 daddr)
{
	x->dvia = tern_siit_map4(x, daddr, &x->a6[1]);
	return x->dvia == TERN_VIA_NONE ? TERN_STAT_PASS_NO_MAPPING : 0;
}

/* The source, and the Well-Known Prefix rule for both addresses. */
int tern_siit_source4(struct tern_xlat *x, __be32 saddr, __be32 daddr)
{
	x->svia = tern_siit_map4(x, saddr, &x->a6[0]);
	if (x->svia == TERN_VIA_NONE)
		return TERN_STAT_DROP_SRC_UNTRANSLATABLE;
	if (tern_map_wkp_refuses(x->cfg, x->svia, saddr) ||
	    tern_map_wkp_refuses(x->cfg, x->dvia, daddr))
		return TERN_STAT_DROP_WKP_NONGLOBAL;
	return 0;
}

/*
 * An IPv4 address of the packet in error, mapped @via: the rules of a
 * normal packet's addresses apply (RFC 7915 4.1, 5.1): never one of RFC
 * 6890's never-translated addresses (RFC 7915 4.1's exception is for the
 * source of the error, not for the packet it quotes), and with strict-wkp
 * no non-global one under the Well-Known Prefix. The denylist4 rule is in
 * the mapping itself.
 */
static bool tern_siit_inner_ok(const struct tern_xlat *x, __be32 a4, int via)
{
	return via != TERN_VIA_NONE && !tern_addr4_never_translated(a4) &&
	       !tern_map_wkp_refuses(x->cfg, via, a4);
}

static bool tern_siit_inner6(const struct tern_xlat *x,
			     const struct in6_addr *s6,
			     const struct in6_addr *d6, __be32 *s4, __be32 *d4,
			     const struct tern_l4id *id, __be16 *nport)
{
	int svia = tern_map_6to4(x->cfg, s6, s4);
	int dvia = tern_map_6to4(x->cfg, d6, d4);

	return tern_siit_inner_ok(x, *s4, svia) &&
	       tern_siit_inner_ok(x, *d4, dvia);
}

static bool tern_siit_inner4(const struct tern_xlat *x, __be32 s4, __be32 d4,
			     struct in6_addr *s6, struct in6_addr *d6,
			     const struct tern_l4id *id, __be16 *nport)
{
	return tern_siit_inner_ok(x, s4, tern_siit_map4(x, s4, s6)) &&
	       tern_siit_inner_ok(x, d4, tern_siit_map4(x, d4, d6));
}

const struct tern_mode_ops tern_siit_mode = {
	.name = "siit",
	.dest6 = tern_siit_dest6,
	.source6 = tern_siit_source6,
	.error_dest_ok6 = tern_siit_error_dest_ok6,
	.hairpins = tern_siit_hairpins,
	.hairpin_prepare = tern_siit_hairpin_prepare,
	.dest4 = tern_siit_dest4,
	.source4 = tern_siit_source4,
	.inner6 = tern_siit_inner6,
	.inner4 = tern_siit_inner4,
};

/* The SIIT parts of any instance (a NAT64 one may hold them too). */
static void tern_siit_release(struct tern_instance *inst)
{
	tern_eamt_free_rcu(rcu_dereference_protected(inst->eamt, true));
	tern_deny4_free_rcu(rcu_dereference_protected(inst->deny4, true));
}

static const struct tern_life_ops tern_siit_life = {
	.release = tern_siit_release,
};

int tern_siit_init(void)
{
	return tern_mode_register(TERN_TYPE_SIIT, &tern_siit_life);
}

void tern_siit_exit(void)
{
	tern_mode_unregister(TERN_TYPE_SIIT);
}
