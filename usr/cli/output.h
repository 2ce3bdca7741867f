/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: error reporting and JSON output helpers.
 */
#ifndef TERN_CLI_OUTPUT_H
#define TERN_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json_object.h>

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

/*
 * JSON output (--json) is built with json-c, so it is valid by
 * construction; keys are kebab-case, like the CLI's own names.
 *
 * json_obj() makes an object (NULL if out of memory: the json_add_*()
 * helpers then do nothing and json_emit() reports it). The json_add_*()
 * helpers add a member; a NULL string is JSON null.
 */
struct json_object *json_obj(void);
void json_add_str(struct json_object *o, const char *key, const char *s);
void json_add_u64(struct json_object *o, const char *key, uint64_t v);
void json_add_bool(struct json_object *o, const char *key, bool v);
void json_add(struct json_object *o, const char *key, struct json_object *v);

/*
 * Prints @o on stdout as one line (compact, "/" unescaped), then frees it.
 * Returns TERN_EXIT_OK, or TERN_EXIT_FAIL after reporting if @o is NULL
 * (out of memory).
 */
int json_emit(struct json_object *o);

/*
 * A JSON array printed element by element as the entries of a dump come
 * (a long list is never held whole): "[" before the first element, ","
 * between, "]" and a newline at the end. json_stream_add() prints @o and
 * frees it; json_stream_end() closes the array (an empty one: "[]").
 */
struct json_stream {
	size_t n;
};

int json_stream_add(struct json_stream *js, struct json_object *o);
void json_stream_end(struct json_stream *js);

#endif /* TERN_CLI_OUTPUT_H */
