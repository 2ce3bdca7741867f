// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: configuration files (docs/config.md) read with json-c, each
 * value tagged with its line, and turned into TERN_CMD_CONFIG_APPLY
 * attributes. Values are parsed as the commands parse their arguments:
 * globals by their kind (values.c), pool4 as pool4 add takes it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "config_int.h"
#include "nat64.h"
#include "output.h"
#include "pool4.h"
#include "prefix.h"
#include "tern.h"

/* Lines */

/* Where the walk over the text is, and the first problem it met. */
struct walk {
	const char *p;
	int line;
	const char *err;
	int err_line;
};

static void walk_fail(struct walk *w, const char *what)
{
	if (!w->err) {
		w->err = what;
		w->err_line = w->line;
	}
}

static void skip_ws(struct walk *w)
{
	while (*w->p == ' ' || *w->p == '\t' || *w->p == '\r' ||
	       *w->p == '\n') {
		if (*w->p == '\n')
			w->line++;
		w->p++;
	}
}

/*
 * Past a string at w->p (its opening quote); its raw text into @key,
 * which is emptied for a name the raw text does not spell (an escape,
 * or longer than @size).
 */
static void skip_string(struct walk *w, char *key, size_t size)
{
	size_t n = 0;
	bool raw = true;

	for (w->p++; *w->p && *w->p != '"'; w->p++) {
		if (*w->p == '\\' && w->p[1]) {
			if (!strncasecmp(w->p + 1, "u0000", 5))
				walk_fail(w, "a string holds a NUL character (\\u0000)");
			raw = false;
			w->p++;
		}
		if (key && n + 1 < size)
			key[n++] = *w->p;
		else
			raw = false;
	}
	if (*w->p)
		w->p++;
	if (key)
		key[raw ? n : 0] = '\0';
}

/*
 * Walks the text json-c parsed (valid JSON, at most its depth) beside the
 * objects it made, tagging each value with its line.
 */
static void tag_lines(struct walk *w, struct json_object *o)
{
	struct json_object *child;
	size_t i = 0, keys = 0;
	char key[256];
	bool obj;

	skip_ws(w);
	if (o) {
		/* json-c keeps a number's text there: printed as parsed. */
		if (json_object_is_type(o, json_type_double))
			json_object_set_serializer(o, NULL, NULL, NULL);
		json_object_set_userdata(o, (void *)(intptr_t)w->line, NULL);
	}
	if (*w->p == '"') {
		skip_string(w, NULL, 0);
		return;
	}
	if (*w->p != '{' && *w->p != '[') {
		while (*w->p && !strchr(",:]} \t\r\n", *w->p))
			w->p++;
		return;
	}
	obj = *w->p == '{';
	for (w->p++;;) {
		skip_ws(w);
		if (!*w->p)
			return;
		if (*w->p == '}' || *w->p == ']') {
			w->p++;
			break;
		}
		if (*w->p == ',') {
			w->p++;
			continue;
		}
		child = NULL;
		if (obj) {
			skip_string(w, key, sizeof(key));
			/*
			 * Every key of the format is a plain name: one the
			 * walk cannot follow is no key of it, and what it
			 * holds would go untagged and unchecked for keys
			 * given twice.
			 */
			if (!key[0])
				walk_fail(w, "a key that is empty, longer than 255 characters or written with an escape (\\)");
			skip_ws(w);
			if (*w->p == ':')
				w->p++;
			keys++;
			if (key[0] && json_object_is_type(o, json_type_object))
				child = json_object_object_get(o, key);
		} else if (json_object_is_type(o, json_type_array)) {
			child = json_object_array_get_idx(o, i++);
		}
		tag_lines(w, child);
	}
	/* json-c kept the last value of a key given twice, silently. */
	if (obj && json_object_is_type(o, json_type_object) &&
	    keys > (size_t)json_object_object_length(o))
		walk_fail(w, "a key appears twice in the object that ends here");
}

int cfg_line(struct json_object *o)
{
	return o ? (int)(intptr_t)json_object_get_userdata(o) : 0;
}

