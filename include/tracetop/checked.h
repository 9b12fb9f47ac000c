/* Sums that cannot overflow: saturating arithmetic for every accumulator of
 * times (ns) and bytes.  libc only; header-only (inline).
 *
 * The loader's limits keep every time within 4e18 ns and every duration
 * within 7 days, so a difference of two times never overflows int64; a sum
 * of many durations can (16,000 overlapping 7-day kernels pass 2^63 ns).
 * Every sum of times or bytes goes through these: past the range it stays
 * at INT64_MAX (or INT64_MIN), which the tables show as the largest value
 * there is, never as a wrapped, negative or undefined one. */
#ifndef TRACETOP_CHECKED_H
#define TRACETOP_CHECKED_H

#include <stdint.h>

/* a + b, saturated at INT64_MIN and INT64_MAX */
static inline int64_t tt_sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a - b, saturated */
static inline int64_t tt_sat_sub(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a * b, saturated */
static inline int64_t tt_sat_mul(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

/* an exact 128-bit sum back in int64, saturated (hot loops sum in
 * __int128 and store once) */
static inline int64_t tt_sat_128(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/* sum / n as a double; NaN (an empty cell) when n is 0 or the sum
 * saturated: a mean taken from a saturated sum would be wrong */
static inline double tt_sat_mean(int64_t sum, uint64_t n)
{
	if (!n || sum == INT64_MAX || sum == INT64_MIN)
		return __builtin_nan("");
	return (double)sum / (double)n;
}

/* *acc += v, saturated: the accumulator of a sum of times or bytes */
static inline void tt_sat_acc(int64_t *acc, int64_t v)
{
	*acc = tt_sat_add(*acc, v);
}

/* the same for unsigned sums (bytes), saturated at UINT64_MAX */
static inline uint64_t tt_sat_addu(uint64_t a, uint64_t b)
{
	uint64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return UINT64_MAX;
	return r;
}

static inline void tt_sat_accu(uint64_t *acc, uint64_t v)
{
	*acc = tt_sat_addu(*acc, v);
}

#endif
