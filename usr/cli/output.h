/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: error reporting and JSON output helpers.
 */
#ifndef TERN_CLI_OUTPUT_H
#define TERN_CLI_OUTPUT_H

#include <stdbool.h>

#define __printf(a, b) __attribute__((format(printf, a, b)))

/* Exit statuses. */
#define TERN_EXIT_OK	0
#define TERN_EXIT_FAIL	1	/* the kernel (or the system) said no */
#define TERN_EXIT_USAGE	2	/* the command line is wrong */

/*
 * Print "tern: MESSAGE" as exactly one line on stderr (control characters
 * are masked so user input cannot break the line) and return the exit
 * status to use.
 */
__printf(1, 2) int tern_fail(const char *fmt, ...);
__printf(1, 2) int tern_usage(const char *fmt, ...);

/* Print @s on stdout as a JSON string literal, quotes included. */
void json_string(const char *s);

/*
 * Print an object key: a comma first unless *first, then "key":.
 * Clears *first.
 */
void json_key(bool *first, const char *key);

#endif /* TERN_CLI_OUTPUT_H */
