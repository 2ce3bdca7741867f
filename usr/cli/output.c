// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: error reporting and JSON output helpers.
 */
#include <stdarg.h>
#include <stdio.h>

#include "output.h"

static void report(const char *fmt, va_list ap)
{
	char buf[1024];
	char *p;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (p = buf; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	fflush(stdout);
	fprintf(stderr, "tern: %s\n", buf);
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

void json_string(const char *s)
{
	const unsigned char *c;

	putchar('"');
	for (c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (*c < 0x20)
				printf("\\u%04x", *c);
			else
				putchar(*c);
		}
	}
	putchar('"');
}

void json_key(bool *first, const char *key)
{
	if (!*first)
		putchar(',');
	*first = false;
	json_string(key);
	putchar(':');
}
