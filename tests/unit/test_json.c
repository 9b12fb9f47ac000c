/* json room: exact times, the fast path against cJSON, lexing errors. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/testing.h"
#include "tracetop/trace.h"
#include "testlib.h"

static int64_t ns_of(const char *s)
{
	int64_t v = 0;
	ck_assert_msg(tt_json_us_to_ns(s, strlen(s), &v), "conversion of %s failed", s);
	return v;
}

START_TEST(us_to_ns_exact)
{
	/* a double cannot hold this: the digits are converted exactly */
	ck_assert_int_eq(ns_of("1712195495519689.047"), INT64_C(1712195495519689047));
	ck_assert_int_eq(ns_of("1661203462598738"), INT64_C(1661203462598738000));
	ck_assert_int_eq(ns_of("68.0"), 68000);
	ck_assert_int_eq(ns_of("2.503"), 2503);
	ck_assert_int_eq(ns_of("0.5"), 500);
	ck_assert_int_eq(ns_of("-3.25"), -3250);
	ck_assert_int_eq(ns_of("0"), 0);
	/* beyond three decimals: rounded half to even */
	ck_assert_int_eq(ns_of("1.0004"), 1000);
	ck_assert_int_eq(ns_of("1.0006"), 1001);
	ck_assert_int_eq(ns_of("1.0005"), 1000);
	ck_assert_int_eq(ns_of("1.0015"), 1002);
	ck_assert_int_eq(ns_of("1.00050001"), 1001);
	/* exponents go through the general path */
	ck_assert_int_eq(ns_of("1.5e3"), 1500000);
	ck_assert_int_eq(ns_of("15E-1"), 1500);
	ck_assert_int_eq(ns_of("1712195495519689047e-3"), INT64_C(1712195495519689047));
	ck_assert_int_eq(ns_of("1e-9"), 0);
	int64_t v;
	ck_assert(!tt_json_us_to_ns("1e30", 4, &v));
	ck_assert(!tt_json_us_to_ns("9223372036854776", 16, &v));
}
END_TEST

/* parse one event with both paths and compare */
static void both(const char *json, struct tt_raw_event *out, enum tt_event_res want_fast)
{
	struct tt_scratch *s1 = tt_scratch_new(), *s2 = tt_scratch_new();
	struct tt_raw_event a, b;
	struct tt_err e;
	size_t u1 = 0, u2 = 0;
	size_t n = strlen(json);
	enum tt_event_res r1 = tt_event_fast(json, json + n, 100, 3, &a, &u1, s1, &e);
	ck_assert_msg(r1 == want_fast, "fast path gave %d for %s", r1, json);
	enum tt_event_res r2 = tt_event_slow(json, json + n, 100, 3, &b, &u2, s2, &e);
	ck_assert_msg(r2 == TT_EV_OK, "slow path gave %d (%s) for %s", r2, e.msg, json);
	if (r1 == TT_EV_OK) {
		const char *d = tt_raw_diff(&a, &b);
		ck_assert_msg(d == NULL, "paths differ on %s for %s", d, json);
		ck_assert_uint_eq(u1, u2);
	}
	ck_assert_uint_eq(u2, n);
	if (out)
		*out = b;
	tt_scratch_free(s1);
	tt_scratch_free(s2);
}

START_TEST(fast_equals_cjson)
{
	struct tt_raw_event ev;
	both("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
	     "\"ts\":1712195495519689.047,\"dur\":2.503,\"args\":{\"stream\":7,"
	     "\"correlation\":42,\"grid\":[1,2,3],\"block\":[128,1,1],"
	     "\"est. achieved occupancy %\":12.5,\"blocks per SM\":1.375}}",
	     &ev, TT_EV_OK);
	ck_assert_int_eq(ev.ts_ns, INT64_C(1712195495519689047));
	ck_assert_int_eq(ev.dur_ns, 2503);
	ck_assert(ev.flags & TT_RF_TS_FLOAT);
	ck_assert(ev.flags & TT_RF_TS_FRAC3);
	ck_assert_int_eq(ev.i[TT_A_CORR], 42);
	ck_assert_int_eq(ev.dim[0][2], 3);
	/* key order, string pid/tid, numeric strings (ROCm) */
	both("{\"name\":\"n\",\"tid\":\"stream 7\",\"pid\":\"Spans\",\"ph\":\"X\",\"dur\":5,"
	     "\"ts\":10,\"args\":{\"stream\":\"0x7\",\"bytes\":\"2560\",\"correlation\":7.0}}",
	     &ev, TT_EV_OK);
	ck_assert_int_eq(ev.tid.num, 7);
	ck_assert_int_eq(ev.i[TT_A_STREAM], 7);
	ck_assert_int_eq(ev.i[TT_A_BYTES], 2560);
	ck_assert_int_eq(ev.i[TT_A_CORR], 7);
	ck_assert(ev.flags & TT_RF_NUM_STRING);
	/* duplicate keys: the last one wins in both */
	both("{\"ph\":\"X\",\"ts\":1,\"ts\":2.5,\"dur\":1,\"name\":\"a\",\"name\":\"b\"}", &ev,
	     TT_EV_OK);
	ck_assert_int_eq(ev.ts_ns, 2500);
	ck_assert(ev.flags & TT_RF_DUP_KEY);
	/* JSON-text args are kept minified, as cJSON prints them */
	both("{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"Input Dims\": [[2048, 1], [], "
	     "[7722480160]], \"Input type\": [\"float\", \"\"]}}",
	     &ev, TT_EV_OK);
	ck_assert_uint_eq(ev.s_arg[TT_A_INPUT_DIMS].n, strlen("[[2048,1],[],[7722480160]]"));
	/* counter series */
	both("{\"ph\":\"C\",\"name\":\"Queue Length\",\"pid\":0,\"ts\":100.0,"
	     "\"args\":{\"stream 7\":12,\"other\":1.5}}",
	     &ev, TT_EV_OK);
	ck_assert_uint_eq(ev.nseries, 2);
	ck_assert(ev.series[1].value == 1.5);
	/* escapes in kept strings */
	both("{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"a\\\"b\\\\c\\n\"}", &ev, TT_EV_OK);
	ck_assert_uint_eq(ev.name.n, 8); /* a " b \ c, then U+FFFD (3 bytes) for the newline */
	/* what the fast path leaves to cJSON */
	both("{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"caf\\u00e9\"}", &ev, TT_EV_FALLBACK);
	ck_assert_uint_eq(ev.name.n, 5);
	both("{\"p\\u0068\":\"X\",\"ts\":1,\"dur\":1}", &ev, TT_EV_FALLBACK);
	ck_assert_uint_eq(ev.ph.n, 1);
	both("{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"Input Dims\":[{\"a\":1}]}}", &ev,
	     TT_EV_FALLBACK);
	/* \u0000 and lone surrogates become U+FFFD in both */
	both("{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"a\\u0000b\\ud800\"}", &ev,
	     TT_EV_FALLBACK);
	ck_assert_uint_eq(ev.name.n, 8);
	/* wrong types are recorded, not rejected, by the parsers */
	both("{\"ph\":1,\"ts\":\"1\",\"dur\":null,\"pid\":1.5}", &ev, TT_EV_OK);
	ck_assert_int_eq(ev.ph_type, TT_V_NUM);
	ck_assert_int_eq(ev.ts_type, TT_V_STR);
	ck_assert_int_eq(ev.dur_type, TT_V_OTHER);
	ck_assert_int_eq(ev.pid.type, TT_V_OTHER);
	/* invalid UTF-8 and raw control characters are repaired in both */
	both("{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"a\xff\x01\"}", &ev, TT_EV_OK);
	ck_assert(ev.flags & TT_RF_BAD_UTF8);
	ck_assert_uint_eq(ev.name.n, 7);
}
END_TEST

