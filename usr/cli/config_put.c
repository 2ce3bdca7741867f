// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the instances of a configuration file (docs/config.md) as
 * TERN_CMD_CONFIG_APPLY attributes, each recorded with the line it came
 * from so that the kernel's errors can name it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "config_int.h"
#include "nat64.h"
#include "output.h"
#include "pool4.h"
#include "prefix.h"
#include "tern.h"
#include "tern_globals.h"
#include "values.h"

int cfg_bad(const struct put_ctx *c, struct json_object *o, const char *fmt,
	    ...)
{
	char where[160], *msg;
	va_list ap;
	int n, r;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = n < 0 ? NULL : malloc(n + 1);
	if (!msg)
		return tern_fail("out of memory");
	va_start(ap, fmt);
	vsnprintf(msg, n + 1, fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), "%s%s%s", c->what,
		 c->entry[0] ? ": " : "", c->entry);
	/* A null value, or one under a key with an escape: no line known. */
	if (!cfg_line(o))
		r = tern_fail("%s: %s: %s", c->file, where, msg);
	else
		r = tern_fail("%s:%d: %s: %s", c->file, cfg_line(o), where,
			      msg);
	free(msg);
	return r;
}

/* Where the next attribute of the request goes. */
struct nlattr *cfg_tail(struct cfg_req *r)
{
	return (struct nlattr *)nlmsg_tail(nlmsg_hdr(r->msg));
}

int cfg_too_big(void)
{
	return tern_fail("the configuration does not fit the request");
}

/* Only @keys (NULL-terminated) in object @o. */
int cfg_check_keys(const struct put_ctx *c, struct json_object *o,
		      const char *const *keys)
{
	size_t i;

	if (!json_object_is_type(o, json_type_object))
		return cfg_bad(c, o, "expected an object");
	json_object_object_foreach(o, k, v) {
		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (!keys[i])
			return cfg_bad(c, v, "unknown key \"%s\"", k);
	}
	return TERN_EXIT_OK;
}

/*
 * A string member; NULL if absent (and not @needed) or after reporting,
 * or at once when *@err already holds a report (one line per problem).
 */
const char *cfg_str(const struct put_ctx *c, struct json_object *o,
			  const char *key, bool needed, int *err)
{
	struct json_object *v;

	if (*err)
		return NULL;
	if (!json_object_object_get_ex(o, key, &v)) {
		if (needed)
			*err = cfg_bad(c, o, "missing \"%s\"", key);
		return NULL;
	}
	if (!json_object_is_type(v, json_type_string)) {
		*err = cfg_bad(c, v, "\"%s\" is a string", key);
		return NULL;
	}
	return json_object_get_string(v);
}

/* A global's JSON value in the form its kind parses. */
static int global_text(const struct tern_global_meta *g, struct json_object *v,
		       char *buf, size_t size)
{
	size_t i, n = 0;
	int64_t x;

	switch (g->kind) {
	case TERN_KIND_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return -1;
		snprintf(buf, size, "%s", json_object_get_boolean(v) ? "true" : "false");
		return 0;
	case TERN_KIND_U8:
	case TERN_KIND_U32:
		if (!json_object_is_type(v, json_type_int))
			return -1;
		x = json_object_get_int64(v);
		if (x < 0)
			return -1;
		snprintf(buf, size, "%lld", (long long)x);
		return 0;
	case TERN_KIND_PREFIX4_OPT:
	case TERN_KIND_PREFIX6_OPT:
		if (json_object_is_type(v, json_type_null)) {
			snprintf(buf, size, "none");
			return 0;
		}
		/* fall through */
	case TERN_KIND_PREFIX6:
	case TERN_KIND_HAIRPIN:
		if (!json_object_is_type(v, json_type_string))
			return -1;
		snprintf(buf, size, "%s", json_object_get_string(v));
		return 0;
	case TERN_KIND_PLATEAUS:
		if (!json_object_is_type(v, json_type_array) ||
		    !json_object_array_length(v))
			return -1;
		buf[0] = '\0';
		for (i = 0; i < json_object_array_length(v) && n < size; i++) {
			struct json_object *e = json_object_array_get_idx(v, i);

			if (!json_object_is_type(e, json_type_int) ||
			    json_object_get_int64(e) < 0)
				return -1;
			n += snprintf(buf + n, size - n, "%s%lld", i ? "," : "",
				      (long long)json_object_get_int64(e));
		}
		return n < size ? 0 : -1;
	}
	return -1;
}

