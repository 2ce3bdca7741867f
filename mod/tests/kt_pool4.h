/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers of the tern_nat64_pool4* suites: entries, and pools built of them. */
#ifndef _TERN_KT_POOL4_H
#define _TERN_KT_POOL4_H

#include <kunit/test.h>
#include <linux/err.h>
#include "nat64/pool4.h"

#define A4(a, b, c, d)	cpu_to_be32((u32)(a) << 24 | (b) << 16 | (c) << 8 | (d))

#define ENTRY(a, len, l4, min, max, m) \
	{ { (a), (len) }, TERN_L4_##l4, (min), (max), (m) }

/* A pool of @n entries (the test stops if one is refused). */
static inline struct tern_pool4 *tern_kt_pool(struct kunit *test,
					      const struct tern_pool4_entry *e,
					      unsigned int n)
{
	const struct tern_pool4_entry *c;
	struct tern_pool4 *p = NULL, *q;
	unsigned int i;

	for (i = 0; i < n; i++) {
		q = tern_pool4_add(p, &e[i], &c);
		if (IS_ERR_OR_NULL(q))
			tern_pool4_free(p);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(q), "entry %u: %ld",
				       i, PTR_ERR(q));
		tern_pool4_free(p);
		p = q;
	}
	return p;
}

#endif /* _TERN_KT_POOL4_H */
