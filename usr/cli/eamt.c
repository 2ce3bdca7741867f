// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern eamt add|remove|list|flush (RFC 7757 Explicit Address
 * Mappings).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "args.h"
#include "output.h"
#include "prefix.h"
#include "tables.h"

static const char help_eamt[] =
	"Usage: tern [-i NAME] eamt COMMAND [ARGS]\n"
	"\n"
	"Manage the Explicit Address Mapping Table (RFC 7757) of an instance:\n"
	"pairs of an IPv6 and an IPv4 prefix whose IPv6 suffix holds the IPv4\n"
	"suffix (IPv6 length <= 96 + IPv4 length) that translate into each\n"
	"other, before pool6 and regardless of denylist4.\n"
	"\n"
	"Commands:\n"
	"  add PREFIX6 PREFIX4 [--force]\n"
	"                            add an entry\n"
	"  remove PREFIX6|PREFIX4    remove the entry with this prefix (or both)\n"
	"  list [--json]             show the entries\n"
	"  flush                     remove every entry\n"
	"\n"
	"A prefix is ADDR/LEN; a bare ADDR means the full length (/128, /32).\n"
	"Run 'tern eamt COMMAND --help' for details.\n";

static const char help_add[] =
	"Usage: tern [-i NAME] eamt add PREFIX6 PREFIX4 [--force]\n"
	"\n"
	"Map IPv6 prefix PREFIX6 to IPv4 prefix PREFIX4 and back, keeping the\n"
	"suffix bits, e.g. 'tern eamt add 2001:db8:6::/120 198.51.100.0/24'.\n"
	"The IPv6 suffix must be at least as long as the IPv4 one (IPv6 length\n"
	"<= 96 + IPv4 length; the IPv4 suffix bits follow the IPv6 prefix); no\n"
	"bits may be set past the lengths; neither prefix may overlap one of an\n"
	"existing entry, unless --force.\n"
	"\n"
	"Options:\n"
	"  -f, --force          the entry may nest inside existing ones or hold\n"
	"                       them (no entry may have an equal prefix): an\n"
	"                       address takes the entry with the longest prefix\n"
	"                       covering it, which may not map back the same way\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

static const char help_remove[] =
	"Usage: tern [-i NAME] eamt remove PREFIX6|PREFIX4 [PREFIX4|PREFIX6]\n"
	"\n"
	"Remove the entry with this IPv6 or IPv4 prefix (exactly); with both,\n"
	"they must be the same entry's.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

static const char help_list[] =
	"Usage: tern [-i NAME] eamt list [--json]\n"
	"\n"
	"Show the entries, in IPv4 prefix order: IPV6-PREFIX IPV4-PREFIX, and\n"
	"'overlaps' after an entry that nests in another or holds one.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print a JSON array of objects with the keys\n"
	"                       prefix6 and prefix4 (and \"force\": true where\n"
	"                       the entry overlaps another)\n"
	"  -h, --help           show this help\n";

static const char help_flush[] = TABLE_HELP_FLUSH("eamt", "entry");

/* The prefixes of a request: either may be absent (family 0). */
struct eam_arg {
	struct tern_prefix p6;
	struct tern_prefix p4;
	bool force;
};

static int put_eam(struct nl_msg *msg, const void *arg)
{
	const struct eam_arg *e = arg;
	struct nlattr *nest;

	nest = nla_nest_start(msg, TERN_A_EAM | NLA_F_NESTED);
	if (!nest)
		return -1;
	if ((e->p6.family && prefix_put(msg, TERN_EAM_PREFIX6, &e->p6) < 0) ||
	    (e->p4.family && prefix_put(msg, TERN_EAM_PREFIX4, &e->p4) < 0) ||
	    (e->force && nla_put_flag(msg, TERN_EAM_FORCE) < 0))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/* Sorts 1 or 2 prefixes of different families into @e. */
static int eam_prefixes(const char *cmd, const char **pos, int n,
			struct eam_arg *e)
{
	struct tern_prefix p;
	int i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < n; i++) {
		if (prefix_parse_any(pos[i], true, &p) < 0)
			return tern_usage("invalid prefix '%s' (expected ADDR/LEN, IPv6 or IPv4)",
					  pos[i]);
		if ((p.family == AF_INET6 ? e->p6 : e->p4).family)
			return tern_usage("'%s' needs one IPv6 and one IPv4 prefix, not two %s ones",
					  cmd, p.family == AF_INET6 ? "IPv6" : "IPv4");
		if (p.family == AF_INET6)
			e->p6 = p;
		else
			e->p4 = p;
	}
	return TERN_EXIT_OK;
}

static int force_flag(const char *arg, void *data)
{
	if (!args_is(arg, "-f", "--force"))
		return -1;
	*(bool *)data = true;
	return 0;
}

