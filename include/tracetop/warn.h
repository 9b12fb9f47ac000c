/* Load warnings: what was odd in a trace, counted per kind and file with
 * the first offset (struct tt_load_report).  The json room raises them
 * while scanning, the model room while building; the load report, the
 * summary and the explorer read them.  Kept in base so that every room
 * can name them without reaching into the one that raised them. */
#ifndef TRACETOP_WARN_H
#define TRACETOP_WARN_H

#include <stdbool.h>
#include <stdint.h>

/* kind, severity ('w' printed, 'n' shown only in the load report), message */
#define TT_WARNINGS(_)                                                                        \
	_(TRUNCATED, 'w', "file truncated: events after the cut are lost")                    \
	_(BARE_ARRAY, 'n', "legacy bare array (no metadata)")                                 \
	_(MISSING_BRACKET, 'w', "missing ']' at end of array")                                \
	_(TRAILING_COMMA, 'w', "trailing comma")                                              \
	_(BOM, 'n', "UTF-8 byte order mark skipped")                                          \
	_(GZIP_TRAILING, 'w', "bytes after the gzip data ignored")                            \
	_(NO_RANK, 'w', "rank unknown")                                                       \
	_(RANK_FROM_NAME, 'n', "no distributedInfo.rank: rank taken from the file name")       \
	_(RANK_MISMATCH, 'w', "file name and distributedInfo disagree on the rank")           \
	_(DUP_RANK, 'w', "another file has the same rank")                                    \
	_(NO_DEVPROPS, 'n', "no deviceProperties")                                            \
	_(NO_SCHEMA, 'n', "no schemaVersion")                                                 \
	_(BAD_UTF8, 'w', "invalid UTF-8 or control character in a string (replaced)")         \
	_(DUP_KEY, 'w', "duplicate key in an event (last wins)")                              \
	_(BIG_INT, 'w', "integer arg out of range (ignored)")                                 \
	_(NUM_STRING, 'n', "numeric string in args")                                          \
	_(BAD_ARG, 'w', "arg of an unexpected type (ignored)")                                \
	_(UNKNOWN_PH, 'w', "unknown phase (event skipped)")                                   \
	_(SKIPPED_PH, 'n', "async, object or sample event (skipped)")                         \
	_(UNKNOWN_CAT, 'n', "unknown category (kept as other)")                               \
	_(LEGACY_CAT, 'n', "legacy capitalised category")                                     \
	_(NO_PH, 'w', "event without ph (skipped)")                                           \
	_(NO_TS, 'w', "event without ts (skipped)")                                           \
	_(NO_DUR, 'w', "X event without dur (skipped)")                                       \
	_(NO_NAME, 'w', "event without a name")                                               \
	_(NEG_DUR, 'w', "negative duration (event dropped)")                                  \
	_(LONG_DUR, 'w', "duration over 7 days (event dropped)")                              \
	_(ZERO_TS, 'w', "ts 0 and dur 0 before the profiling window (event dropped)")         \
	_(UNMATCHED_B, 'w', "B without E (ended at the track's last time)")                   \
	_(UNMATCHED_E, 'w', "E without B (dropped)")                                          \
	_(DUP_EVENT, 'w', "identical duplicate event (dropped)")                              \
	_(THREAD_NAME, 'n', "conflicting thread_name (first kept)")                           \
	_(STRING_ID, 'n', "string pid or tid")                                                \
	_(NEG_TID, 'n', "negative tid")                                                       \
	_(MIXED_FRACTION, 'w', "timestamps mix 3-digit and shorter fractions")                \
	_(CORR_RANGE, 'w', "correlation or External id negative or beyond 32 bits (dropped)") \
	_(DUP_CORR, 'w', "correlation id shared by several launching calls (paired in time order)") \
	_(BIG_META, 'w', "metadata value too large (skipped)")                                \
	_(DUP_META, 'w', "duplicate top-level key (last wins)")                               \
	_(NO_X, 'w', "no complete events (metadata only)")                                    \
	_(NO_GPU, 'n', "no GPU events")                                                       \
	_(MANY_SERIES, 'w', "counter event with more than 16 series (the rest dropped)")      \
	_(BAD_META, 'w', "metadata value of an unexpected type (ignored)")                    \
	_(BASE_RANGE, 'w', "baseTimeNanoseconds puts ts more than 4e18 ns from 1970 (ignored)")

enum tt_warning {
#define _(id, sev, msg) TT_W_##id,
	TT_WARNINGS(_)
#undef _
	TT_W_COUNT
};

/* the message of a kind, "" for none */
const char *tt_warning_msg(enum tt_warning w);
/* 'w': printed when loading; 'n': a note, shown only in the load report */
char tt_warning_severity(enum tt_warning w);

struct tt_load_report {
	uint64_t count[TT_W_COUNT];
	uint64_t first_off[TT_W_COUNT]; /* text offset of the first occurrence */
	uint64_t bytes_total;           /* text bytes read */
	uint64_t bytes_lost;            /* bytes after the last complete event when truncated */
	uint64_t events_seen;           /* elements of traceEvents */
	uint64_t fast_events;           /* handled by the fast path */
	uint64_t slow_events;           /* handled through cJSON */
	bool gzip_truncated;
	uint64_t gzip_cut_offset; /* compressed offset of the cut */
};

/* Count one warning of kind w at text offset off (the first one's offset
 * is kept). */
void tt_report_warn(struct tt_load_report *r, enum tt_warning w, uint64_t off);
/* Add src's counts to dst (the earlier first offset wins), and its event
 * counts; the byte counts are the caller's. */
void tt_report_merge(struct tt_load_report *dst, const struct tt_load_report *src);

#endif
