/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: the values of settings, by kind (enum tern_global_kind of
 * tern_globals.h): how each is parsed from the command line, encoded for
 * the kernel, and read from its reply as a JSON value (shown as text or
 * JSON).
 */
#ifndef TERN_CLI_VALUES_H
#define TERN_CLI_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json_object.h>
#include <netlink/msg.h>

#include "prefix.h"
#include "tern_globals.h"

/*
 * Most values a PLATEAUS argument may list. The kernel takes 1 to
 * TERN_PLATEAUS_MAX and says so; the CLI only needs a bound for its buffer.
 */
#define PLATEAUS_PARSE_MAX	1024

union gvalue {
	bool b;
	uint8_t u8;
	uint32_t u32;
	struct tern_prefix prefix;	/* family 0: an optional prefix unset */
	struct {
		uint16_t v[PLATEAUS_PARSE_MAX];
		unsigned int n;
	} plateaus;
};

/* What a kind of global (enum tern_global_kind) knows. */
struct gkind {
	const char *name;
	const char *forms;	/* accepted values, for help and errors */
	const char *json_forms;	/* the same in a configuration file (JSON) */
	int nla_type;		/* libnl policy for the reply attribute */
	int (*parse)(const char *s, union gvalue *v);	/* 0 or -1 */
	int (*put)(struct nl_msg *msg, int attr, const union gvalue *v);
	/*
	 * The reply attribute as a JSON value into *v (NULL: null, an
	 * optional prefix unset); -1 if malformed. The text output is
	 * made from it (global.c).
	 */
	int (*value)(struct nlattr *a, struct json_object **v);
};

/* The names of enum tern_hairpin_mode (HAIRPIN values). */
#define N_HAIRPIN_MODES (TERN_HAIRPIN_INTRINSIC + 1)
extern const char *const hairpin_modes[N_HAIRPIN_MODES];

/* The kinds, indexed by enum tern_global_kind (n_gkinds entries). */
extern const struct gkind gkinds[];
extern const size_t n_gkinds;

/* The kind of @gl, or NULL if this CLI lacks it (a bug: tern_globals.h grew). */
const struct gkind *gkind_of(const struct tern_global_meta *gl);

#endif /* TERN_CLI_VALUES_H */
