// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the values of settings, by kind: parse, encode, read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output.h"
#include "tern.h"
#include "values.h"

/* BOOL: u8 0/1 */

static int bool_parse(const char *s, union gvalue *v)
{
	static const char *const yes[] = { "true", "on", "yes", "1" };
	static const char *const no[] = { "false", "off", "no", "0" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			v->b = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			v->b = false;
			return 0;
		}
	}
	return -1;
}

static int bool_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	return nla_put_u8(msg, attr, v->b ? 1 : 0);
}

static int bool_value(struct nlattr *a, struct json_object **v)
{
	*v = json_object_new_boolean(nla_get_u8(a) != 0);
	return 0;
}

/* U8 */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* An unsigned integer up to @max, decimal or 0x hex; no sign, no blanks. */
static int uint_parse(const char *s, uint32_t max, uint32_t *out)
{
	unsigned int base = 10;
	uint64_t n = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		d = hexval(*s);
		if (d < 0 || (unsigned int)d >= base)
			return -1;
		n = n * base + d;
		if (n > max)
			return -1;
	}
	*out = n;
	return 0;
}

static int u8_parse(const char *s, union gvalue *v)
{
	uint32_t n;

	if (uint_parse(s, 255, &n) < 0)
		return -1;
	v->u8 = n;
	return 0;
}

static int u8_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	return nla_put_u8(msg, attr, v->u8);
}

static int u8_value(struct nlattr *a, struct json_object **v)
{
	*v = json_object_new_uint64(nla_get_u8(a));
	return 0;
}

/* PREFIX6: nested enum tern_prefix_attr */

static int prefix6_value(struct nlattr *a, struct json_object **v)
{
	struct tern_prefix p;
	char buf[PREFIX_STRLEN];

	if (prefix_get(a, &p) < 0)
		return -1;
	*v = json_object_new_string(prefix_str(&p, buf));
	return 0;
}

/* U32 */

static int u32_parse(const char *s, union gvalue *v)
{
	return uint_parse(s, UINT32_MAX, &v->u32);
}

static int u32_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	return nla_put_u32(msg, attr, v->u32);
}

static int u32_value(struct nlattr *a, struct json_object **v)
{
	if (nla_len(a) != sizeof(uint32_t))
		return -1;
	*v = json_object_new_uint64(nla_get_u32(a));
	return 0;
}

/*
 * PLATEAUS: "1500,1280,576" (blanks allowed around each value) to an array
 * of u16 in host order. The empty string is an empty list, which the kernel
 * refuses with its own message; so are values under 68 and too many values.
 */
static int plateaus_parse(const char *s, union gvalue *v)
{
	const char *p = s;

	v->plateaus.n = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return 0;
	for (;;) {
		uint32_t n = 0;
		const char *start;

		while (*p == ' ' || *p == '\t')
			p++;
		start = p;
		for (; *p >= '0' && *p <= '9'; p++) {
			n = n * 10 + (*p - '0');
			if (n > UINT16_MAX)
				return -1;
		}
		if (p == start || v->plateaus.n == PLATEAUS_PARSE_MAX)
			return -1;
		v->plateaus.v[v->plateaus.n++] = n;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

static int plateaus_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	return nla_put(msg, attr, v->plateaus.n * sizeof(uint16_t),
		       v->plateaus.v);
}

/* An array of numbers (text: "65535,32000,..."). */
static int plateaus_value(struct nlattr *a, struct json_object **v)
{
	const uint8_t *d = nla_data(a);
	int i, n = nla_len(a) / (int)sizeof(uint16_t);
	uint16_t x;

	if (nla_len(a) % sizeof(uint16_t))
		return -1;
	*v = json_object_new_array();
	for (i = 0; *v && i < n; i++) {
		memcpy(&x, d + i * sizeof(x), sizeof(x));
		json_object_array_add(*v, json_object_new_uint64(x));
	}
	return 0;
}

/*
 * PREFIX4_OPT, PREFIX6_OPT: a prefix, or "none"/"unset" for no prefix,
 * which travels as an empty nest both ways. Shown as "none" in text and
 * null in JSON.
 */
static bool is_none(const char *s)
{
	return !strcasecmp(s, "none") || !strcasecmp(s, "unset");
}

static int prefix4_opt_parse(const char *s, union gvalue *v)
{
	if (is_none(s)) {
		memset(&v->prefix, 0, sizeof(v->prefix));
		return 0;
	}
	return prefix4_parse(s, &v->prefix);
}

static int prefix6_opt_parse(const char *s, union gvalue *v)
{
	if (is_none(s)) {
		memset(&v->prefix, 0, sizeof(v->prefix));
		return 0;
	}
	return prefix6_parse(s, &v->prefix);
}

static int prefix_opt_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	/* Not nla_nest_start/end: libnl drops a nest left empty. */
	if (!v->prefix.family)
		return nla_put(msg, attr | NLA_F_NESTED, 0, NULL);
	return prefix_put(msg, attr, &v->prefix);
}

