/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_EVENTS_H
#define _TERN_NAT64_EVENTS_H

/*
 * NAT64 events (nat64/events.c): the callbacks of struct tern_table_events,
 * @arg the struct tern_instance.
 */

#include "nat64/blocks.h"
#include "nat64/table.h"

struct tern_instance;

void tern_nat64_ev_bib(void *arg, const struct tern_bib *b, bool add);
void tern_nat64_ev_sess(void *arg, const struct tern_session *s, bool add);
/* A port block given (@add) or returned (nat64/blocks.h). */
void tern_nat64_ev_block(struct tern_instance *inst,
			 const struct tern_blk_info *bi, bool add);

#endif /* _TERN_NAT64_EVENTS_H */
