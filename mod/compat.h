/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels Tern builds on (6.1 and later). Features
 * are detected by Kbuild (see Kbuild), not by version numbers, so that
 * distribution backports work too.
 */
#ifndef _TERN_COMPAT_H
#define _TERN_COMPAT_H

#ifdef TERN_HAVE_NET_GSO_H
#include <net/gso.h>	/* skb_gso_validate_network_len() moved here in 6.5 */
#endif

#endif /* _TERN_COMPAT_H */
