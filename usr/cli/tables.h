/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the table commands (eamt, denylist4, pool4, address,
 * instance) share: their argument loop, help, dispatch and growing reply
 * lists.
 */
#ifndef TERN_CLI_TABLES_H
#define TERN_CLI_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nl.h"
#include "tern.h"

/*
 * The arguments of command @cmd ("eamt add"): up to @max positional ones
 * into @pos (*@npos of them), -i/--instance NAME into @opts, and -j/--json
 * if @json is not NULL. Returns TERN_EXIT_OK or TERN_EXIT_USAGE (after
 * reporting).
 */
int table_args(const char *cmd, int argc, char **argv, struct tern_opts *opts,
	       const char **pos, int max, int *npos, bool *json);

/*
 * The same, and the command's own flags (options without a value): @flag
 * is asked about each option that is not -j (-1: not one of them, else
 * TERN_EXIT_OK or an exit status after reporting).
 */
int table_args_flags(const char *cmd, int argc, char **argv,
		     struct tern_opts *opts, const char **pos, int max,
		     int *npos, bool *json,
		     int (*flag)(const char *arg, void *data), void *data);

/* The help of "tern TABLE flush" ("eamt"), which removes every WHAT. */
#define TABLE_HELP_FLUSH(table, what)					\
	"Usage: tern [-i NAME] " table " flush\n"			\
	"\n"								\
	"Remove every " what ".\n"					\
	"\n"								\
	"Options:\n"							\
	"  -i, --instance NAME  the instance (default: the only one)\n"	\
	"  -h, --help           show this help\n"

/* Prints @help if the arguments ask for it (or are "help"); true if so. */
bool table_help(int argc, char **argv, const char *help);

/*
 * Makes room for element @n of the growing array *@v (room for *@cap
 * elements of @size bytes). Returns TERN_EXIT_OK, or an exit status after
 * reporting that memory ran out.
 */
int table_room(void **v, size_t n, size_t *cap, size_t size);

/*
 * "tern TABLE flush" (@cmd, e.g. "eamt flush"): no arguments but -i; sends
 * @nlcmd. Returns the exit status.
 */
int table_flush(const char *cmd, const char *help, uint8_t nlcmd,
		int argc, char **argv, struct tern_opts *opts);

/* What table_list() returns after printing the help: nothing to print. */
#define TABLE_HELPED (-1)

/*
 * "tern TABLE list" (@cmd, e.g. "eamt list"): -i and -j (into *@json)
 * only; dumps @nlcmd, each reply to @fn with @arg. Returns TERN_EXIT_OK
 * when the entries are to be printed, TABLE_HELPED, or an exit status.
 */
int table_list(const char *cmd, const char *help, uint8_t nlcmd,
	       int argc, char **argv, struct tern_opts *opts,
	       tern_nl_reply_fn fn, void *arg, bool *json);

struct table_cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct tern_opts *opts);
};

/*
 * "tern TABLE COMMAND ...": runs the entry of @cmds (ended by one without
 * a name) named argv[0] with the arguments after it, prints @help for
 * "help"/--help, and reports a missing or unknown command. Returns the
 * exit status.
 */
int table_dispatch(const char *table, const char *help,
		   const struct table_cmd *cmds, int argc, char **argv,
		   struct tern_opts *opts);

#endif /* TERN_CLI_TABLES_H */
