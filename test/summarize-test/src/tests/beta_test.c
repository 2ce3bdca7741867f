// SPDX-License-Identifier: GPL-2.0
/* A fixed sample for test/summarize-test: two suites in one file. */

static struct kunit_case beta_cases[] = {
	KUNIT_CASE(one),
	{}
};

static struct kunit_case gamma_cases[] = {
	KUNIT_CASE(two),
	KUNIT_CASE(three),
	{}
};

static struct kunit_suite beta_suite = {
	.name = "tern_beta",
	.test_cases = beta_cases,
};

static struct kunit_suite gamma_suite = {
	.name = "tern_gamma",
	.test_cases = gamma_cases,
};

kunit_test_suites(&beta_suite, &gamma_suite);
