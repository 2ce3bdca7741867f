/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the command modules share.
 */
#ifndef TERN_CLI_TERN_H
#define TERN_CLI_TERN_H

#include <stdbool.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Options given before the command (tern [-i NAME] [-j] COMMAND ...). */
struct tern_opts {
	const char *instance;	/* NULL: let the kernel pick the only one */
	bool json;		/* -j/--json: JSON output where there is some */
};

/*
 * Each command gets the arguments that follow its name and returns the
 * process exit status (see output.h).
 */
/*
 * The names of an instance type and framework (enum tern_type, tern_fw),
 * NULL for a value this CLI does not know (names.c).
 */
const char *tern_type_name(unsigned int v);
const char *tern_fw_name(unsigned int v);

int cmd_instance(int argc, char **argv, struct tern_opts *opts);
int cmd_global(int argc, char **argv, struct tern_opts *opts);
int cmd_stats(int argc, char **argv, struct tern_opts *opts);
int cmd_eamt(int argc, char **argv, struct tern_opts *opts);
int cmd_denylist4(int argc, char **argv, struct tern_opts *opts);
int cmd_address(int argc, char **argv, struct tern_opts *opts);
int cmd_bib(int argc, char **argv, struct tern_opts *opts);
int cmd_session(int argc, char **argv, struct tern_opts *opts);
int cmd_pool4(int argc, char **argv, struct tern_opts *opts);
int cmd_monitor(int argc, char **argv, struct tern_opts *opts);
int cmd_config(int argc, char **argv, struct tern_opts *opts);
int cmd_det(int argc, char **argv, struct tern_opts *opts);

#endif /* TERN_CLI_TERN_H */
