/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NETLINK_H
#define _TERN_NETLINK_H

int tern_genl_init(void);
void tern_genl_exit(void);

#endif /* _TERN_NETLINK_H */