static int put_globals(struct put_ctx *c, struct json_object *o)
{
	static union gvalue val;
	const struct tern_global_meta *g;
	struct nlattr *nest, *a;
	char text[8192], what[128];

	if (!json_object_is_type(o, json_type_object))
		return cfg_bad(c, o, "\"globals\" is an object");
	nest = nla_nest_start(c->r->msg, TERN_A_GLOBALS | NLA_F_NESTED);
	if (!nest)
		return cfg_too_big();
	json_object_object_foreach(o, k, v) {
		for (g = tern_globals; g->key && strcmp(g->key, k); g++)
			;
		if (!g->key || g->attr == TERN_G_POOL6)
			return cfg_bad(c, v, "unknown global \"%s\"%s", k,
				   g->key ? " (pool6 is a key of the instance)" : "");
		if (global_text(g, v, text, sizeof(text)) < 0 ||
		    gkind_of(g)->parse(text, &val) < 0)
			return cfg_bad(c, v, "invalid value for %s (expected %s)", k,
				   gkind_of(g)->json_forms);
		/* As tern.ko bounds it, said here with the file's line. */
		if ((g->kind == TERN_KIND_U8 || g->kind == TERN_KIND_U32) &&
		    (json_object_get_int64(v) < g->min ||
		     json_object_get_int64(v) > g->max))
			return cfg_bad(c, v, "%s is %u to %u", k, g->min, g->max);
		a = cfg_tail(c->r);
		if (gkind_of(g)->put(c->r->msg, g->attr, &val) < 0)
			return cfg_too_big();
		snprintf(what, sizeof(what), "%s, global %s", c->what, k);
		if (cfg_where_add(c->r, a, c->file, cfg_line(v), what) < 0)
			return cfg_too_big();
	}
	nla_nest_end(c->r->msg, nest);
	return TERN_EXIT_OK;
}

static int put_instance(struct put_ctx *c, struct json_object *o)
{
	static const char *const keys[] = {
		"name", "type", "framework", "pool6", "globals", "eamt",
		"denylist4", "pool4", "bib", NULL
	};
	const char *name, *type, *fw, *pool6;
	struct json_object *g;
	struct tern_prefix p;
	struct nlattr *nest;
	int err = TERN_EXIT_OK, t;

	snprintf(c->what, sizeof(c->what), "instance");
	err = cfg_check_keys(c, o, keys);
	if (err)
		return err;
	name = cfg_str(c, o, "name", true, &err);
	if (!name)
		return err;
	snprintf(c->what, sizeof(c->what), "instance \"%s\"", name);
	type = cfg_str(c, o, "type", true, &err);
	fw = cfg_str(c, o, "framework", false, &err);
	pool6 = cfg_str(c, o, "pool6", false, &err);
	if (err || !type)
		return err;
	if (strcmp(type, "siit") && strcmp(type, "nat64"))
		return cfg_bad(c, o, "\"type\" is \"siit\" or \"nat64\"");
	t = strcmp(type, "siit") ? TERN_TYPE_NAT64 : TERN_TYPE_SIIT;
	if (fw && strcmp(fw, "netfilter") && strcmp(fw, "iptables"))
		return cfg_bad(c, o, "\"framework\" is \"netfilter\" or \"iptables\"");
	if (pool6 && prefix6_parse(pool6, &p) < 0)
		return cfg_bad(c, o, "invalid pool6 \"%s\" (expected %s)", pool6,
			   PREFIX6_FORMS);
	nest = nla_nest_start(c->r->msg, TERN_A_CONFIG | NLA_F_NESTED);
	if (!nest || nla_put_string(c->r->msg, TERN_A_INSTANCE, name) < 0 ||
	    nla_put_u8(c->r->msg, TERN_A_TYPE, t) < 0 ||
	    (fw && nla_put_u8(c->r->msg, TERN_A_FRAMEWORK,
			      strcmp(fw, "iptables") ? TERN_FW_NETFILTER :
						       TERN_FW_IPTABLES) < 0) ||
	    (pool6 && prefix_put(c->r->msg, TERN_A_POOL6, &p) < 0))
		return cfg_too_big();
	if (json_object_object_get_ex(o, "globals", &g)) {
		err = put_globals(c, g);
		if (err)
			return err;
	}
	nla_nest_end(c->r->msg, nest);
	if (cfg_where_add(c->r, nest, c->file, cfg_line(o), c->what) < 0)
		return cfg_too_big();
	return cfg_put_list(c, o, t);
}

int cfg_put_file(struct cfg_req *r, const char *file, struct json_object *root)
{
	static const char *const keys[] = { "instances", NULL };
	struct put_ctx c = { .r = r, .file = file, .what = "file" };
	struct json_object *insts;
	size_t i;
	int err;

	err = cfg_check_keys(&c, root, keys);
	if (err)
		return err;
	if (!json_object_object_get_ex(root, "instances", &insts))
		return TERN_EXIT_OK;
	if (!json_object_is_type(insts, json_type_array))
		return cfg_bad(&c, insts, "\"instances\" is an array");
	for (i = 0; i < json_object_array_length(insts); i++) {
		err = put_instance(&c, json_object_array_get_idx(insts, i));
		if (err)
			return err;
	}
	return TERN_EXIT_OK;
}
