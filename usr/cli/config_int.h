/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the files of tern config share (config.c the commands
 * and the request of apply, config_json.c the files read into it,
 * config_show.c the running configuration printed).
 */
#ifndef TERN_CLI_CONFIG_INT_H
#define TERN_CLI_CONFIG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <netlink/msg.h>

/* What part of a file an attribute of the request came from. */
struct cfg_where {
	unsigned long start, end;	/* offsets in the message */
	const char *file;
	int line;
	char what[96];			/* "instance \"x\", eamt entry 3" */
};

/* The request of tern config apply as it is built. */
struct cfg_req {
	struct nl_msg *msg;
	struct cfg_where *w;
	size_t n, cap;
};

/*
 * Reads @path into a JSON object whose values know their line
 * (cfg_line()). NULL after reporting.
 */
struct json_object *cfg_read_file(const char *path);
int cfg_line(struct json_object *o);

/* Reading one file into the request. */
struct put_ctx {
	struct cfg_req *r;
	const char *file;
	char what[96];		/* the instance */
	char entry[32];		/* in a list, the entry: "pool4 entry 3" */
};

/*
 * Reports "FILE:LINE: what: why", or in a list "FILE:LINE: what: entry:
 * why" (the line of @o); returns the status.
 */
__attribute__((format(printf, 3, 4)))
int cfg_bad(const struct put_ctx *c, struct json_object *o, const char *fmt,
	    ...);
int cfg_too_big(void);
/* Where the next attribute of the request goes. */
struct nlattr *cfg_tail(struct cfg_req *r);
/* Only @keys (NULL-terminated) in object @o; else reports. */
int cfg_check_keys(const struct put_ctx *c, struct json_object *o,
		   const char *const *keys);
/* String member @key of @o; NULL if absent (reported if @needed) or bad. */
const char *cfg_str(const struct put_ctx *c, struct json_object *o,
		    const char *key, bool needed, int *err);
/* "MIN-MAX" or "PORT" (a string or a number) of a file: 0 or -1. */
int cfg_ports_of(struct json_object *v, uint16_t *pmin, uint16_t *pmax);
/* The lists of an instance of type @type (config_list.c). */
int cfg_put_list(struct put_ctx *c, struct json_object *inst, int type);

/*
 * Adds the instances of @root (from @file) to the request. Returns
 * TERN_EXIT_OK or an exit status after reporting "FILE:LINE: what: why".
 */
int cfg_put_file(struct cfg_req *r, const char *file, struct json_object *root);

/* Records that the attribute @nla of the request comes from there. */
int cfg_where_add(struct cfg_req *r, struct nlattr *nla, const char *file,
		  int line, const char *what);

/* Entries the files hold (to size the request). */
size_t cfg_count(struct json_object *root);

/* The request's room for @entries entries: less than 128 bytes each. */
static inline size_t cfg_request_size(size_t entries)
{
	return 65536 + entries * 128;
}
/*
 * The checks tern config apply makes of @root (from @file) before it
 * sends anything, for readers of a file that send nothing (tern det
 * lookup --config). TERN_EXIT_OK, or a status after reporting.
 */
int cfg_check_file(const char *file, struct json_object *root);

/* tern config show: every instance of the namespace as a file would. */
int cfg_show(void);
/* The same as a JSON object; NULL with *@status after reporting. */
struct json_object *cfg_running(int *status);

#endif /* TERN_CLI_CONFIG_INT_H */
