/* base room: a stable merge sort written out for one element type.
 *
 *   TT_STABLE_SORT(name, type, before)
 *
 * defines `static void name(type *v, size_t n)`, which sorts v[0..n) so
 * that an element comes after every element before(a, b) says comes
 * before it; elements neither before the other keep their order (stable,
 * as tt_msort and glibc's qsort on this platform: the same order as
 * those with the same comparison).  before(const type *a, const type *b)
 * is an expression or an inline function, true when a must come strictly
 * before b.  The runs already in order are found first and merged pairwise
 * through one scratch array: one pass over sorted input, no call per
 * comparison, whole elements moved (the generic sorts call a function per
 * comparison and copy elements byte by byte). */
#ifndef TRACETOP_SORT_H
#define TRACETOP_SORT_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

#define TT_STABLE_SORT(name, type, before)                                                    \
	static void name(type *v, size_t n)                                                   \
	{                                                                                     \
		if (n < 2)                                                                    \
			return;                                                               \
		size_t cap_ = 64, nr_ = 0;                                                    \
		size_t *run_ = tt_malloc(cap_ * sizeof(*run_)); /* run starts, then n */      \
		run_[nr_++] = 0;                                                              \
		for (size_t i_ = 1; i_ < n; i_++)                                             \
			if (before(&v[i_], &v[i_ - 1])) {                                     \
				if (nr_ + 2 > cap_) {                                         \
					cap_ *= 2;                                            \
					run_ = tt_realloc_array(run_, cap_, sizeof(*run_));   \
				}                                                             \
				run_[nr_++] = i_;                                             \
			}                                                                     \
		run_[nr_] = n;                                                                \
		if (nr_ == 1) {                                                               \
			free(run_);                                                           \
			return;                                                               \
		}                                                                             \
		type *tmp_ = tt_malloc(n * sizeof(*tmp_)), *src_ = v, *dst_ = tmp_;           \
		while (nr_ > 1) {                                                             \
			size_t w_ = 0;                                                        \
			for (size_t k_ = 0; k_ < nr_; k_ += 2) {                              \
				size_t a_ = run_[k_], am_ = run_[k_ + 1];                     \
				if (k_ + 1 < nr_) {                                           \
					size_t b_ = am_, bm_ = run_[k_ + 2], o_ = a_;         \
					while (a_ < am_ && b_ < bm_)                          \
						dst_[o_++] = before(&src_[b_], &src_[a_])     \
								     ? src_[b_++]             \
								     : src_[a_++];            \
					while (a_ < am_)                                      \
						dst_[o_++] = src_[a_++];                      \
					while (b_ < bm_)                                      \
						dst_[o_++] = src_[b_++];                      \
				} else {                                                      \
					memcpy(dst_ + a_, src_ + a_,                          \
					       (am_ - a_) * sizeof(*dst_));                   \
				}                                                             \
				run_[w_++] = run_[k_];                                        \
			}                                                                     \
			run_[w_] = n;                                                         \
			nr_ = w_;                                                             \
			type *t_ = src_;                                                      \
			src_ = dst_;                                                          \
			dst_ = t_;                                                            \
		}                                                                             \
		if (src_ != v)                                                                \
			memcpy(v, src_, n * sizeof(*v));                                      \
		free(tmp_);                                                                   \
		free(run_);                                                                   \
	}

#endif
