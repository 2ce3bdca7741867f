/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_XT_H
#define _TERN_XT_H

#include <linux/types.h>
#include "tern_genl.h"

struct net;
struct tern_instance;

/* What `tern instance list` shows of the rules naming an instance. */
struct tern_xt_status {
	char name[TERN_INSTANCE_NAMSIZ];
	u32 rules;		/* TERN target entries naming it */
	u64 missed;		/* packets they passed: no iptables instance */
};

/* iptables instances: published in (and withdrawn from) their slot. */
int tern_xt_bind(struct tern_instance *inst);
void tern_xt_unbind(struct tern_instance *inst);

bool tern_xt_status(struct net *net, const char *name,
		    struct tern_xt_status *st);
int tern_xt_slot_at(struct net *net, unsigned long idx,
		    struct tern_xt_status *st);
unsigned int tern_xt_gen(struct net *net);

/* The slots (per namespace), then the targets: registered last. */
int tern_xt_init(void);
int tern_xt_register(void);
void tern_xt_unregister(void);
void tern_xt_exit(void);

#endif /* _TERN_XT_H */
