/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_IPID_H
#define _TERN_IPID_H

#include <linux/types.h>

void tern_ipid_init(void);
__be16 tern_ipid_next(__be32 saddr, __be32 daddr, u8 proto);

#endif /* _TERN_IPID_H */
