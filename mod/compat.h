/* SPDX-License-Identifier: GPL-2.0 */
/* Differences between the kernels Tern builds on (6.1 and later). */
#ifndef _TERN_COMPAT_H
#define _TERN_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <net/gso.h>	/* skb_gso_validate_network_len() moved here */
#endif

#endif /* _TERN_COMPAT_H */
