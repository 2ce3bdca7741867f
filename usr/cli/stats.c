// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern stats.
 *
 * The counters come from tern_stat_names (tern_names.h).
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
	  TERN_TABLES_BIB },
	{ "sessions", "NAT64 sessions, all protocols", TERN_TABLES_SESSIONS },
	{ "table-bytes", "Memory the BIB entries and sessions take (bytes)",
	  TERN_TABLES_BYTES },
	{ "max-sessions", "The most sessions allowed (max-sessions)",
	  TERN_TABLES_MAX_SESSIONS },
	{ "stored-syns", "IPv4 SYNs waiting for an IPv6 one (simultaneous open)",
	  TERN_TABLES_STORED_SYNS },
	{ "bucket-bytes", "Memory the hash arrays of the BIB and sessions take (bytes)",
	  TERN_TABLES_BUCKET_BYTES },
	{ NULL, NULL, 0 },
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
};

static void print_help(void)
{
	size_t i;

	fputs("Usage: tern [-i NAME] stats [--json] [--verbose]\n"
	      "\n"
	      "Print the packet counters of an instance (by default the only\n"
	      "instance of this network namespace) as \"name: value\" lines.\n"
	      "\n"
	      "Options:\n"
	      "  -i, --instance NAME  the instance (default: the only one)\n"
	      "  -j, --json           print one JSON object {name: value} instead\n"
	      "  -v, --verbose        also describe each counter (text output)\n"
	      "  -h, --help           show this help\n"
	      "\n"
	      "Counters:\n", stdout);
	for (i = 0; stats[i].name; i++)
		printf("  %-24s %s\n", stats[i].name, stats[i].desc);
	fputs("\nNAT64 instances only, after the counters:\n", stdout);
	for (i = 0; tables[i].name; i++)
		printf("  %-24s %s\n", tables[i].name, tables[i].desc);
}

static int stats_reply(struct nlattr **tb, void *arg)
{
	const struct stats_args *sa = arg;
	struct nlattr *s[TERN_STAT_MAX + 1], *t[TERN_TABLES_MAX + 1];
	uint64_t values[TERN_STAT_MAX + ARRAY_SIZE(tables)];
	const struct tern_stat_name *names[ARRAY_SIZE(values)];
	struct json_object *o;
	char buf[24];
	int wname = 0, wval = 0, n;
	size_t i, nv = 0;

	if (!tb[TERN_A_STATS])
		return tern_fail("malformed reply from the kernel: no stats");
	for (i = 0; stats[i].name; i++)
		stat_policy[stats[i].attr].type = NLA_U64;
	if (nla_parse_nested(s, TERN_STAT_MAX, tb[TERN_A_STATS],
			     stat_policy) < 0)
		return tern_fail("malformed reply from the kernel: bad stats");

	/* A counter the kernel does not report has counted nothing. */
	for (i = 0; stats[i].name && nv < ARRAY_SIZE(values); i++) {
		names[nv] = &stats[i];
		values[nv++] = s[stats[i].attr] ?
			       nla_get_u64(s[stats[i].attr]) : 0;
	}
	if (tb[TERN_A_TABLES]) {
		if (nla_parse_nested(t, TERN_TABLES_MAX, tb[TERN_A_TABLES],
				     tables_policy) < 0)
			return tern_fail("malformed reply from the kernel: bad table sizes");
		for (i = 0; tables[i].name && nv < ARRAY_SIZE(values); i++) {
			names[nv] = &tables[i];
			values[nv++] = t[tables[i].attr] ?
				       nla_get_u64(t[tables[i].attr]) : 0;
		}
	}
	for (i = 0; i < nv; i++) {
		n = strlen(names[i]->name) + 1;
		if (n > wname)
			wname = n;
		n = snprintf(buf, sizeof(buf), "%" PRIu64, values[i]);
		if (n > wval)
			wval = n;
	}

	if (sa->json) {
		o = json_obj();
		for (i = 0; i < nv; i++)
			json_add_u64(o, names[i]->name, values[i]);
		return json_emit(o);
	} else if (sa->verbose) {
		for (i = 0; i < nv; i++) {
			n = wname - (int)strlen(names[i]->name);
			printf("%s:%*s%*" PRIu64 "  %s\n", names[i]->name, n, "",
			       wval, values[i], names[i]->desc);
		}
	} else {
		for (i = 0; i < nv; i++)
			printf("%s: %" PRIu64 "\n", names[i]->name, values[i]);
	}
	return TERN_EXIT_OK;
}

int cmd_stats(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "stats";
	struct stats_args sa = { .json = opts->json };
	bool opts_done = false;
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
		} else {
			r = args_instance_or_unknown(cmd, argc, argv, &i, opts);
			if (r)
				return r;
		}
	}

	return tern_nl_request(TERN_CMD_STATS_GET, false, opts->instance,
			       NULL, NULL, stats_reply, &sa);
}
