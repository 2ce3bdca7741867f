/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The xtables target TERN (iptables and ip6tables, legacy or nft): hands
 * the packet to the iptables-mode instance named by --instance. Shared by
 * tern.ko (fw/xt.c) and the iptables extension libxt_TERN.so.
 */
#ifndef _UAPI_XT_TERN_H
#define _UAPI_XT_TERN_H

#include "tern_genl.h"

struct tern_xt_slot;

struct xt_tern_tginfo {
	char instance[TERN_INSTANCE_NAMSIZ];	/* NUL-terminated, not empty */
	/*
	 * Kernel only, past the target's usersize: never read from or shown
	 * to userspace. Eight bytes on every ABI (32-bit iptables on a
	 * 64-bit kernel sees the same layout).
	 */
	union {
		struct tern_xt_slot *slot;
		unsigned long long slot_space;
	};
};

#endif /* _UAPI_XT_TERN_H */