static int prefix_opt_value(struct nlattr *a, int family,
			    struct json_object **v)
{
	struct tern_prefix p;
	char buf[PREFIX_STRLEN];

	*v = NULL;
	if (nla_len(a) == 0)
		return 0;
	if (prefix_get(a, &p) < 0 || p.family != family)
		return -1;
	*v = json_object_new_string(prefix_str(&p, buf));
	return 0;
}

static int prefix4_opt_value(struct nlattr *a, struct json_object **v)
{
	return prefix_opt_value(a, AF_INET, v);
}

static int prefix6_opt_value(struct nlattr *a, struct json_object **v)
{
	return prefix_opt_value(a, AF_INET6, v);
}

/* HAIRPIN: enum tern_hairpin_mode by name. */

const char *const hairpin_modes[N_HAIRPIN_MODES] = {
	[TERN_HAIRPIN_OFF] = "off",
	[TERN_HAIRPIN_SIMPLE] = "simple",
	[TERN_HAIRPIN_INTRINSIC] = "intrinsic",
};

static int hairpin_parse(const char *s, union gvalue *v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hairpin_modes); i++) {
		if (!strcasecmp(s, hairpin_modes[i])) {
			v->u8 = i;
			return 0;
		}
	}
	return -1;
}

/* A mode this CLI has no name for is shown as its number. */
static int hairpin_value(struct nlattr *a, struct json_object **v)
{
	uint8_t m = nla_get_u8(a);

	if (m < ARRAY_SIZE(hairpin_modes) && hairpin_modes[m])
		*v = json_object_new_string(hairpin_modes[m]);
	else
		*v = json_object_new_uint64(m);
	return 0;
}

const struct gkind gkinds[] = {
	[TERN_KIND_BOOL] = {
		.name = "BOOL",
		.forms = "true/false, on/off, yes/no or 1/0",
		.json_forms = "true or false",
		.nla_type = NLA_U8,
		.parse = bool_parse,
		.put = bool_put,
		.value = bool_value,
	},
	[TERN_KIND_U8] = {
		.name = "U8",
		.forms = "an integer 0..255, decimal or 0x hex",
		.json_forms = "an integer 0..255",
		.nla_type = NLA_U8,
		.parse = u8_parse,
		.put = u8_put,
		.value = u8_value,
	},
	[TERN_KIND_PREFIX6] = {
		.name = "PREFIX6",
		.forms = "an IPv6 prefix " PREFIX6_FORMS
			 ", or none (SIIT only)",
		.json_forms = "a string, an IPv6 prefix " PREFIX6_FORMS,
		.nla_type = NLA_NESTED,
		.parse = prefix6_opt_parse,
		.put = prefix_opt_put,
		.value = prefix6_value,
	},
	[TERN_KIND_U32] = {
		.name = "U32",
		.forms = "an integer 0..4294967295, decimal or 0x hex",
		.json_forms = "an integer 0..4294967295",
		.nla_type = NLA_U32,
		.parse = u32_parse,
		.put = u32_put,
		.value = u32_value,
	},
	[TERN_KIND_PLATEAUS] = {
		.name = "PLATEAUS",
		.forms = "comma-separated integers 0..65535, e.g. 1500,1280,576",
		.json_forms = "an array of integers 0..65535, e.g. [1500, 1280, 576]",
		.nla_type = NLA_UNSPEC,
		.parse = plateaus_parse,
		.put = plateaus_put,
		.value = plateaus_value,
	},
	[TERN_KIND_PREFIX4_OPT] = {
		.name = "PREFIX4_OPT",
		.forms = "an IPv4 prefix " PREFIX4_FORMS ", or none",
		.json_forms = "a string, an IPv4 prefix " PREFIX4_FORMS ", or null",
		.nla_type = NLA_NESTED,
		.parse = prefix4_opt_parse,
		.put = prefix_opt_put,
		.value = prefix4_opt_value,
	},
	[TERN_KIND_PREFIX6_OPT] = {
		.name = "PREFIX6_OPT",
		.forms = "an IPv6 prefix " PREFIX6_FORMS ", or none",
		.json_forms = "a string, an IPv6 prefix " PREFIX6_FORMS ", or null",
		.nla_type = NLA_NESTED,
		.parse = prefix6_opt_parse,
		.put = prefix_opt_put,
		.value = prefix6_opt_value,
	},
	[TERN_KIND_HAIRPIN] = {
		.name = "HAIRPIN",
		.forms = "off, simple or intrinsic",
		.json_forms = "a string: off, simple or intrinsic",
		.nla_type = NLA_U8,
		.parse = hairpin_parse,
		.put = u8_put,
		.value = hairpin_value,
	},
};

const size_t n_gkinds = ARRAY_SIZE(gkinds);

const struct gkind *gkind_of(const struct tern_global_meta *gl)
{
	if ((size_t)gl->kind >= ARRAY_SIZE(gkinds) || !gkinds[gl->kind].value)
		return NULL;
	return &gkinds[gl->kind];
}
