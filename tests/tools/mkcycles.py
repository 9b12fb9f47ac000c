#!/usr/bin/env python3
"""Write traces as torch.profiler.tensorboard_trace_handler does: one file
per worker and profiling cycle, named {worker}.{timestamp_ms}.pt.trace.json
(.gz with --gzip), small Kineto traces with ProfilerStep#N spans, CPU ops,
kernel launches, GEMM kernels and an NCCL all-reduce per step.

    mkcycles.py file OUT --rank R [--world W] [--steps 40-42] [--start-ms T]
                [--kernels K] [--slow F] [--cut BYTES]
    mkcycles.py LAYOUT DIR      (the layouts of the tests, below)

Layouts:
    three-cycles   worker0 with three cycles (steps 10-12, 20-22, 30-32)
    hostpid        4 workers named {hostname}_{pid}, 2 cycles each, gzip
    logdir         a log directory: runs r1 (2 workers x 2 cycles) and
                   r2 (2 workers x 1 cycle, slower)
    plain          the same job the old way: rank-0.json, rank-1.json

Times are fixed (no clock): the n-th cycle of a layout is written at
1700000000000 + 60000 * n ms, and its events start 20 s before.  --cut
writes only the first BYTES bytes of the file (gzip: of the compressed
stream), as a file being written looks.
"""
import gzip
import json
import os
import sys

BASE_MS = 1700000000000


def trace(rank, world, steps, start_ms, kernels, slow):
    ev = []
    pid, tid = 1000 + rank, 1000 + rank
    t = start_ms * 1000.0  # µs
    corr = 1
    ext = 1
    for step in range(steps[0], steps[1] + 1):
        step_start = t
        ops = []
        for k in range(kernels):
            dur = (40 + 7 * ((k * 13 + rank) % 5)) * slow
            ops.append(("aten::mm", "ampere_sgemm_128x64_nn", dur, 7))
        ops.append(("nccl:all_reduce", "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                    (300 + 20 * rank) * slow, 20))
        cpu = t + 5
        for name, kname, dur, stream in ops:
            ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": pid, "tid": tid,
                       "ts": round(cpu, 3), "dur": 12.0,
                       "args": {"External id": ext, "Sequence number": ext}})
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                       "pid": pid, "tid": tid, "ts": round(cpu + 3, 3), "dur": 6.0,
                       "args": {"External id": ext, "correlation": corr}})
            gpu = max(cpu + 12, t)
            kargs = {"External id": ext, "correlation": corr, "device": rank,
                     "stream": stream, "context": 1, "queued": 0,
                     "grid": [108, 1, 1], "block": [256, 1, 1],
                     "registers per thread": 64, "shared memory": 0,
                     "blocks per SM": 1.0, "warps per SM": 8.0,
                     "est. achieved occupancy %": 25}
            if stream == 20:
                kargs.update({"Collective name": "allreduce", "dtype": "Float",
                              "In msg nelems": 1048576, "Out msg nelems": 1048576,
                              "Group size": world, "Process Group Name": "0",
                              "Process Group Ranks": str(list(range(world)))})
            ev.append({"ph": "X", "cat": "kernel", "name": kname, "pid": rank,
                       "tid": stream, "ts": round(gpu, 3), "dur": round(dur, 3),
                       "args": kargs})
            ev.append({"ph": "f", "id": corr, "pid": rank, "tid": stream,
                       "ts": round(gpu, 3), "cat": "ac2g", "name": "ac2g", "bp": "e"})
            ev.append({"ph": "s", "id": corr, "pid": pid, "tid": tid,
                       "ts": round(cpu + 3, 3), "cat": "ac2g", "name": "ac2g"})
            t = gpu + dur + 2
            cpu += 20
            corr += 1
            ext += 1
        t = max(t, cpu) + 10
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % step,
                   "pid": pid, "tid": tid, "ts": round(step_start, 3),
                   "dur": round(t - step_start, 3), "args": {"External id": ext}})
        ext += 1
    ev.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
               "args": {"name": "python3"}})
    ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
               "args": {"name": "thread %d (python3)" % tid}})
    ev.append({"ph": "M", "name": "process_name", "pid": rank, "tid": 0,
               "args": {"name": "python3"}})
    doc = {
        "schemaVersion": 1,
        "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world},
        "deviceProperties": [{"id": rank, "name": "NVIDIA A100-SXM4-80GB",
                              "totalGlobalMem": 85899345920, "computeMajor": 8,
                              "computeMinor": 0, "maxThreadsPerBlock": 1024,
                              "maxThreadsPerMultiprocessor": 2048,
                              "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
                              "warpSize": 32, "sharedMemPerBlock": 49152,
                              "sharedMemPerMultiprocessor": 167936, "numSms": 108,
                              "sharedMemPerBlockOptin": 166912}],
        "traceEvents": ev,
        "traceName": "trace",
    }
    return (json.dumps(doc, indent=1) + "\n").encode()


