/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_H
#define _TERN_NAT64_H

/* The per-instance NAT64 state (RFC 6146). */

struct tern_instance;
struct tern_tables;

/* The BIB and sessions of a NAT64 instance. */
struct tern_tables *tern_nat64_tables(const struct tern_instance *inst);

#endif /* _TERN_NAT64_H */