static int eamt_add(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "eamt add";
	const char *pos[2];
	struct eam_arg e;
	bool force = false;
	int n, r;

	if (table_help(argc, argv, help_add))
		return TERN_EXIT_OK;
	r = table_args_flags(cmd, argc, argv, opts, pos, 2, &n, NULL,
			     force_flag, &force);
	if (r)
		return r;
	if (n < 2)
		return args_missing(cmd, "PREFIX6 and PREFIX4");
	r = eam_prefixes(cmd, pos, n, &e);
	if (r)
		return r;
	e.force = force;
	return tern_nl_request(TERN_CMD_EAMT_ADD, false, opts->instance,
			       put_eam, &e, NULL, NULL);
}

static int eamt_remove(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "eamt remove";
	const char *pos[2];
	struct eam_arg e;
	int n, r;

	if (table_help(argc, argv, help_remove))
		return TERN_EXIT_OK;
	r = table_args(cmd, argc, argv, opts, pos, 2, &n, NULL);
	if (r)
		return r;
	if (n < 1)
		return args_missing(cmd, "PREFIX6 or PREFIX4");
	r = eam_prefixes(cmd, pos, n, &e);
	if (r)
		return r;
	return tern_nl_request(TERN_CMD_EAMT_DEL, false, opts->instance,
			       put_eam, &e, NULL, NULL);
}

static int eamt_flush(int argc, char **argv, struct tern_opts *opts)
{
	return table_flush("eamt flush", help_flush, TERN_CMD_EAMT_FLUSH,
			   argc, argv, opts);
}

struct eam_list {
	struct {
		char p6[PREFIX_STRLEN];
		char p4[PREFIX_STRLEN];
		bool overlaps;
	} *v;
	size_t n, cap;
};

static int list_reply(struct nlattr **tb, void *arg)
{
	static struct nla_policy policy[TERN_EAM_MAX + 1] = {
		[TERN_EAM_PREFIX6] = { .type = NLA_NESTED },
		[TERN_EAM_PREFIX4] = { .type = NLA_NESTED },
		[TERN_EAM_FORCE] = { .type = NLA_FLAG },
	};
	struct nlattr *e[TERN_EAM_MAX + 1];
	struct eam_list *list = arg;
	struct tern_prefix p6, p4;
	int status;

	if (!tb[TERN_A_EAM] ||
	    nla_parse_nested(e, TERN_EAM_MAX, tb[TERN_A_EAM], policy) < 0 ||
	    !e[TERN_EAM_PREFIX6] || !e[TERN_EAM_PREFIX4] ||
	    prefix_get(e[TERN_EAM_PREFIX6], &p6) < 0 ||
	    prefix_get(e[TERN_EAM_PREFIX4], &p4) < 0)
		return tern_fail("malformed reply from the kernel: bad EAMT entry");
	status = table_room((void **)&list->v, list->n, &list->cap,
			    sizeof(*list->v));
	if (status)
		return status;
	prefix_str(&p6, list->v[list->n].p6);
	prefix_str(&p4, list->v[list->n].p4);
	list->v[list->n].overlaps = e[TERN_EAM_FORCE];
	list->n++;
	return TERN_EXIT_OK;
}

static int eamt_list(int argc, char **argv, struct tern_opts *opts)
{
	struct eam_list list = { 0 };
	struct json_stream js = { 0 };
	struct json_object *o;
	bool json = opts->json;
	int status, w6;
	size_t i;

	status = table_list("eamt list", help_list, TERN_CMD_EAMT_GET, argc,
			    argv, opts, list_reply, &list, &json);
	if (!status && json) {
		for (i = 0; !status && i < list.n; i++) {
			o = json_obj();
			json_add_str(o, "prefix6", list.v[i].p6);
			json_add_str(o, "prefix4", list.v[i].p4);
			if (list.v[i].overlaps)
				json_add_bool(o, "force", true);
			status = json_stream_add(&js, o);
		}
		json_stream_end(&js);
	} else if (!status) {
		w6 = strlen("IPV6-PREFIX");
		for (i = 0; i < list.n; i++)
			if ((int)strlen(list.v[i].p6) > w6)
				w6 = strlen(list.v[i].p6);
		printf("%-*s %s\n", w6, "IPV6-PREFIX", "IPV4-PREFIX");
		for (i = 0; i < list.n; i++)
			printf("%-*s %s%s\n", w6, list.v[i].p6, list.v[i].p4,
			       list.v[i].overlaps ? " overlaps" : "");
	}
	free(list.v);
	return status == TABLE_HELPED ? TERN_EXIT_OK : status;
}

int cmd_eamt(int argc, char **argv, struct tern_opts *opts)
{
	static const struct table_cmd cmds[] = {
		{ "add", eamt_add }, { "remove", eamt_remove },
		{ "list", eamt_list }, { "flush", eamt_flush }, { NULL, NULL },
	};

	return table_dispatch("eamt", help_eamt, cmds, argc, argv, opts);
}
