// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern config show, the running configuration of the namespace
 * in the format tern config apply reads (docs/config.md): each instance
 * with every global setting but pool6 (an instance key), for SIIT its
 * EAMT and denylist4, for NAT64 its pool4 and static BIB entries. Read with one
 * request per object: a change made meanwhile may show half.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "config_int.h"
#include "nat64.h"
#include "nl.h"
#include "output.h"
#include "pool4.h"
#include "prefix.h"
#include "tables.h"
#include "tern.h"
#include "tern_globals.h"
#include "values.h"

/* @v (NULL: out of memory) under @key of @o, or freed. */
static int add(struct json_object *o, const char *key, struct json_object *v)
{
	if (v && !json_object_object_add(o, key, v))
		return TERN_EXIT_OK;
	json_object_put(v);
	return tern_fail("out of memory");
}

/* @v (NULL: out of memory) at the end of @a, or freed. */
static int push(struct json_object *a, struct json_object *v)
{
	if (v && !json_object_array_add(a, v))
		return TERN_EXIT_OK;
	json_object_put(v);
	return tern_fail("out of memory");
}

static int malformed(void)
{
	return tern_fail("malformed reply from the kernel");
}

/* The prefix @a (named @what) as a JSON string in *@v. */
static int prefix_json(struct nlattr *a, const char *what,
		       struct json_object **v)
{
	char buf[PREFIX_STRLEN];
	struct tern_prefix p;

	*v = NULL;
	if (!a || prefix_get(a, &p) < 0)
		return tern_fail("malformed reply from the kernel: bad %s", what);
	*v = json_object_new_string(prefix_str(&p, buf));
	return *v ? TERN_EXIT_OK : tern_fail("out of memory");
}

static int add_prefix(struct json_object *o, const char *key, struct nlattr *a)
{
	struct json_object *v;

	return prefix_json(a, key, &v) ?: add(o, key, v);
}

/* An instance of the dump: its object, appended to the array @arg. */
static int inst_reply(struct nlattr **tb, void *arg)
{
	const char *name, *type, *fw;
	struct json_object *o;
	int err;

	if (!tb[TERN_A_INSTANCE])
		return malformed();
	/* A name iptables rules use without an instance: not configured. */
	if (!tb[TERN_A_TYPE] && !tb[TERN_A_FRAMEWORK])
		return TERN_EXIT_OK;
	if (!tb[TERN_A_TYPE] || !tb[TERN_A_FRAMEWORK])
		return malformed();
	name = nla_get_string(tb[TERN_A_INSTANCE]);
	/* A value of a newer module: no file could say it. */
	type = tern_type_name(nla_get_u8(tb[TERN_A_TYPE]));
	if (!type)
		return tern_fail("instance \"%s\" has type %u, which this CLI does not know (install the tern CLI that comes with the module)",
				 name, nla_get_u8(tb[TERN_A_TYPE]));
	fw = tern_fw_name(nla_get_u8(tb[TERN_A_FRAMEWORK]));
	if (!fw)
		return tern_fail("instance \"%s\" has framework %u, which this CLI does not know (install the tern CLI that comes with the module)",
				 name, nla_get_u8(tb[TERN_A_FRAMEWORK]));
	o = json_object_new_object();
	err = push(arg, o);
	if (!err)
		err = add(o, "name", json_object_new_string(name));
	if (!err)
		err = add(o, "type", json_object_new_string(type));
	if (!err)
		err = add(o, "framework", json_object_new_string(fw));
	if (!err && tb[TERN_A_POOL6])
		err = add_prefix(o, "pool6", tb[TERN_A_POOL6]);
	return err;
}

/* The value of global @g in *@v (NULL: json-c's null, an unset prefix). */
static int global_json(const struct tern_global_meta *g, struct nlattr *a,
		       struct json_object **v)
{
	uint16_t p;
	int i;

