// SPDX-License-Identifier: GPL-2.0
/* A fixed sample for test/summarize-test: one suite, three cases. */

static struct kunit_case alpha_cases[] = {
	KUNIT_CASE(first),
	KUNIT_CASE(second),
	/* KUNIT_CASE(commented_out), */
	KUNIT_CASE_PARAM(rows, rows_gen_params),
	{}
};

static struct kunit_suite alpha_suite = {
	.name = "tern_alpha",
	.suite_init = alpha_suite_init,
	.test_cases = alpha_cases,
};

kunit_test_suite(alpha_suite);
