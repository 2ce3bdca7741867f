// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern: configure the Tern SIIT/NAT64 kernel translator.
 *
 * main() reads the options that come before the command and hands the
 * rest to the command's module.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "args.h"
#include "nl.h"
#include "output.h"
#include "tern.h"
#include "tern_genl.h"

static const char help_main[] =
	"Usage: tern [-i NAME] [-j] COMMAND [ARGS]\n"
	"\n"
	"Configure the Tern SIIT/NAT64 translator (kernel module tern).\n"
	"\n"
	"Commands:\n"
	"  instance add NAME (--siit|--nat64) [--pool6 PREFIX] [--netfilter|--iptables]\n"
	"  instance list [--json]\n"
	"  instance remove NAME\n"
	"  global show [--json]\n"
	"  global set KEY VALUE\n"
	"  stats [--all] [--json] [--verbose]\n"
	"  stats --explain\n"
	"  eamt add PREFIX6 PREFIX4 [--force]\n"
	"  eamt remove PREFIX6|PREFIX4 [PREFIX4|PREFIX6]\n"
	"  eamt list [--json]\n"
	"  eamt flush\n"
	"  denylist4 add PREFIX4\n"
	"  denylist4 remove PREFIX4\n"
	"  denylist4 list [--json]\n"
	"  denylist4 flush\n"
	"  address query ADDR [--json]\n"
	"  bib add ADDR6#PORT ADDR4#PORT --tcp|--udp|--icmp\n"
	"  bib remove ADDR6#PORT|ADDR4#PORT --tcp|--udp|--icmp\n"
	"  bib list [--tcp|--udp|--icmp] [--ipv4 ADDR4[:PORT]] [--ipv6 PREFIX6] [--subscriber ADDR6] [--json]\n"
	"  session list [--tcp|--udp|--icmp] [--ipv4 ADDR4[:PORT]] [--ipv6 PREFIX6] [--subscriber ADDR6] [--json]\n"
	"  session flush [--tcp|--udp|--icmp]\n"
	"  pool4 add PREFIX4 [PORTS] [--tcp] [--udp] [--icmp] [--mark N]\n"
	"  pool4 remove PREFIX4 [PORTS] [--tcp] [--udp] [--icmp] [--mark N]\n"
	"  pool4 list [--json]\n"
	"  pool4 flush\n"
	"  monitor [--json]\n"
	"  config apply FILE...\n"
	"  config show\n"
	"  det lookup [--config FILE] [--tcp|--udp|--icmp] [--json] ADDR4#PORT|ADDR6[/LEN]\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  instance for every command but 'instance' and\n"
	"                       'config' (default: the only instance of this\n"
	"                       network namespace)\n"
	"  -j, --json           JSON output (as the command's own --json); for\n"
	"                       the commands without JSON output, ignored\n"
	"  -h, --help           show this help; after a command, its help\n"
	"  -V, --version        show the versions of this CLI, of the loaded\n"
	"                       module and of their netlink API\n"
	"\n"
	"Short options combine: -jv is -j -v, -jit is -j -i t.\n"
	"\n"
	"Exit status: 0 on success, 1 if the kernel refused the request or\n"
	"something failed, 2 on a usage error.\n";

/* tern --version */
static int version(void)
{
	char mod[64] = "unknown";
	uint32_t api = 0;
	bool loaded;
	int status;

	printf("tern %s (CLI, netlink API %d)\n", PACKAGE_VERSION,
	       TERN_CLI_API_VERSION);
	status = tern_nl_version(&loaded, mod, sizeof(mod), &api);
	if (status)
		return status;
	if (!loaded) {
		puts("module: not loaded");
		return TERN_EXIT_OK;
	}
	printf("module: tern %s (netlink API %u)\n", mod, api);
	if (api != TERN_CLI_API_VERSION)
		return tern_fail("the loaded tern module speaks netlink API %u, this CLI speaks %d: the other commands refuse to run",
				 api, TERN_CLI_API_VERSION);
	return TERN_EXIT_OK;
}

static int dispatch(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = argv[0];

	if (!strcmp(cmd, "instance"))
		return cmd_instance(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "global"))
		return cmd_global(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "stats"))
		return cmd_stats(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "eamt"))
		return cmd_eamt(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "denylist4"))
		return cmd_denylist4(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "address"))
		return cmd_address(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "bib"))
		return cmd_bib(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "session"))
		return cmd_session(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "pool4"))
		return cmd_pool4(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "config"))
		return cmd_config(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "det"))
		return cmd_det(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "monitor"))
		return cmd_monitor(argc - 1, argv + 1, opts);
	if (!strcmp(cmd, "help")) {
		fputs(help_main, stdout);
		return TERN_EXIT_OK;
	}
	return tern_usage("unknown command '%s' (try 'tern --help')", cmd);
}

int main(int argc, char **argv)
{
	struct tern_opts opts = { 0 };
	int status;
	int i, r;

	argv = args_split_short(&argc, argv);
	if (!argv)
		return tern_fail("out of memory");
	for (i = 1; i < argc && args_is_option(argv[i]); i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (args_is_help(a)) {
			fputs(help_main, stdout);
			return TERN_EXIT_OK;
		}
		if (args_is(a, "-V", "--version"))
			return version();
		if (args_is(a, "-j", "--json")) {
			opts.json = true;
			continue;
		}
		r = args_instance(argc, argv, &i, &opts);
		if (r < 0)
			return TERN_EXIT_USAGE;
		if (r == 0)
			return tern_usage("unknown option '%s' (try 'tern --help')",
					  a);
	}
	if (i >= argc)
		return tern_usage("missing command (try 'tern --help')");

	status = dispatch(argc - i, argv + i, &opts);

	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (!status)
			status = tern_fail("cannot write the output: %s",
					   strerror(errno ? errno : EIO));
	}
	return status;
}
