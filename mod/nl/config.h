/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TERN_CMD_CONFIG_APPLY: the whole configuration of a namespace as one
 * transaction. nl/config.c reads the request and builds every table off
 * to the side (no lock); nl/config_commit.c checks it against the running
 * state and swaps it in under the namespace's lock.
 */
#ifndef _TERN_NL_CONFIG_H
#define _TERN_NL_CONFIG_H

#include <net/genetlink.h>
#include "nat64/table.h"

struct tern_net;
struct tern_config;
struct tern_eam;
struct tern_eamt;
struct tern_deny4;
struct tern_pool4;
struct tern_pool4_entry;
struct tern_prefix4;
struct tern_instance;

/* A static BIB entry of the request. */
struct tern_cfg_bib {
	struct tern_ta6 t6;
	struct tern_ta4 t4;
	u8 l4;
};

/* The entries of one list of an instance, with their attributes. */
struct tern_cfg_list {
	void *v;
	const struct nlattr **nla;
	u32 n;
};

/* One instance of the request. */
struct tern_cfg_inst {
	const struct nlattr *nla;	/* its TERN_A_CONFIG */
	const char *name;
	u8 type, framework;
	struct tern_config *cfg;
	struct tern_cfg_list eam, deny, pool4, bib;
	u32 *bib_by6;			/* bib.v indexes by (l4, t6) */
	/* Built; NULL once published (or empty). */
	struct tern_eamt *eamt;
	struct tern_deny4 *deny4;
	struct tern_pool4 *pool4t;
	/* Under the lock: the instance kept, or NULL (created). */
	struct tern_instance *inst;
	struct tern_instance *replaced;	/* same name, other type: removed */
	bool created;			/* by this request, undone on error */
};

struct tern_cfg {
	struct tern_cfg_inst *v;
	u32 n;
};

/*
 * tern_extack_fmt() outside the namespace's lock (the request is read
 * and built without it): its message slots are under that lock.
 */
#define tern_cfg_fmt(net, extack, fmt, ...)				\
	do {								\
		struct tern_net *__tn = tern_net(net);			\
									\
		mutex_lock(&__tn->lock);				\
		tern_extack_fmt(__tn, extack, fmt, ##__VA_ARGS__);	\
		mutex_unlock(&__tn->lock);				\
	} while (0)

/* Points the extack at @nla unless a more precise attribute is named. */
int tern_cfg_err(struct netlink_ext_ack *extack, const struct nlattr *nla,
		 int ret);
/* nl/config_build.c: names, frameworks; the tables built. */
int tern_cfg_check(struct net *net, struct tern_cfg *c,
		   struct netlink_ext_ack *extack);
int tern_cfg_build(struct net *net, struct tern_cfg *c,
		   struct netlink_ext_ack *extack);

/* Reads and builds everything of the request (no lock); frees on error. */
int tern_cfg_read(struct genl_info *info, struct tern_cfg *c);
void tern_cfg_free(struct tern_cfg *c);
/* Checks @c against the running state and swaps it in, under tn->lock. */
int tern_cfg_commit(struct tern_net *tn, struct net *net, struct tern_cfg *c,
		    struct netlink_ext_ack *extack);
/* The file's entry of (@l4, @t6), or -1. */
int tern_cfg_bib_find6(const struct tern_cfg_inst *ci, u8 l4,
		       const struct tern_ta6 *t6);

#endif /* _TERN_NL_CONFIG_H */