	*v = NULL;
	switch (g->kind) {
	case TERN_KIND_BOOL:
		*v = json_object_new_boolean(nla_get_u8(a));
		break;
	case TERN_KIND_U8:
		*v = json_object_new_int(nla_get_u8(a));
		break;
	case TERN_KIND_U32:
		*v = json_object_new_int64(nla_get_u32(a));
		break;
	case TERN_KIND_HAIRPIN:
		if (nla_get_u8(a) < N_HAIRPIN_MODES)
			*v = json_object_new_string(hairpin_modes[nla_get_u8(a)]);
		else
			*v = json_object_new_int(nla_get_u8(a));
		break;
	case TERN_KIND_PREFIX4_OPT:
	case TERN_KIND_PREFIX6_OPT:
		if (!nla_len(a))
			return TERN_EXIT_OK;
		/* fall through */
	case TERN_KIND_PREFIX6:
		return prefix_json(a, g->key, v);
	case TERN_KIND_PLATEAUS:
		*v = json_object_new_array();
		for (i = 0; *v && i + 2 <= nla_len(a); i += 2) {
			memcpy(&p, (char *)nla_data(a) + i, 2);
			if (push(*v, json_object_new_int(p))) {
				json_object_put(*v);
				*v = NULL;
				return TERN_EXIT_FAIL;
			}
		}
		break;
	default:
		return tern_fail("malformed reply from the kernel: bad %s",
				 g->key);
	}
	return *v ? TERN_EXIT_OK : tern_fail("out of memory");
}

static int globals_reply(struct nlattr **tb, void *arg)
{
	struct nla_policy policy[TERN_G_MAX + 1];
	struct nlattr *a[TERN_G_MAX + 1];
	const struct tern_global_meta *g;
	struct json_object *o = arg, *v;
	int err;

	memset(policy, 0, sizeof(policy));
	for (g = tern_globals; g->key; g++)
		policy[g->attr].type = gkind_of(g)->nla_type;
	if (!tb[TERN_A_GLOBALS] ||
	    nla_parse_nested(a, TERN_G_MAX, tb[TERN_A_GLOBALS], policy) < 0)
		return malformed();
	for (g = tern_globals; g->key; g++) {
		if (!a[g->attr] || g->attr == TERN_G_POOL6)
			continue;
		err = global_json(g, a[g->attr], &v);
		if (err)
			return err;
		/* json-c's null is NULL: an unset prefix is added as such. */
		if (json_object_object_add(o, g->key, v)) {
			json_object_put(v);
			return tern_fail("out of memory");
		}
	}
	return TERN_EXIT_OK;
}

static int eamt_reply(struct nlattr **tb, void *arg)
{
	struct nlattr *e[TERN_EAM_MAX + 1];
	struct json_object *o;
	int err;

	if (!tb[TERN_A_EAM] ||
	    nla_parse_nested(e, TERN_EAM_MAX, tb[TERN_A_EAM], NULL) < 0)
		return malformed();
	o = json_object_new_object();
	err = push(arg, o);
	if (!err)
		err = add_prefix(o, "prefix6", e[TERN_EAM_PREFIX6]);
	if (!err)
		err = add_prefix(o, "prefix4", e[TERN_EAM_PREFIX4]);
	if (!err && e[TERN_EAM_FORCE])
		err = add(o, "force", json_object_new_boolean(1));
	return err;
}

static int deny_reply(struct nlattr **tb, void *arg)
{
	struct json_object *v;

	return prefix_json(tb[TERN_A_PREFIX4], "denylist4 prefix", &v) ?:
	       push(arg, v);
}

static int bib_reply(struct nlattr **tb, void *arg)
{
	char a6[TADDR_STRLEN], a4[TADDR_STRLEN];
	struct nat64_bib b;
	struct json_object *o;
	int err;

	if (nat64_bib_parse(tb[TERN_A_BIB], &b) < 0)
		return malformed();
	if (!b.is_static)
		return TERN_EXIT_OK;
	o = json_object_new_object();
	err = push(arg, o);
	if (!err)
		err = add(o, "protocol", json_object_new_string(proto_name(b.proto)));
	if (!err)
		err = add(o, "ipv6", json_object_new_string(taddr_str(&b.t6, a6)));
	if (!err)
		err = add(o, "ipv4", json_object_new_string(taddr_str(&b.t4, a4)));
	return err;
}

