/* Hand-made traces for the TensorBoard view tests: loading from memory
 * and macros that write one event each (µs in the traces, ns in the
 * model).  Included by the Check programs only. */
#ifndef TRACETOP_TEST_TBFIX_H
#define TRACETOP_TEST_TBFIX_H

#include <check.h>
#include <string.h>

#include "tracetop/analysis.h"

#define US 1000 /* ns */

static const struct tt_aopts all = {0};

static inline struct tt_model *loadn(const char *const *text, size_t n)
{
	const char *names[8];
	const void *data[8];
	size_t lens[8];
	static const char *const files[8] = {"rank0.json", "rank1.json", "rank2.json",
					     "rank3.json", "rank4.json", "rank5.json",
					     "rank6.json", "rank7.json"};
	for (size_t i = 0; i < n; i++) {
		names[i] = files[i];
		data[i] = text[i];
		lens[i] = strlen(text[i]);
	}
	struct tt_model *m = NULL;
	int rc = tt_model_load_mem(&m, names, data, lens, n, NULL);
	ck_assert_msg(rc == 0, "load failed: %s", m && m->nfailures ? m->failures[0].err.msg : "?");
	ck_assert_uint_eq(m->nranks, n);
	return m;
}

static inline struct tt_model *load1(const char *text)
{
	return loadn(&text, 1);
}

static inline uint32_t find(const struct tt_rank *r, const char *name)
{
	for (uint32_t i = 0; i < r->nev; i++)
		if (strcmp(tt_ev_name(r, &r->ev[i]), name) == 0)
			return i;
	ck_abort_msg("no event %s", name);
	return 0;
}

#define OP(name, tid, ts, dur)                                                               \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid       \
	",\"ts\":" #ts ",\"dur\":" #dur "}"
#define OPA(name, tid, ts, dur, args)                                                        \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid       \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{" args "}}"
#define ANNOT(name, tid, ts, dur)                                                            \
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid \
	",\"ts\":" #ts ",\"dur\":" #dur "}"
#define PY(name, tid, ts, dur)                                                               \
	"{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"" name "\",\"pid\":1,\"tid\":"   \
	#tid ",\"ts\":" #ts ",\"dur\":" #dur "}"
#define LAUNCH(tid, ts, dur, corr)                                                           \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"      \
	"\"tid\":" #tid ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"correlation\":" #corr "}}"
/* a kernel on GPU 0 with extra args */
#define KERNELA(name, ts, dur, stream, corr, args)                                           \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #stream     \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"device\":0,\"stream\":" #stream            \
	",\"correlation\":" #corr args "}}"
#define KERNEL(name, ts, dur, stream, corr) KERNELA(name, ts, dur, stream, corr, "")
#define MEMCPY(ts, dur, stream)                                                              \
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\","    \
	"\"pid\":0,\"tid\":" #stream ",\"ts\":" #ts ",\"dur\":" #dur                            \
	",\"args\":{\"device\":0,\"stream\":" #stream ",\"bytes\":1024}}"
/* a memcpy with a correlation id, and a memset, on GPU 0 */
#define MEMCPYC(ts, dur, stream, corr)                                                       \
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\","    \
	"\"pid\":0,\"tid\":" #stream ",\"ts\":" #ts ",\"dur\":" #dur                            \
	",\"args\":{\"device\":0,\"stream\":" #stream ",\"correlation\":" #corr ",\"bytes\":1024}}"
#define MEMSET(ts, dur, stream)                                                              \
	"{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\","                  \
	"\"pid\":0,\"tid\":" #stream ",\"ts\":" #ts ",\"dur\":" #dur                            \
	",\"args\":{\"device\":0,\"stream\":" #stream ",\"bytes\":1024}}"
#define MEM(ts, bytes, total, reserved, addr, dev)                                           \
	"{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\","       \
	"\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"args\":{\"Bytes\":" #bytes                         \
	",\"Total Allocated\":" #total ",\"Total Reserved\":" #reserved ",\"Addr\":" #addr      \
	",\"Device Id\":" #dev "}}"
#define HEADR(rank) "{\"distributedInfo\": {\"rank\": " #rank "}, "
#define HEAD HEADR(0) "\"traceEvents\": ["
#define TAIL "]}"
#define DEVPROPS                                                                             \
	"\"deviceProperties\": [{\"id\": 0, \"name\": \"A100\", \"totalGlobalMem\": 10000, "     \
	"\"numSms\": 108}], "

#endif
