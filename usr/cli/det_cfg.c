// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the shapes of tern det lookup (include/tern_det.h), per
 * protocol, from an instance of a configuration file or of the running
 * configuration, checked as tern.ko checks them; with box-count, each
 * box's share of them (include/tern_share.h).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_int.h"
#include "det.h"
#include "output.h"
#include "tables.h"
#include "tern.h"
#include "tern_globals.h"
#include "tern_share.h"

void det_cfg_free(struct det_cfg *c)
{
	size_t i;

	for (i = 0; i < POOL4_PROTOS; i++)
		free(c->p[i].addrs);
}

/* A global's value in @globals, else its default. */
static int64_t det_global(struct json_object *globals, const char *key)
{
	const struct tern_global_meta *g;
	struct json_object *v;

	if (globals && json_object_object_get_ex(globals, key, &v) &&
	    json_object_is_type(v, json_type_int))
		return json_object_get_int64(v);
	for (g = tern_globals; g->key && strcmp(g->key, key); g++)
		;
	return g->key ? g->def : 0;
}

static int det_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Adds the addresses of @p to protocol @k, whose range must be @pmin-@pmax. */
static int det_add(struct det_cfg *c, size_t k, const struct tern_prefix *p,
		   uint16_t pmin, uint16_t pmax)
{
	struct det_proto *dp = &c->p[k];
	uint64_t a, first = ntohl(p->addr.v4.s_addr), size;
	int err;

	if (dp->present && (dp->d.pmin != pmin || dp->d.pmax != pmax))
		return tern_fail("deterministic mode: %s pool4 ports %u-%u and %u-%u differ",
				 pool4_protos[k].name, dp->d.pmin, dp->d.pmax,
				 pmin, pmax);
	dp->present = true;
	dp->d.pmin = pmin;
	dp->d.pmax = pmax;
	size = 1ULL << (32 - p->len);
	if (dp->n + size > 65536)
		return tern_fail("pool4 would hold more than 65536 addresses");
	for (a = first; a < first + size; a++) {
		err = table_room((void **)&dp->addrs, dp->n, &dp->cap,
				 sizeof(uint32_t));
		if (err)
			return err;
		dp->addrs[dp->n++] = a;
	}
	return TERN_EXIT_OK;
}

