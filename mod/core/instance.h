/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_INSTANCE_H
#define _TERN_INSTANCE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include "core/inst.h"

struct netlink_ext_ack;

/* Most instances in a network namespace. */
#define TERN_MAX_INSTANCES	4096

/* Longest formatted extack message, NUL included (as Linux 6.3+). */
#define TERN_EXTACK_LEN	80

/* Per network namespace state. */
struct tern_net {
	struct mutex lock;		/* instances list and config updates */
	struct list_head instances;
	struct list_head dying;		/* the namespace's, between its exits */
	unsigned int gen;		/* bumped on every list change */
	unsigned int count;		/* instances on the list */
	unsigned int tables_gen;	/* bumped on every EAMT/denylist4/pool4 change */
#ifndef NL_SET_ERR_MSG_FMT
	/* Formatted extack messages (see tern_extack_fmt()). */
	char msg[8][TERN_EXTACK_LEN];
	unsigned int msg_next;
#endif
};

struct tern_net *tern_net(struct net *net);

void tern_config_defaults(struct tern_config *cfg);

struct tern_instance *tern_instance_find(struct tern_net *tn, const char *name,
					 struct netlink_ext_ack *extack);
int tern_instance_add(struct net *net, const char *name, u8 type, u8 framework,
		      const struct tern_config *cfg,
		      struct netlink_ext_ack *extack);
void tern_instance_del(struct tern_instance *inst);
/*
 * Takes @inst off the namespace's list onto @gone; tern_instances_del()
 * then removes all of @gone with one grace period (a request that removes
 * many waits for one, not one each). Under the namespace's lock.
 */
void tern_instance_unlist(struct tern_instance *inst, struct list_head *gone);
void tern_instances_del(struct list_head *gone);
/*
 * Publishes @cfg (allocated, taken over) as @inst's configuration, naming
 * the tables @inst has now; the old copy is freed after a grace period.
 * Under the namespace's lock.
 */
void tern_instance_set_config(struct tern_instance *inst,
			      struct tern_config *cfg);
/*
 * A copy of @inst's configuration to publish again (with a table just
 * replaced: after rcu_replace_pointer(), before the old table is freed);
 * NULL without memory. Under the namespace's lock.
 */
struct tern_config *tern_instance_config_dup(struct tern_instance *inst);

int tern_instance_init(void);
void tern_instance_exit(void);

#endif /* _TERN_INSTANCE_H */
