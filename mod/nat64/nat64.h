/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_H
#define _TERN_NAT64_H

/*
 * The state of a NAT64 instance (RFC 6146) beside its settings: the
 * BIB/session tables, the key of its port selection, its expiry worker.
 * Created with the instance, destroyed after its hooks are gone and
 * packets in flight are done.
 */

#include <linux/siphash.h>
#include <linux/workqueue.h>
#include "core/instance.h"
#include "nat64/blocks.h"
#include "nat64/synstore.h"
#include "nat64/table.h"

struct tern_nat64 {
	struct tern_tables *tables;
	struct tern_blocks *blocks;	/* port-block-size (nat64/blocks.c) */
	siphash_key_t port_key;		/* RFC 6056: per instance, random */
	u32 auto_max_sessions;		/* max-sessions 0 means this */
	struct delayed_work gc;
	struct tern_table_events events;	/* to nat64/events.c */
	struct tern_synstore syns;	/* RFC 6146 3.5.2.2 */
	bool defrag4, defrag6;
	struct net *net;
};

int tern_nat64_create(struct tern_instance *inst,
		      struct netlink_ext_ack *extack);
/*
 * The instance's settings changed (published, under tn->lock): the tables
 * follow max-sessions (tern_tables_resize()). May sleep.
 */
void tern_nat64_config_changed(struct tern_instance *inst);
/* After the hooks are unregistered and synchronize_net(). */
void tern_nat64_destroy(struct tern_instance *inst);

static inline struct tern_tables *
tern_nat64_tables(const struct tern_instance *inst)
{
	return inst->nat64 ? inst->nat64->tables : NULL;
}

/*
 * Module init/exit: the tables' caches, the mode's part in the life of
 * an instance (core/instance.h).
 */
int tern_nat64_init(void);
void tern_nat64_exit(void);

/* The limits in force under @cfg. */
void tern_nat64_limits(const struct tern_instance *inst,
		       const struct tern_config *cfg, struct tern_limits *lim);

#endif /* _TERN_NAT64_H */