/* One entry of the instance's pool4 (docs/config.md). */
static int det_pool4_entry(struct det_cfg *c, struct json_object *o)
{
	struct json_object *v, *protos = NULL, *ports = NULL, *mark = NULL;
	uint16_t pmin = 0, pmax = 0;
	struct tern_prefix p;
	size_t k, j;
	int err;

	if (!json_object_object_get_ex(o, "prefix", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    prefix_parse_any(json_object_get_string(v), true, &p) < 0 ||
	    p.family != AF_INET)
		return tern_fail("instance \"%s\": a pool4 entry without a valid prefix",
				 c->name);
	json_object_object_get_ex(o, "protocols", &protos);
	json_object_object_get_ex(o, "ports", &ports);
	json_object_object_get_ex(o, "mark", &mark);
	if (mark && json_object_get_int64(mark))
		return tern_fail("deterministic mode: pool4 entries of mark 0 only (not %lld)",
				 (long long)json_object_get_int64(mark));
	if (ports && cfg_ports_of(ports, &pmin, &pmax) < 0)
		return tern_fail("instance \"%s\": pool4 \"ports\" is \"MIN-MAX\" or a port",
				 c->name);
	for (k = 0; k < POOL4_PROTOS; k++) {
		bool in = !protos;

		for (j = 0; protos && j < json_object_array_length(protos); j++)
			in |= !strcmp(json_object_get_string(
				json_object_array_get_idx(protos, j)),
				pool4_protos[k].name);
		if (!in)
			continue;
		err = det_add(c, k, &p, ports ? pmin : pool4_protos[k].pmin,
			      ports ? pmax : 65535);
		if (err)
			return err;
	}
	return TERN_EXIT_OK;
}

int det_cfg_read(struct det_cfg *c, struct json_object *inst)
{
	struct json_object *g = NULL, *v, *pool = NULL;
	struct det_proto *dp;
	int64_t boxes, box;
	size_t i, j, k;
	int err;

	json_object_object_get_ex(inst, "globals", &g);
	if (!g || !json_object_object_get_ex(g, "det-space", &v) ||
	    !json_object_is_type(v, json_type_string))
		return tern_fail("instance \"%s\": deterministic mode is off (no det-space)",
				 c->name);
	if (prefix6_parse(json_object_get_string(v), &c->space) < 0)
		return tern_fail("instance \"%s\": invalid det-space", c->name);
	json_object_object_get_ex(inst, "pool4", &pool);
	for (i = 0; pool && i < json_object_array_length(pool); i++) {
		err = det_pool4_entry(c, json_object_array_get_idx(pool, i));
		if (err)
			return err;
	}
	boxes = det_global(g, "box-count");
	box = det_global(g, "box-index");
	if (boxes < 1 || boxes > TERN_BOXES_MAX)
		return tern_fail("instance \"%s\": box-count is 1 to %u",
				 c->name, TERN_BOXES_MAX);
	if (box < 0 || box >= boxes)
		return tern_fail("box-index %lld is not below box-count %lld",
				 (long long)box, (long long)boxes);
	c->boxes = boxes;
	for (k = 0; k < POOL4_PROTOS; k++) {
		struct tern_det_shape d;

		dp = &c->p[k];
		dp->d.space_len = c->space.len;
		dp->d.sub_len = det_global(g, "subscriber-prefix-len");
		dp->d.block = det_global(g, "det-block-size");
		if (!dp->present)
			continue;
		qsort(dp->addrs, dp->n, sizeof(uint32_t), det_cmp);
		for (i = 0, j = 0; i < dp->n; i++)
			if (!j || dp->addrs[i] != dp->addrs[j - 1])
				dp->addrs[j++] = dp->addrs[i];
		dp->n = j;
		dp->d.n_addrs = j;
		if (j < c->boxes)
			return tern_fail("box-count %u > %zu %s pool4 addresses (mark 0): a box gets none",
					 c->boxes, j, pool4_protos[k].name);
		/* Every box holds every subscriber: the smallest share does. */
		d = dp->d;
		d.n_addrs = tern_share_min(j, c->boxes);
		switch (tern_det_check(&d)) {
		case TERN_DET_OK:
			break;
		case TERN_DET_E_LEN:
			return tern_fail("det-space /%u, subscriber-prefix-len %u: need 0 to 32 bits",
					 d.space_len, d.sub_len);
		case TERN_DET_E_BLOCK:
			return tern_fail("det-block-size %u is more than the %u %s ports",
					 d.block, tern_det_ports(&d),
					 pool4_protos[k].name);
		default:
			return tern_fail("det: %llu subscribers > %s%s: %u addrs x %u blocks of %u",
					 (unsigned long long)tern_det_subs(&d),
					 pool4_protos[k].name,
					 c->boxes > 1 ? " box" : "", d.n_addrs,
					 tern_det_blocks(&d), tern_det_block(&d));
		}
	}
	return TERN_EXIT_OK;
}

void det_box_shape(const struct det_cfg *c, const struct det_proto *dp,
		   uint32_t box, struct tern_det_shape *d, uint32_t *base)
{
	*d = dp->d;
	*base = tern_share_first(dp->n, c->boxes, box);
	d->n_addrs = tern_share_size(dp->n, c->boxes, box);
}

struct json_object *det_instance(struct json_object *root, const char *name,
				 const char *src)
{
	struct json_object *insts, *o, *v, *g, *found = NULL;
	size_t i, n = 0;

	if (!json_object_object_get_ex(root, "instances", &insts) ||
	    !json_object_is_type(insts, json_type_array)) {
		tern_fail("%s: no \"instances\" array", src);
		return NULL;
	}
	for (i = 0; i < json_object_array_length(insts); i++) {
		o = json_object_array_get_idx(insts, i);
		if (!json_object_object_get_ex(o, "name", &v))
			continue;
		if (name) {
			if (!strcmp(json_object_get_string(v), name))
				return o;
			continue;
		}
		if (json_object_object_get_ex(o, "globals", &g) &&
		    json_object_object_get_ex(g, "det-space", &v) &&
		    json_object_is_type(v, json_type_string)) {
			found = o;
			n++;
		}
	}
	if (name)
		tern_fail("%s: no instance \"%s\"", src, name);
	else if (!n)
		tern_fail("%s: no instance has det-space", src);
	else if (n > 1)
		tern_usage("%s: several instances have det-space: name one (-i)",
			   src);
	return n == 1 ? found : NULL;
}