/* The whole of @path ("-": standard input); NULL with errno set. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 65536, n = 0;
	char *buf = NULL, *nb;
	int err = 0;

	if (!f)
		return NULL;
	for (;;) {
		nb = realloc(buf, cap + 1);
		if (!nb) {
			err = ENOMEM;
			break;
		}
		buf = nb;
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		cap *= 2;
	}
	/* A read error (a directory: EISDIR) is no end of the file. */
	if (!err && ferror(f))
		err = errno ? errno : EIO;
	if (f != stdin)
		fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

struct json_object *cfg_read_file(const char *path)
{
	struct json_tokener *tok;
	struct json_object *root;
	size_t len, i, end, upto;
	bool is_null;
	int line = 1;
	char *text;

	text = slurp(path, &len);
	if (!text) {
		tern_fail("%s: %s", path, strerror(errno));
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		free(text);
		tern_fail("out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, len + 1);
	end = json_tokener_get_parse_end(tok);
	if (root && end < len && text[end + strspn(text + end, " \t\r\n")]) {
		json_object_put(root);
		root = NULL;
	}
	if (!root) {
		/* null parses to no object, as an error does: its line. */
		is_null = json_tokener_get_error(tok) == json_tokener_success &&
			  (end >= len ||
			   !text[end + strspn(text + end, " \t\r\n")]);
		upto = is_null ? strspn(text, " \t\r\n") : end;
		for (i = 0; i < upto && i < len; i++)
			line += text[i] == '\n';
		if (is_null)
			tern_fail("%s:%d: expected an object, not null", path,
				  line);
		else
			tern_fail("%s:%d: not valid JSON: %s", path, line,
				  json_tokener_get_error(tok) == json_tokener_success ?
				  "text after the end" :
				  json_tokener_error_desc(json_tokener_get_error(tok)));
	} else if (strlen(text) < len) {
		for (i = 0; text[i]; i++)
			line += text[i] == '\n';
		tern_fail("%s:%d: a NUL byte", path, line);
		json_object_put(root);
		root = NULL;
	} else {
		struct walk w = { .p = text, .line = 1 };

		tag_lines(&w, root);
		if (w.err) {
			tern_fail("%s:%d: %s", path, w.err_line, w.err);
			json_object_put(root);
			root = NULL;
		}
	}
	json_tokener_free(tok);
	free(text);
	return root;
}

/* Request */

int cfg_where_add(struct cfg_req *r, struct nlattr *nla, const char *file,
		  int line, const char *what)
{
	struct cfg_where *w;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		w = realloc(r->w, r->cap * sizeof(*w));
		if (!w)
			return -1;
		r->w = w;
	}
	w = &r->w[r->n++];
	w->start = (char *)nla - (char *)nlmsg_hdr(r->msg);
	w->end = w->start + nla->nla_len;
	w->file = file;
	w->line = line;
	snprintf(w->what, sizeof(w->what), "%s", what);
	return 0;
}

size_t cfg_count(struct json_object *root)
{
	static const char *const lists[] = {
		"eamt", "denylist4", "pool4", "bib"
	};
	struct json_object *insts, *inst, *l, *g;
	size_t n = 0, i, j;

	if (!json_object_object_get_ex(root, "instances", &insts) ||
	    !json_object_is_type(insts, json_type_array))
		return 0;
	for (i = 0; i < json_object_array_length(insts); i++) {
		inst = json_object_array_get_idx(insts, i);
		/* Its header, and each global (mtu-plateaus: two). */
		n += 2;
		if (json_object_object_get_ex(inst, "globals", &g) &&
		    json_object_is_type(g, json_type_object))
			n += 1 + json_object_object_length(g);
		for (j = 0; j < ARRAY_SIZE(lists); j++)
			if (json_object_object_get_ex(inst, lists[j], &l) &&
			    json_object_is_type(l, json_type_array))
				n += 3 * json_object_array_length(l);
	}
	return n;
}
