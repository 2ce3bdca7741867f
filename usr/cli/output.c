// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: error reporting and JSON output (json-c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"

/* The message whole, however long (a longer one than @buf is allocated). */
static void report(const char *fmt, va_list ap)
{
	char buf[1024], *msg = buf, *p;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf)) {
		msg = malloc(n + 1);
		if (msg)
			vsnprintf(msg, n + 1, fmt, again);
		else
			msg = buf;	/* cut short rather than lost */
	}
	va_end(again);
	for (p = msg; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	fflush(stdout);
	fprintf(stderr, "tern: %s\n", msg);
	if (msg != buf)
		free(msg);
}

int tern_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap);
	va_end(ap);
	return TERN_EXIT_FAIL;
}

int tern_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap);
	va_end(ap);
	return TERN_EXIT_USAGE;
}

struct json_object *json_obj(void)
{
	return json_object_new_object();
}

void json_add(struct json_object *o, const char *key, struct json_object *v)
{
	if (o)
		json_object_object_add(o, key, v);
	else
		json_object_put(v);
}

void json_add_str(struct json_object *o, const char *key, const char *s)
{
	json_add(o, key, s ? json_object_new_string(s) : NULL);
}

void json_add_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_add(o, key, json_object_new_uint64(v));
}

void json_add_bool(struct json_object *o, const char *key, bool v)
{
	json_add(o, key, json_object_new_boolean(v));
}

static const char *json_text(struct json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

int json_emit(struct json_object *o)
{
	const char *s = o ? json_text(o) : NULL;

	if (!s) {
		json_object_put(o);
		return tern_fail("out of memory");
	}
	puts(s);
	json_object_put(o);
	return TERN_EXIT_OK;
}

int json_stream_add(struct json_stream *js, struct json_object *o)
{
	const char *s = o ? json_text(o) : NULL;

	if (!s) {
		json_object_put(o);
		return tern_fail("out of memory");
	}
	putchar(js->n++ ? ',' : '[');
	fputs(s, stdout);
	json_object_put(o);
	return TERN_EXIT_OK;
}

void json_stream_end(struct json_stream *js)
{
	if (!js->n)
		putchar('[');
	puts("]");
}
