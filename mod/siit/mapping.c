// SPDX-License-Identifier: GPL-2.0
/*
 * Address mapping of SIIT: which IPv4 address an IPv6 address becomes and
 * back. The EAMT (RFC 7757) comes first; pool6 (RFC 6052) maps what it
 * does not cover, except IPv4 addresses in denylist4.
 */

#include "siit/denylist4.h"
#include "siit/mapping.h"

/*
 * The tables are the ones @cfg names (struct tern_config): a packet sees
 * those of one configuration. An empty table (NULL) is answered here,
 * without a call: every packet asks.
 */
static const struct tern_eam *tern_eam6(const struct tern_config *cfg,
					const struct in6_addr *a6)
{
	return cfg->eamt ? tern_eamt_find6(cfg->eamt, a6) : NULL;
}

static const struct tern_eam *tern_eam4(const struct tern_config *cfg,
					__be32 a4)
{
	return cfg->eamt ? tern_eamt_find4(cfg->eamt, a4) : NULL;
}

static bool tern_denied4(const struct tern_config *cfg, __be32 a4)
{
	return cfg->deny4 && tern_deny4_contains(cfg->deny4, a4);
}

bool tern_map_eamt_covers4(const struct tern_config *cfg, __be32 a4)
{
	return tern_eam4(cfg, a4);
}

/* pool6 alone; TERN_WHY_NONE when it maps @a6 to *@a4. */
static int tern_pool6_6to4(const struct tern_config *cfg,
			   const struct in6_addr *a6, __be32 *a4)
{
	__be32 tmp;

	if (!cfg->pool6_set || !tern_rfc6052_6to4(&cfg->pool6, a6, &tmp))
		return TERN_WHY_NO_MAPPING;
	if (tern_denied4(cfg, tmp))
		return TERN_WHY_DENYLIST4;
	*a4 = tmp;
	return TERN_WHY_NONE;
}

static int tern_pool6_4to6(const struct tern_config *cfg, __be32 a4,
			   struct in6_addr *a6)
{
	if (!cfg->pool6_set)
		return TERN_WHY_NO_MAPPING;
	if (tern_denied4(cfg, a4))
		return TERN_WHY_DENYLIST4;
	tern_rfc6052_4to6(&cfg->pool6, a4, a6);
	return TERN_WHY_NONE;
}

int tern_map_6to4(const struct tern_config *cfg, const struct in6_addr *a6,
		  __be32 *a4)
{
	const struct tern_eam *e = tern_eam6(cfg, a6);

	if (e) {
		tern_eam_6to4(e, a6, a4);
		return TERN_VIA_EAMT;
	}
	if (tern_pool6_6to4(cfg, a6, a4) == TERN_WHY_NONE)
		return TERN_VIA_POOL6;
	return TERN_VIA_NONE;
}

int tern_map_4to6_by(const struct tern_config *cfg, __be32 a4,
		     struct in6_addr *a6, const __be32 *by_pool6,
		     unsigned int n)
{
	const struct tern_eam *e = tern_eam4(cfg, a4);
	unsigned int i;

	/* An intrinsically hairpinned packet's source goes back by pool6. */
	for (i = 0; e && i < n; i++)
		if (by_pool6[i] == a4)
			e = NULL;
	if (e) {
		tern_eam_4to6(e, a4, a6);
		return TERN_VIA_EAMT;
	}
	if (tern_pool6_4to6(cfg, a4, a6) == TERN_WHY_NONE)
		return TERN_VIA_POOL6;
	return TERN_VIA_NONE;
}

int tern_map_4to6(const struct tern_config *cfg, __be32 a4,
		  struct in6_addr *a6)
{
	return tern_map_4to6_by(cfg, a4, a6, NULL, 0);
}

static void tern_answer_none(struct tern_map_answer *ans, u8 why)
{
	memset(ans, 0, sizeof(*ans));
	ans->via = TERN_VIA_NONE;
	ans->why = why;
}

/* The checks both directions of the packet path make on a mapped pair. */
static bool tern_refused4(const struct tern_config *cfg, __be32 a4, u8 via,
			  struct tern_map_answer *ans)
{
	if (tern_addr4_never_translated(a4)) {
		tern_answer_none(ans, TERN_WHY_SPECIAL4);
		return true;
	}
	if (tern_map_wkp_refuses(cfg, via, a4)) {
		tern_answer_none(ans, TERN_WHY_WKP_NONGLOBAL);
		return true;
	}
	return false;
}

void tern_map_explain6(const struct tern_config *cfg, const struct in6_addr *a6,
		       struct tern_map_answer *ans)
{
	const struct tern_eam *e = tern_eam6(cfg, a6);
	__be32 a4;
	int why;

	memset(ans, 0, sizeof(*ans));
	if (e) {
		tern_eam_6to4(e, a6, &a4);
		ans->via = TERN_VIA_EAMT;
		ans->eam = *e;
	} else {
		why = tern_pool6_6to4(cfg, a6, &a4);
		if (why != TERN_WHY_NONE) {
			tern_answer_none(ans, why);
			return;
		}
		ans->via = TERN_VIA_POOL6;
	}
	if (!tern_refused4(cfg, a4, ans->via, ans))
		ans->out.a4 = a4;
}

void tern_map_explain4(const struct tern_config *cfg, __be32 a4,
		       struct tern_map_answer *ans)
{
	const struct tern_eam *e;
	int why;

	memset(ans, 0, sizeof(*ans));
	/* The IPv4 packet path checks these before any mapping. */
	if (tern_addr4_never_translated(a4)) {
		tern_answer_none(ans, TERN_WHY_SPECIAL4);
		return;
	}
	e = tern_eam4(cfg, a4);
	if (e) {
		tern_eam_4to6(e, a4, &ans->out.a6);
		ans->via = TERN_VIA_EAMT;
		ans->eam = *e;
		return;
	}
	why = tern_pool6_4to6(cfg, a4, &ans->out.a6);
	if (why != TERN_WHY_NONE) {
		tern_answer_none(ans, why);
		return;
	}
	ans->via = TERN_VIA_POOL6;
	tern_refused4(cfg, a4, ans->via, ans);
}