def write(out, data, cut=None):
    if out.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    if cut is not None:
        data = data[:cut]
    with open(out, "wb") as f:
        f.write(data)


def name(worker, n, gz):
    return "%s.%d.pt.trace.json%s" % (worker, BASE_MS + 60000 * n, ".gz" if gz else "")


def cycle(d, workers, n, steps, gz=False, slow=1.0, kernels=6, skew_ms=None):
    """Cycle n of workers (a list of (worker name, rank)) into folder d."""
    os.makedirs(d, exist_ok=True)
    world = len(workers)
    for i, (w, rank) in enumerate(workers):
        # each worker writes its file a little later than the one before
        skew = (skew_ms if skew_ms is not None else 37) * i
        fn = "%s.%d.pt.trace.json%s" % (w, BASE_MS + 60000 * n + skew, ".gz" if gz else "")
        write(os.path.join(d, fn), trace(rank, world, steps, BASE_MS + 60000 * n - 20000,
                                         kernels, slow))


def layout(kind, d):
    if kind == "three-cycles":
        for n in range(3):
            cycle(d, [("worker0", 0)], n, (10 * (n + 1), 10 * (n + 1) + 2),
                  slow=1.0 + 0.25 * n)
    elif kind == "hostpid":
        ws = [("node-a_4242", 0), ("node-a_4243", 1), ("node-b_777", 2), ("node-b_778", 3)]
        for n in range(2):
            cycle(d, ws, n, (20 * (n + 1), 20 * (n + 1) + 1), gz=True, slow=1.0 + n)
    elif kind == "logdir":
        ws = [("worker0", 0), ("worker1", 1)]
        for n in range(2):
            cycle(os.path.join(d, "r1"), ws, n, (5 * (n + 1), 5 * (n + 1) + 2))
        cycle(os.path.join(d, "r2"), ws, 3, (100, 102), slow=2.0)
    elif kind == "plain":
        os.makedirs(d, exist_ok=True)
        for r in range(2):
            write(os.path.join(d, "rank-%d.json" % r), trace(r, 2, (1, 3), BASE_MS, 6, 1.0))
    else:
        sys.exit("unknown layout %r" % kind)


def main(a):
    if len(a) >= 2 and a[0] == "file":
        out = a[1]
        opt = {"--rank": "0", "--world": "1", "--steps": "1-3", "--start-ms": str(BASE_MS),
               "--kernels": "6", "--slow": "1", "--cut": None}
        i = 2
        while i < len(a):
            if a[i] not in opt or i + 1 >= len(a):
                sys.exit("bad option %r" % a[i])
            opt[a[i]] = a[i + 1]
            i += 2
        lo, _, hi = opt["--steps"].partition("-")
        data = trace(int(opt["--rank"]), int(opt["--world"]), (int(lo), int(hi or lo)),
                     int(opt["--start-ms"]), int(opt["--kernels"]), float(opt["--slow"]))
        write(out, data, None if opt["--cut"] is None else int(opt["--cut"]))
    elif len(a) == 2:
        layout(a[0], a[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
