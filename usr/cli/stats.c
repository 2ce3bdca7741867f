// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern stats.
 *
 * The counters, their groups and what each means come from one table,
 * tern_stat_names (tern_names.h): the output, --explain and the help all
 * read it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "nl.h"
#include "output.h"
#include "tern.h"

#define stats tern_stat_names

static struct nla_policy stat_policy[TERN_STAT_MAX + 1];

/* The sizes of the NAT64 tables (TERN_A_TABLES), after the counters. */
static const struct tern_stat_name tables[] = {
	{ "bib-entries", "NAT64 BIB entries, all protocols",
	  TERN_TABLES_BIB, TERN_SG_NONE },
	{ "sessions", "NAT64 sessions, all protocols", TERN_TABLES_SESSIONS,
	  TERN_SG_NONE },
	{ "table-bytes", "Memory the BIB entries and sessions take (bytes)",
	  TERN_TABLES_BYTES, TERN_SG_NONE },
	{ "max-sessions", "The most sessions allowed (max-sessions)",
	  TERN_TABLES_MAX_SESSIONS, TERN_SG_NONE },
	{ "stored-syns", "IPv4 SYNs waiting for an IPv6 one (simultaneous open)",
	  TERN_TABLES_STORED_SYNS, TERN_SG_NONE },
	{ "bucket-bytes", "Memory the hash arrays of the BIB and sessions take (bytes)",
	  TERN_TABLES_BUCKET_BYTES, TERN_SG_NONE },
	{ NULL, NULL, 0, TERN_SG_NONE },
};

/* The group of the table sizes: always shown, zeros too. */
static const struct tern_stat_group_name tables_group = {
	"tables", "NAT64 tables (shown whole)"
};

static struct nla_policy tables_policy[TERN_TABLES_MAX + 1] = {
	[TERN_TABLES_BIB] = { .type = NLA_U64 },
	[TERN_TABLES_SESSIONS] = { .type = NLA_U64 },
	[TERN_TABLES_BYTES] = { .type = NLA_U64 },
	[TERN_TABLES_MAX_SESSIONS] = { .type = NLA_U64 },
	[TERN_TABLES_STORED_SYNS] = { .type = NLA_U64 },
	[TERN_TABLES_BUCKET_BYTES] = { .type = NLA_U64 },
};

struct stats_args {
	bool json;
	bool verbose;
	bool all;
};

/* One line a counter, under the heading of its group (--explain, help). */
static void print_explain(void)
{
	int g;
	size_t i;

	for (g = TERN_SG_NONE + 1; g < __TERN_SG_MAX; g++) {
		printf("%s:\n", tern_stat_groups[g].title);
		for (i = 0; stats[i].name; i++)
			if (stats[i].group == g)
				printf("  %-28s %s\n", stats[i].name,
				       stats[i].desc);
	}
	printf("%s:\n", tables_group.title);
	for (i = 0; tables[i].name; i++)
		printf("  %-28s %s\n", tables[i].name, tables[i].desc);
}

static void print_help(void)
{
	fputs("Usage: tern [-i NAME] stats [--all] [--json] [--verbose]\n"
	      "\n"
	      "Print the packet counters of an instance (by default the only\n"
	      "instance of this network namespace) that are not zero, grouped\n"
	      "by what they say of the packets: translated, passed on\n"
	      "untranslated, dropped (by cause), other outcomes and events; then,\n"
	      "for a NAT64 instance, the sizes of its tables. Each group is a\n"
	      "heading line followed by \"  name: value\" lines.\n"
	      "\n"
	      "Options:\n"
	      "  -a, --all            show the counters that are zero too\n"
	      "  -i, --instance NAME  the instance (default: the only one)\n"
	      "  -j, --json           print one JSON object {group: {name: value}}\n"
	      "                       instead (the same groups and counters; group\n"
	      "                       keys: translated, passed, dropped-malformed,\n"
	      "                       dropped-untranslatable, dropped-forwarding,\n"
	      "                       dropped-nat64, other, tables)\n"
	      "  -v, --verbose        also describe each counter (text output)\n"
	      "  --explain            print what each counter means, one line each,\n"
	      "                       and nothing else (needs no module)\n"
	      "  -h, --help           show this help\n"
	      "\n"
	      "Counters:\n", stdout);
	print_explain();
}

/* The counters of one group to show, with their values. */
struct shown {
	const struct tern_stat_name *name[TERN_STAT_MAX + 1];
	uint64_t value[TERN_STAT_MAX + 1];
	size_t n;
};

static void print_group(const char *title, const struct shown *sh,
			const struct stats_args *sa, int wname, int wval)
{
	size_t i;
	int pad;

	printf("%s:\n", title);
	for (i = 0; i < sh->n; i++) {
		pad = wname - (int)strlen(sh->name[i]->name);
		printf("  %s:%*s%*" PRIu64, sh->name[i]->name, pad, "", wval,
		       sh->value[i]);
		if (sa->verbose)
			printf("  %s", sh->name[i]->desc);
		putchar('\n');
	}
}