static void bad(const char *json, const char *want)
{
	struct tt_scratch *s = tt_scratch_new();
	struct tt_raw_event ev;
	struct tt_err e;
	tt_err_clear(&e);
	size_t used;
	size_t n = strlen(json);
	enum tt_event_res r = tt_event_fast(json, json + n, 0, 3, &ev, &used, s, &e);
	if (r == TT_EV_FALLBACK)
		r = tt_event_slow(json, json + n, 0, 3, &ev, &used, s, &e);
	ck_assert_msg(r == TT_EV_ERROR, "expected an error for %s, got %d", json, r);
	ck_assert_msg(strstr(e.msg, want), "message '%s' lacks '%s'", e.msg, want);
	tt_scratch_free(s);
}

START_TEST(lexing_errors)
{
	bad("{\"ph\":\"X\",\"ts\":NaN}", "NaN is not valid JSON");
	bad("{\"ph\":\"X\",\"ts\":Infinity}", "Infinity is not valid JSON");
	bad("{\"ph\":\"X\",\"ts\":-Infinity}", "-Infinity is not valid JSON");
	bad("{\"ph\":\"X\",\"ts\":01}", "expected ',' or '}'");
	bad("{\"ph\":\"X\",\"ts\":1.}", "expected a digit after '.'");
	bad("{\"ph\":\"X\" \"ts\":1}", "expected ',' or '}'");
	bad("{\"name\":\"a\\x\"}", "invalid escape");
	bad("{\"name\":\"a\"b\"}", "expected ',' or '}'");
	bad("{\"ph\":\"X\",\"ts\":1,}", "expected '\"' to start a key");
	bad("{\"args\":{\"a\":[1,2,]}}", "expected a value");
	char deep[400] = "{\"args\":";
	for (int i = 0; i < 70; i++)
		strcat(deep, "[");
	strcat(deep, "1");
	for (int i = 0; i < 70; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	bad(deep, "nesting deeper than 64 levels");
	char longnum[100] = "{\"ts\":1";
	for (int i = 0; i < 70; i++)
		strcat(longnum, "0");
	strcat(longnum, "}");
	bad(longnum, "number longer than 63 characters");
}
END_TEST

START_TEST(event_needs_more_text)
{
	const char *json = "{\"ph\":\"X\",\"name\":\"abc";
	struct tt_scratch *s = tt_scratch_new();
	struct tt_raw_event ev;
	struct tt_err e;
	size_t used;
	ck_assert_int_eq(tt_event_fast(json, json + strlen(json), 0, 3, &ev, &used, s, &e),
			 TT_EV_MORE);
	ck_assert_int_eq(tt_event_slow(json, json + strlen(json), 0, 3, &ev, &used, s, &e),
			 TT_EV_MORE);
	/* a number at the end of the text might go on */
	json = "{\"ph\":\"X\",\"ts\":12";
	ck_assert_int_eq(tt_event_fast(json, json + strlen(json), 0, 3, &ev, &used, s, &e),
			 TT_EV_MORE);
	tt_scratch_free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");
	tcase_add_test(tc, us_to_ns_exact);
	tcase_add_test(tc, fast_equals_cjson);
	tcase_add_test(tc, lexing_errors);
	tcase_add_test(tc, event_needs_more_text);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