static int pool4_json(struct json_object *arr, const struct pool4_list *l)
{
	struct json_object *o, *protos;
	char ports[16];
	size_t i;
	int err = TERN_EXIT_OK;

	for (i = 0; i < l->n && !err; i++) {
		o = json_object_new_object();
		err = push(arr, o);
		if (!err)
			err = add(o, "prefix", json_object_new_string(l->v[i].prefix));
		if (!err) {
			protos = json_object_new_array();
			err = add(o, "protocols", protos);
		}
		if (!err)
			err = push(protos, json_object_new_string(pool4_protos[l->v[i].i].name));
		snprintf(ports, sizeof(ports), "%u-%u", l->v[i].pmin, l->v[i].pmax);
		if (!err)
			err = add(o, "ports", json_object_new_string(ports));
		if (!err)
			err = add(o, "mark", json_object_new_int64(l->v[i].mark));
	}
	return err;
}

/* One list of @o under @key, from the dump @cmd of instance @name. */
static int list(struct json_object *o, const char *key, const char *name,
		uint8_t cmd, tern_nl_reply_fn fn)
{
	struct json_object *arr = json_object_new_array();
	int err = add(o, key, arr);

	return err ?: tern_nl_request(cmd, true, name, NULL, NULL, fn, arr);
}

/*
 * The static BIB entries, whole: the kernel lists them alone, in an order
 * the dynamic entries of traffic do not disturb, and says if static ones
 * changed meanwhile (then: try again), so a busy table never leaves one
 * out of the file or in it twice.
 */
static int static_bib(struct json_object *o, const char *name)
{
	static const struct nat64_filter only_static = { .only_static = true };
	struct json_object *arr = json_object_new_array();
	int err = add(o, "bib", arr);

	return err ?: tern_nl_dump_whole(TERN_CMD_BIB_GET, name,
					 nat64_put_filter, &only_static,
					 bib_reply, arr);
}

static int show_instance(struct json_object *o)
{
	struct json_object *v, *g = json_object_new_object();
	struct pool4_list pl = { 0 };
	const char *name;
	int err;

	json_object_object_get_ex(o, "name", &v);
	name = json_object_get_string(v);
	err = add(o, "globals", g);
	if (!err)
		err = tern_nl_request(TERN_CMD_GLOBAL_GET, false, name, NULL,
				      NULL, globals_reply, g);
	json_object_object_get_ex(o, "type", &v);
	/* An instance has the lists of its type only. */
	if (!err && strcmp(json_object_get_string(v), "nat64")) {
		err = list(o, "eamt", name, TERN_CMD_EAMT_GET, eamt_reply);
		return err ?: list(o, "denylist4", name, TERN_CMD_DENY4_GET,
				   deny_reply);
	}
	if (err)
		return err;
	err = tern_nl_request(TERN_CMD_POOL4_GET, true, name, NULL, NULL,
			      pool4_list_reply, &pl);
	if (!err) {
		v = json_object_new_array();
		err = add(o, "pool4", v) ?: pool4_json(v, &pl);
	}
	free(pl.v);
	return err ?: static_bib(o, name);
}

struct json_object *cfg_running(int *status)
{
	struct json_object *root = json_object_new_object();
	struct json_object *insts = json_object_new_array();
	size_t i;
	int err;

	err = add(root, "instances", insts);
	if (!err)
		err = tern_nl_request(TERN_CMD_INSTANCE_GET, true, NULL, NULL,
				      NULL, inst_reply, insts);
	for (i = 0; !err && i < json_object_array_length(insts); i++)
		err = show_instance(json_object_array_get_idx(insts, i));
	*status = err;
	if (!err)
		return root;
	json_object_put(root);
	return NULL;
}

int cfg_show(void)
{
	struct json_object *root;
	int err;

	root = cfg_running(&err);
	if (!root)
		return err;
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return TERN_EXIT_OK;
}
