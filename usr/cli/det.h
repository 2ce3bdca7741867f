/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the det command's files share (det.c the lookups,
 * det_cfg.c the shapes read from a configuration).
 */
#ifndef TERN_CLI_DET_H
#define TERN_CLI_DET_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool4.h"
#include "prefix.h"
#include "tern_det.h"

/* One protocol: its pool4 addresses of mark 0, ascending, distinct. */
struct det_proto {
	bool present;
	struct tern_det_shape d;	/* over all the addresses */
	uint32_t *addrs;		/* host order */
	size_t n, cap;
};

struct det_cfg {
	const char *name;
	struct tern_prefix space;
	uint32_t boxes;			/* box-count */
	struct det_proto p[POOL4_PROTOS];
};

void det_cfg_free(struct det_cfg *c);
/* The shapes of instance @inst, checked as tern.ko checks them. */
int det_cfg_read(struct det_cfg *c, struct json_object *inst);
/* The instance named @name, else the only one with a det-space. */
struct json_object *det_instance(struct json_object *root, const char *name,
				 const char *src);
/*
 * The shape of @dp on box @box (include/tern_share.h): its share of the
 * addresses, from @dp->addrs[*@base] on.
 */
void det_box_shape(const struct det_cfg *c, const struct det_proto *dp,
		   uint32_t box, struct tern_det_shape *d, uint32_t *base);

#endif /* TERN_CLI_DET_H */
