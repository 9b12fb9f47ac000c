#!/bin/sh
# Seed corpus for fuzz_load, made in a build directory and never committed:
# small slices of the shared traces (cut mid-event, and closed after a whole
# event), the repository's fixtures and regression inputs, hand-written bad
# inputs, gzip and .tts files.  The same bytes on every run (gzip and .tts
# headers carry a time: fixed here), so that fuzz runs from a fixed seed
# (make fuzz-smoke in CI) start from the same inputs.
#   make-corpus.sh OUTDIR      (SRCDIR, SHARED, TRACETOP from the environment)
set -e
OUT=$1
: "${SRCDIR:=.}" "${SHARED:=$SRCDIR/../shared}" "${TRACETOP:=./tracetop}"
mkdir -p "$OUT"
for f in "$SRCDIR"/tests/fixtures/*.json "$SRCDIR"/tests/fixtures/bad/*; do
	[ -f "$f" ] && cp "$f" "$OUT/fixture-$(basename "$f")"
done
python3 - "$OUT" "$SHARED/traces" <<'PY'
import gzip, os, sys
out, traces = sys.argv[1], sys.argv[2]
def put(name, data):
    if isinstance(data, str):
        data = data.encode()
    open(os.path.join(out, name), 'wb').write(data)
# the bad-input cases (tests/bad-inputs.sh, tests/robustness.sh), kept tiny
ev = '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 5, "args": {"stream": 7, "correlation": 3, "grid": [1, 2, 3]}}'
cases = {
    'empty': '', 'ws': ' \n', 'notjson': 'hello', 'str': '"x"',
    'noevents': '{"schemaVersion": 1}', 'notarray': '{"traceEvents": {}}',
    'nan': '{"traceEvents": [{"ph": "X", "ts": NaN, "dur": 1}]}',
    'ninf': '{"traceEvents": [{"ph": "X", "ts": -Infinity, "dur": 1}]}',
    'phnum': '{"traceEvents": [{"ph": 1, "ts": 1}]}',
    'tsstr': '{"traceEvents": [{"ph": "X", "ts": "12", "dur": 1}]}',
    'bigts': '{"traceEvents": [{"ph": "X", "ts": 1e20, "dur": 1}]}',
    'rankstr': '{"distributedInfo": {"rank": "3"}, "traceEvents": []}',
    'quote': '{"traceEvents": [{"ph": "X", "name": "a"b", "ts": 1, "dur": 1}]}',
    'trailing': '{"traceEvents": []} xyz',
    'cutnum': '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "ts": 12',
    'bare': '[' + ev + ',\n' + ev + ',',
    'be': '{"traceEvents": [{"ph": "B", "name": "a", "pid": 1, "tid": 1, "ts": 1}, {"ph": "E", "pid": 1, "tid": 1, "ts": 4}, {"ph": "B", "pid": 1, "tid": 1, "ts": 9}]}',
    'meta': '{"traceEvents": [{"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}}, {"ph": "M", "name": "process_labels", "pid": 0, "args": {"labels": "GPU 0"}}, {"ph": "M", "name": "thread_sort_index", "pid": 0, "tid": 7, "args": {"sort_index": 3}}, ' + ev + '], "distributedInfo": {"rank": 2, "world_size": 4}, "baseTimeNanoseconds": 1719853884000000000, "deviceProperties": [{"id": 0, "name": "x", "totalGlobalMem": 84990623744}]}',
    'counter': '{"traceEvents": [{"ph": "C", "name": "Queue Length", "pid": 0, "ts": 100.5, "args": {"stream 7": 12, "x": 1.5}}]}',
    'flows': '{"traceEvents": [{"ph": "s", "cat": "fwdbwd", "name": "fwdbwd", "pid": 1, "tid": 2, "ts": 3, "id": 9}, {"ph": "f", "cat": "fwdbwd", "name": "fwdbwd", "pid": 1, "tid": 2, "ts": 8, "id": 9, "bp": "e"}]}',
    'escapes': '{"traceEvents": [{"ph": "X", "name": "a\\u0000b\\ud800\\u00e9\\n", "pid": "Spans", "tid": "stream 7", "ts": 1.047, "dur": 2.5e1, "args": {"Input Dims": [[1, 2], []], "Input type": ["float", ""], "External id": "0x1f", "blocks per SM": "1.5"}}]}',
    'instants': '{"traceEvents": [{"ph": "i", "name": "Record Window End", "s": "g", "pid": "", "tid": "", "ts": 990.0}, {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 5, "args": {"Bytes": 512, "Total Allocated": 1024, "Device Id": 0, "Addr": 123}}]}',
    'runtime': '{"traceEvents": [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 5, "dur": 2, "args": {"correlation": 3, "cbid": 211}}, ' + ev + ']}',
    'comm': '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 5, "dur": 2, "args": {"Collective name": "allreduce", "dtype": "Float", "In msg nelems": 10, "Process Group Ranks": "[0]", "Call stack": "a;b"}}]}',
    'deep': '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "args": {"a": ' + '{"a": ' * 62 + '1' + '}' * 62 + '}}]}',
}
for k, v in cases.items():
    put('case-' + k + '.json', v)
put('case-gz.json.gz', gzip.compress(cases['meta'].encode(), mtime=0))
put('case-gzcut.json.gz', gzip.compress(cases['meta'].encode(), mtime=0)[:-12])
if os.path.isdir(traces):
    picks = ['hta-2rank/sampled_rank-0.json.gz', 'cpu-only', 'event-sync', 'compare-base',
             'ns-resolution', 'queue-length', 'non-gpu', 'diff-control']
    for p in picks:
        path = os.path.join(traces, p)
        if os.path.isdir(path):
            path = os.path.join(path, sorted(os.listdir(path))[0])
        text = gzip.open(path).read()
        tag = p.split('/')[0]
        for kb in (2, 8, 24):
            part = text[:kb * 1024]
            put('slice-%s-%dk-cut.json' % (tag, kb), part)
            # closed after the last complete event
            i = part.rfind(b'},')
            if i > 0 and b'traceEvents' in part[:i]:
                put('slice-%s-%dk.json' % (tag, kb), part[:i + 1] + b'\n]}')
        if len(text) < 24 * 1024:
            put('whole-%s.json' % tag, text)
PY
# .tts seeds from a few of the small closed traces
if [ -x "$TRACETOP" ]; then
	T=$(mktemp -d)
	for f in "$OUT"/case-meta.json "$OUT"/case-runtime.json "$OUT"/case-be.json \
		"$OUT"/slice-hta-2rank-8k.json "$OUT"/whole-cpu-only.json; do
		[ -f "$f" ] || continue
		cp "$f" "$T/s.json"
		touch -t 200001010000 "$T/s.json"
		if "$TRACETOP" summarize -q "$T/s.json" 2>/dev/null && [ -f "$T/s.json.tts" ]; then
			cp "$T/s.json.tts" "$OUT/tts-$(basename "$f" .json).tts"
		fi
		rm -f "$T/s.json" "$T/s.json.tts"
	done
	# the demo job: every kind of event, side table and counter, small
	if "$TRACETOP" demo-trace -q -o "$T/demo" --ranks 2 --steps 1 --layers 1 2>/dev/null; then
		cp "$T/demo/rank-0.pt.trace.json" "$OUT/demo-rank-0.json"
		touch -t 200001010000 "$T/demo/rank-0.pt.trace.json"
		"$TRACETOP" summarize -q "$T/demo/rank-0.pt.trace.json" -o "$OUT/tts-demo.tts" 2>/dev/null
	fi
	rm -rf "$T"
fi
echo "seed corpus: $(ls "$OUT" | wc -l) files in $OUT"
