// SPDX-License-Identifier: GPL-2.0-only
/*
 * iptables/ip6tables extension of the target TERN (tern.ko, fw/xt.c):
 *   -j TERN --instance NAME
 * hands the packet to the iptables-mode Tern instance NAME of the
 * namespace; without such an instance the packet goes on to the next rule.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <xtables.h>

#include "xt_TERN.h"

enum {
	O_INSTANCE = 0,
};

static const struct xt_option_entry tern_tg_opts[] = {
	{ .name = "instance", .id = O_INSTANCE, .type = XTTYPE_STRING },
	XTOPT_TABLEEND,
};

static void tern_tg_help(void)
{
	printf("TERN target options:\n"
	       "  --instance NAME   translate with the Tern instance NAME\n"
	       "                    (created with 'tern instance add NAME\n"
	       "                    ... --iptables'; 1 to %d characters)\n"
	       "Only in the PREROUTING chain of the raw and mangle tables.\n"
	       "A translated packet leaves the chain (it is sent as the other\n"
	       "family); one Tern leaves alone continues with the next rule,\n"
	       "as does every packet while no iptables instance NAME exists.\n",
	       TERN_INSTANCE_NAMSIZ - 1);
}

static void tern_tg_parse(struct xt_option_call *cb)
{
	struct xt_tern_tginfo *info = cb->data;
	size_t len = strlen(cb->arg);

	xtables_option_parse(cb);
	if (cb->entry->id != O_INSTANCE)
		return;
	if (len == 0)
		xtables_error(PARAMETER_PROBLEM,
			      "TERN: --instance needs a NAME");
	if (len >= sizeof(info->instance))
		xtables_error(PARAMETER_PROBLEM,
			      "TERN: instance name \"%s\" is too long (%zu characters, at most %d)",
			      cb->arg, len, TERN_INSTANCE_NAMSIZ - 1);
	if (!tern_instance_name_chars_ok(cb->arg))
		xtables_error(PARAMETER_PROBLEM,
			      "TERN: invalid instance name \"%s\" (printable characters, no blanks or quotes)",
			      cb->arg);
	memset(info->instance, 0, sizeof(info->instance));
	memcpy(info->instance, cb->arg, len);
}

static void tern_tg_check(struct xt_fcheck_call *cb)
{
	if (!(cb->xflags & (1 << O_INSTANCE)))
		xtables_error(PARAMETER_PROBLEM,
			      "TERN: --instance NAME is required");
}

static void tern_tg_print(const void *ip, const struct xt_entry_target *target,
			  int numeric)
{
	const struct xt_tern_tginfo *info = (const void *)target->data;

	(void)ip;
	(void)numeric;
	printf(" instance %s", info->instance);
}

static void tern_tg_save(const void *ip, const struct xt_entry_target *target)
{
	const struct xt_tern_tginfo *info = (const void *)target->data;

	(void)ip;
	printf(" --instance");
	xtables_save_string(info->instance);
}

static struct xtables_target tern_tg_reg = {
	.name = "TERN",
	.version = XTABLES_VERSION,
	.family = NFPROTO_UNSPEC,
	.revision = 0,
	.size = XT_ALIGN(sizeof(struct xt_tern_tginfo)),
	/* The kernel's pointer past it is neither shown nor compared. */
	.userspacesize = offsetof(struct xt_tern_tginfo, slot),
	.help = tern_tg_help,
	.print = tern_tg_print,
	.save = tern_tg_save,
	.x6_parse = tern_tg_parse,
	.x6_fcheck = tern_tg_check,
	.x6_options = tern_tg_opts,
};

static __attribute__((constructor)) void tern_tg_init(void)
{
	xtables_register_target(&tern_tg_reg);
}