/* The counters of group @g (0: the table sizes) into @sh. */
static void pick(int g, const uint64_t *cnt, const uint64_t *tbl,
		 const struct stats_args *sa, struct shown *sh)
{
	size_t i;

	sh->n = 0;
	if (!g) {
		for (i = 0; tables[i].name; i++) {
			sh->name[sh->n] = &tables[i];
			sh->value[sh->n++] = tbl[i];
		}
		return;
	}
	for (i = 0; stats[i].name; i++) {
		if (stats[i].group != g || (!cnt[i] && !sa->all))
			continue;
		sh->name[sh->n] = &stats[i];
		sh->value[sh->n++] = cnt[i];
	}
}

static int print_stats(const uint64_t *cnt, const uint64_t *tbl,
		       bool has_tables, const struct stats_args *sa)
{
	struct json_object *o = NULL, *go;
	int g, wname = 0, wval = 0, n;
	static struct shown sh;
	bool any = false;
	char buf[24];
	size_t i;

	if (sa->json)
		o = json_obj();
	/* Column widths: over everything shown, so that groups align. */
	for (g = TERN_SG_NONE; g < __TERN_SG_MAX; g++) {
		if (!g && !has_tables)
			continue;
		pick(g, cnt, tbl, sa, &sh);
		for (i = 0; i < sh.n; i++) {
			n = strlen(sh.name[i]->name) + 1;
			wname = n > wname ? n : wname;
			n = snprintf(buf, sizeof(buf), " %" PRIu64, sh.value[i]);
			wval = n > wval ? n : wval;
		}
	}
	/* The groups in order, the table sizes last. */
	for (g = TERN_SG_NONE + 1; g <= __TERN_SG_MAX; g++) {
		const struct tern_stat_group_name *gn;

		if (g == __TERN_SG_MAX) {
			if (!has_tables)
				break;
			gn = &tables_group;
			pick(0, cnt, tbl, sa, &sh);
		} else {
			gn = &tern_stat_groups[g];
			pick(g, cnt, tbl, sa, &sh);
		}
		if (!sh.n)
			continue;
		any = true;
		if (!sa->json) {
			print_group(gn->title, &sh, sa, wname, wval);
			continue;
		}
		go = json_obj();
		for (i = 0; i < sh.n; i++)
			json_add_u64(go, sh.name[i]->name, sh.value[i]);
		json_add(o, gn->key, go);
	}
	if (sa->json)
		return json_emit(o);
	if (!any)
		puts("Every counter is 0 (tern stats --all shows them).");
	return TERN_EXIT_OK;
}

static int stats_reply(struct nlattr **tb, void *arg)
{
	const struct stats_args *sa = arg;
	struct nlattr *s[TERN_STAT_MAX + 1], *t[TERN_TABLES_MAX + 1];
	uint64_t cnt[TERN_STAT_MAX + 1] = { 0 };
	uint64_t tbl[ARRAY_SIZE(tables)] = { 0 };
	size_t i;

	if (!tb[TERN_A_STATS])
		return tern_fail("malformed reply from the kernel: no stats");
	for (i = 0; stats[i].name; i++)
		stat_policy[stats[i].attr].type = NLA_U64;
	if (nla_parse_nested(s, TERN_STAT_MAX, tb[TERN_A_STATS],
			     stat_policy) < 0)
		return tern_fail("malformed reply from the kernel: bad stats");

	/* A counter the kernel does not report has counted nothing. */
	for (i = 0; stats[i].name && i < ARRAY_SIZE(cnt); i++)
		cnt[i] = s[stats[i].attr] ? nla_get_u64(s[stats[i].attr]) : 0;
	if (tb[TERN_A_TABLES]) {
		if (nla_parse_nested(t, TERN_TABLES_MAX, tb[TERN_A_TABLES],
				     tables_policy) < 0)
			return tern_fail("malformed reply from the kernel: bad table sizes");
		for (i = 0; tables[i].name; i++)
			tbl[i] = t[tables[i].attr] ?
				 nla_get_u64(t[tables[i].attr]) : 0;
	}
	return print_stats(cnt, tbl, tb[TERN_A_TABLES], sa);
}

int cmd_stats(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "stats";
	struct stats_args sa = { .json = opts->json };
	bool opts_done = false, explain = false;
	int i, r;

	if (args_want_help(argc, argv) || (argc > 0 && !strcmp(argv[0], "help"))) {
		print_help();
		return TERN_EXIT_OK;
	}

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || !args_is_option(a)) {
			return args_unexpected(cmd, a);
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else if (args_is(a, "-j", "--json")) {
			sa.json = true;
		} else if (args_is(a, "-v", "--verbose")) {
			sa.verbose = true;
		} else if (args_is(a, "-a", "--all")) {
			sa.all = true;
		} else if (args_is(a, NULL, "--explain")) {
			explain = true;
		} else {
			r = args_instance_or_unknown(cmd, argc, argv, &i, opts);
			if (r)
				return r;
		}
	}
	if (explain) {
		print_explain();
		return TERN_EXIT_OK;
	}

	return tern_nl_request(TERN_CMD_STATS_GET, false, opts->instance,
			       NULL, NULL, stats_reply, &sa);
}
