/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers of the EAMT and mapping suites: entries written as text, tables. */
#ifndef _TERN_KT_EAMT_H
#define _TERN_KT_EAMT_H

#include <kunit/test.h>
#include "siit/eamt.h"
#include "kt_util.h"

struct tern_eam tern_kt_eam(struct kunit *test, const char *p6, u8 len6,
			    const char *p4, u8 len4);
void tern_kt_add_eam(struct kunit *test, struct tern_eamt **t,
		     const struct tern_eam *e);
void tern_kt_both_ways(struct kunit *test, const struct tern_eamt *t,
		       const char *s6, const char *s4);
struct tern_eamt *tern_kt_rfc7757_table(struct kunit *test);
void tern_kt_eamt_scan(struct kunit *test, const struct tern_eamt *t,
		       const struct tern_eam *v, u32 n);

#endif /* _TERN_KT_EAMT_H */
