// SPDX-License-Identifier: GPL-2.0
/*
 * Tern: SIIT/NAT64 translator. Module entry points: above every part,
 * the one file that knows them all (the modes register with core/).
 */

#include <linux/module.h>
#include <net/genetlink.h>
#include "core/instance.h"
#include "fw/xt.h"
#include "nat64/nat64.h"
#include "siit/siit.h"
#include "xlat/ipid.h"
#include "nl/netlink.h"

/* TERN_VERSION comes from the file VERSION at the top (Kbuild). */
#ifndef TERN_VERSION
#error "TERN_VERSION undefined: mod/Kbuild reads it from ../VERSION"
#endif

static int __init tern_init(void)
{
	int ret;

	tern_ipid_init();
	ret = tern_siit_init();
	if (ret)
		return ret;
	ret = tern_nat64_init();
	if (ret)
		goto err_nat64;
	/* Before the instances: a namespace's instances exit before it. */
	ret = tern_xt_init();
	if (ret)
		goto err_xt;
	ret = tern_instance_init();
	if (ret)
		goto err_instance;
	ret = tern_genl_init();
	if (ret)
		goto err_genl;
	/* Last: a rule holds the module from here, whose init then stands. */
	ret = tern_xt_register();
	if (ret)
		goto err_register;
	pr_info("tern " TERN_VERSION " loaded\n");
	return 0;

err_register:
	tern_genl_exit();
err_genl:
	tern_instance_exit();
err_instance:
	tern_xt_exit();
err_xt:
	tern_nat64_exit();
err_nat64:
	tern_siit_exit();
	return ret;
}

static void __exit tern_exit(void)
{
	tern_xt_unregister();
	tern_genl_exit();
	tern_instance_exit();
	tern_xt_exit();
	tern_nat64_exit();
	tern_siit_exit();
}

module_init(tern_init);
module_exit(tern_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SIIT/NAT64 IPv4/IPv6 translator");
MODULE_VERSION(TERN_VERSION);
MODULE_ALIAS_GENL_FAMILY(TERN_GENL_NAME);
/* What ip_tables and nft_compat ask modprobe for on a rule naming TERN. */
MODULE_ALIAS("ipt_TERN");
MODULE_ALIAS("ip6t_TERN");
