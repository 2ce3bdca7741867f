/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the pool4 command's files share (pool4.c the commands,
 * pool4_parse.c their arguments and request, pool4_list.c the entries of
 * a dump).
 */
#ifndef TERN_CLI_POOL4_H
#define TERN_CLI_POOL4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nl.h"
#include "prefix.h"
#include "tern.h"

/* The protocols, with their default port range (PMIN-65535). */
#define POOL4_PROTOS 3
struct pool4_proto {
	const char *name;
	uint8_t proto;
	uint16_t pmin;		/* default range */
};

extern const struct pool4_proto pool4_protos[POOL4_PROTOS];

/* What add and remove name. */
struct pool4_arg {
	struct tern_prefix prefix;
	unsigned int protos;	/* bit i: protos[i]; 0: all */
	bool ports;		/* a PORTS argument */
	uint16_t pmin, pmax;
	uint32_t mark;
};

/* One request: @a for protocol @i (ports: @a's, or its defaults). */
struct pool4_req {
	const struct pool4_arg *a;
	size_t i;
	bool ports;
};

/*
 * The arguments of add and remove (@cmd names the command in messages).
 * Returns TERN_EXIT_OK, or an exit status after reporting.
 */
int pool4_args(const char *cmd, int argc, char **argv,
	       struct tern_opts *opts, struct pool4_arg *a);

/* Adds the TERN_A_POOL4 nest of @arg (a struct pool4_req); 0 or -1. */
int pool4_put(struct nl_msg *msg, const void *arg);

/* The entries of a dump. */
struct pool4_entry {
	char prefix[PREFIX_STRLEN];
	size_t i;		/* in protos[] */
	uint16_t pmin, pmax;
	uint32_t mark;
};

struct pool4_list {
	struct pool4_entry *v;
	size_t n, cap;
};

/* Appends the entry of a dump's reply to @arg (a struct pool4_list). */
int pool4_list_reply(struct nlattr **tb, void *arg);

/* Prints @list: a table, or a JSON array if @json. Returns the status. */
int pool4_print(const struct pool4_list *list, bool json);

#endif /* TERN_CLI_POOL4_H */
