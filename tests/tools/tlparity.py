#!/usr/bin/env python3
"""Parity of `tracetop report perf-model` with AMD TraceLens' own output.

  tlparity.py TRACETOP SET_DIR REF_DIR PEAKS_FILE

SET_DIR is a trace set of ../shared/traces, REF_DIR the same set in
../shared/reference-tracelens (TraceLens' CSV files, its README says how
they were made), PEAKS_FILE the peak file with TraceLens' MI300X numbers
(its perf-roofline-MI300X/ reports).  For every file of the set, every
TraceLens table is compared with tracetop's of the same name, row by row
(joined on the TraceLens grouping keys), value by value: times within 1 µs
(0.001 ms) or 0.1 %, other reals within 0.1 %, counts, names and the
compute spec exact.

TraceLens is wrong in places (see ../shared/reference-tracelens/README.md);
there the value TraceLens gives is not the one compared, and the line says
which of its bugs it is:

  flows    TraceLens ties kernels to their launch only through `ac2g` flow
           events (and cudaGraphLaunch by correlation): with flows named
           `async_cpu_to_gpu`, or none, it drops the kernels it cannot tie
           (or fails: "No GPU events found").  There tracetop's launcher
           tables are checked against an independent recomputation in this
           file (TraceLens' tree, kernels tied by correlation id).
  strides  its elementwise and norm models read "Input Strides" and fail
           without them: tracetop's rows it has not are listed, not compared.
  tf32     it rates fp32 matrix work against the fp32 peak even when its
           kernels are TF32 tensor-core kernels (s1688gemm, tf32): the
           Compute Spec differs (matrix_tf32); the roofline with TraceLens'
           peaks file is the same (no tf32 peak there: fp32 is used).
  dropna   its short_kernels_summary groups by Input Strides and Concrete
           Inputs with pandas' default dropna: no row survives on traces
           without them; tracetop's rows are checked against the histogram.

The last line of output: "N rows, M values matched[, K differ on purpose]".
Exit 0 when every value compared matched (or differs by a named bug), 1 on
a mismatch, 2 when nothing could be compared on a set TraceLens reads."""
import ast
import csv
import gzip
import io
import json
import os
import subprocess
import sys
from collections import defaultdict
from decimal import Decimal

US, MS = 'us', 'ms'
csv.field_size_limit(1 << 30)


class Cmp:
    def __init__(self, label):
        self.label = label
        self.rows = 0
        self.ok = 0
        self.bad = []
        self.bug = defaultdict(int)
        self.skip = defaultdict(int)

    def num(self, what, ours, theirs, unit=None):
        a, b = fnum(ours), fnum(theirs)
        if a is None and b is None:
            self.ok += 1
            return True
        if a is None or b is None:
            self.bad.append('%s: ours %r, TraceLens %r' % (what, ours, theirs))
            return False
        tol = {US: 1.0, MS: 0.001}.get(unit, 0.0)
        if abs(a - b) <= tol or abs(a - b) <= 1e-3 * max(abs(a), abs(b)) or abs(a - b) < 1e-12:
            self.ok += 1
            return True
        self.bad.append('%s: ours %r, TraceLens %r' % (what, ours, theirs))
        return False

    def close(self, a, b, unit):
        a, b = fnum(a), fnum(b)
        if a is None or b is None:
            return a is None and b is None
        tol = {US: 1.0, MS: 0.001}.get(unit, 0.0)
        return abs(a - b) <= tol or abs(a - b) <= 1e-3 * max(abs(a), abs(b)) or abs(a - b) < 1e-12

    def tri(self, what, ours, theirs, exact, flt, unit=None):
        """ours against TraceLens; when they differ, ours must be the exact
        recomputation and TraceLens' the float64 one (its bug)"""
        if self.close(ours, theirs, unit):
            self.ok += 1
        elif self.close(ours, exact, unit) and self.close(theirs, flt, unit):
            self.differs('float64')
        else:
            self.bad.append('%s: ours %r, TraceLens %r (recomputed: exact %r, float64 %r)' %
                            (what, ours, theirs, exact, flt))

    def eq(self, what, ours, theirs):
        if ours == theirs:
            self.ok += 1
            return True
        self.bad.append('%s: ours %r, TraceLens %r' % (what, ours, theirs))
        return False

    def differs(self, bug, n=1):
        self.bug[bug] += n


def fnum(s):
    if s is None:
        return None
    if isinstance(s, (int, float)):
        return float(s)
    s = s.strip()
    if s in ('', 'nan', 'NaN'):
        return None
    try:
        v = float(s)
    except ValueError:
        return None
    return None if v != v else v


def lit(s):
    """TraceLens' repr() or our JSON of a list, as nested tuples"""
    if s is None or s == '':
        return None
    try:
        v = json.loads(s)
    except ValueError:
        try:
            v = ast.literal_eval(s)
        except (ValueError, SyntaxError):
            return s

    def tup(x):
        return tuple(tup(i) for i in x) if isinstance(x, (list, tuple)) else x
    return tup(v)


def read_csv(path):
    if not os.path.exists(path):
        return None
    with open(path, newline='', encoding='utf-8') as f:
        return list(csv.DictReader(f))


class Tracetop:
    def __init__(self, exe, trace, extra=()):
        self.exe, self.trace, self.extra = exe, trace, list(extra)

    def table(self, name, extra=()):
        cmd = [self.exe, 'report', 'perf-model', '-q', '--format', 'csv', '--table', name]
        cmd += self.extra + list(extra) + [self.trace]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if out.returncode != 0 and b'has no table' in out.stderr:
            return []  # (a sheet without rows)
        if out.returncode != 0:
            sys.exit('tracetop failed: %s\n%s' % (' '.join(cmd), out.stderr.decode()))
        text = out.stdout.decode('utf-8')
        return list(csv.DictReader(io.StringIO(text)))


# ---- the trace, read independently: TraceLens' tree with correlation links ----

def load_events(path):
    op = gzip.open if path.endswith('.gz') else open
    with op(path, 'rt', encoding='utf-8') as f:
        d = json.load(f, parse_float=Decimal)
    return d['traceEvents'] if isinstance(d, dict) else d


def ns(v):
    return int(Decimal(v) * 1000)


def is_comm(name):
    n = name.lower()
    return 'nccl' in n or 'rccl' in n or 'cross_device_reduce' in name


def busy(ivs):
    tot, s, e = 0, None, None
    for a, b in sorted(ivs):
        if s is None or a > e:
            if s is not None:
                tot += e - s
            s, e = a, b
        elif b > e:
            e = b
    return tot + (e - s if s is not None else 0)


def recompute(path, exact=True):
    """TraceLens' definitions recomputed here, with the kernels tied to
    their runtime call by correlation id (not by flow events), in exact ns
    (exact=True, as tracetop) or in float64 µs as TraceLens computes (its
    timestamps at epoch scale are 0.25 µs apart: sub-µs traces lose
    digits).  Returns the GPU timeline of every GPU op and of those a launch
    owns, every launcher instance (name, tid, Input Dims, Input type, direct
    and subtree busy time in µs), and how many GPU ops tracetop and
    TraceLens tie."""
    ev = load_events(path)
    if exact:
        def t(v):
            return ns(v)
        bleed, scale = 1000, 1000.0
    else:
        def t(v):
            return float(v)
        bleed, scale = 1.0, 1.0
    tree_cats = {'cpu_op', 'cuda_runtime', 'cuda_driver'}
    gpu_cats = {'kernel', 'gpu_memcpy', 'gpu_memset'}
    host = [i for i, e in enumerate(ev) if e.get('ph') == 'X' and e.get('cat') in tree_cats
            and 'dur' in e]
    host.sort(key=lambda i: t(ev[i]['ts']))
    parent, stacks = {}, defaultdict(list)
    for i in host:
        e = ev[i]
        ts = t(e['ts'])
        end = ts + t(e['dur'])
        st = stacks[(e.get('pid'), e.get('tid'))]
        while st and ts >= st[-1][1]:
            st.pop()
        if st and end > st[-1][1]:
            if st[-1][1] - ts < bleed and len(st) >= 2:
                st.pop()
            else:
                continue
        parent[i] = st[-1][0] if st else None
        st.append((i, end))
    by_corr = {}
    for i, e in enumerate(ev):
        if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e.get('args', {}):
            by_corr[e['args']['correlation']] = i
    flows = {'s': set(), 'f': {}}
    for e in ev:
        if e.get('cat') == 'ac2g' and e.get('ph') in ('s', 'f'):
            if e['ph'] == 's':
                flows['s'].add(e.get('id'))
            else:
                flows['f'][e.get('id')] = (e.get('pid'), e.get('tid'))
    direct, subtree = defaultdict(list), defaultdict(list)
    classes = {'all': defaultdict(list), 'linked': defaultdict(list)}
    linked_ours, linked_tl = 0, 0
    for i, e in enumerate(ev):
        if e.get('cat') not in gpu_cats or e.get('ph') != 'X':
            continue
        s = t(e['ts'])
        iv = (s, s + t(e['dur']))
        name = e.get('name', '')
        cls = 'memcpy' if e['cat'] == 'gpu_memcpy' else 'comm' if is_comm(name) else 'comp'
        corr = e.get('args', {}).get('correlation')
        rt = by_corr.get(corr)
        for k in ('all',) + (('linked',) if rt is not None else ()):
            classes[k]['all'].append(iv)
            classes[k][cls].append(iv)
        if rt is None:
            continue
        linked_ours += 1
        rname = ev[rt].get('name', '')
        if rname in ('cudaGraphLaunch', 'hipGraphLaunch') or \
                (corr in flows['s'] and flows['f'].get(corr) == (e.get('pid'), e.get('tid'))):
            linked_tl += 1
        p = rt
        while p is not None:
            subtree[p].append(iv)
            p = parent.get(p)
        if is_comm(name):
            continue
        p, launcher = parent.get(rt), None
        while p is not None:
            if ev[p].get('cat') != 'cpu_op':
                break
            if ev[p].get('name') == 'execute':
                p = parent.get(p)
                continue
            launcher = p
            break
        direct[launcher if launcher is not None else rt].append(iv)
    ops = defaultdict(list)  # every cpu_op: its subtree's busy time (µs)
    for i, e in enumerate(ev):
        if e.get('cat') == 'cpu_op' and e.get('ph') == 'X':
            a = e.get('args', {})
            dims, types = a.get('Input Dims'), a.get('Input type')
            ops[(e['name'], tup(dims) if dims is not None else None,
                 tup(types) if types is not None else None)].append(busy(subtree.get(i, [])) / scale)
    launchers = []
    for l, ivs in direct.items():
        a = ev[l].get('args', {})
        launchers.append((ev[l]['name'], ev[l].get('tid'), a.get('Input Dims'), a.get('Input type'),
                          busy(ivs) / scale, busy(subtree[l]) / scale))
    return ({k: timeline(v, scale) for k, v in classes.items()}, launchers, linked_ours, linked_tl,
            ops)


def timeline(c, scale):
    """TraceLens' gpu_timeline of the intervals by class, in ms"""
    def merged(ivs):
        out = []
        for a, b in sorted(ivs):
            if out and a <= out[-1][1]:
                out[-1][1] = max(out[-1][1], b)
            else:
                out.append([a, b])
        return out

    def sub(a, b):  # a minus b, both merged
        res, j = [], 0
        for s, e in a:
            cur = s
            while j < len(b) and b[j][1] <= s:
                j += 1
            k = j
            while k < len(b) and b[k][0] < e:
                if b[k][0] > cur:
                    res.append([cur, min(e, b[k][0])])
                cur = max(cur, b[k][1])
                if cur >= e:
                    break
                k += 1
            if cur < e:
                res.append([cur, e])
        return res

    def tot(v):
        return sum(b - a for a, b in v)
    al, co, cm, mc = (merged(c[k]) for k in ('all', 'comp', 'comm', 'memcpy'))
    if not al:
        return {}
    total = al[-1][1] - al[0][0]
    f = 1000.0 * scale
    return {'computation_time': tot(co) / f, 'exposed_comm_time': tot(sub(cm, co)) / f,
            'exposed_memcpy_time': tot(sub(sub(mc, co), cm)) / f, 'busy_time': tot(al) / f,
            'idle_time': (total - tot(al)) / f, 'total_time': total / f,
            'total_comm_time': tot(cm) / f, 'total_memcpy_time': tot(mc) / f}


# ---- the tables ----

def check_timeline(c, tt, ref, linked_same, ex, fl):
    ours = tt.table('gpu_timeline')
    mine = {r['type']: r for r in ours}
    for fname, col, which in (('extra_gpu_timeline_include_unlinked.csv', 'time ms', 'all'),
                              ('gpu_timeline.csv', 'linked time ms', 'linked')):
        theirs = read_csv(os.path.join(ref, fname))
        if theirs is None:
            continue
        for t in theirs:
            c.rows += 1
            ty = t['type']
            if ty not in mine:
                c.bad.append('gpu_timeline: no row %s' % ty)
                continue
            if which == 'linked' and not linked_same:
                c.differs('flows')
                c.num('%s %s (recomputed)' % (col, ty), mine[ty][col], ex[which].get(ty), MS)
                continue
            c.tri('%s %s' % (fname, ty), mine[ty][col], t['time ms'], ex[which].get(ty),
                  fl[which].get(ty), MS)
    # every set: against the recomputation
    for which, col in (('all', 'time ms'), ('linked', 'linked time ms')):
        for ty, v in ex[which].items():
            c.rows += 1
            c.num('%s %s (recomputed)' % (col, ty), mine.get(ty, {}).get(col), v, MS)


def tid_of(thread):
    """"thread 1262 (pt_autograd_0)" -> "1262": a thread named twice keeps
    its first name in tracetop, its last in TraceLens"""
    parts = (thread or '').split()
    return parts[1] if len(parts) > 1 and parts[0] == 'thread' else thread


def tup(x):
    return tuple(tup(i) for i in x) if isinstance(x, (list, tuple)) else x


def pstats(v):
    """pandas' mean, median, std (ddof 1), min, max, sum"""
    v = sorted(v)
    n = len(v)
    if not n:
        return {}
    mean = sum(v) / n
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    std = (sum((x - mean) ** 2 for x in v) / (n - 1)) ** 0.5 if n > 1 else None
    return {'mean': mean, 'median': med, 'std': std, 'min': v[0], 'max': v[-1], 'sum': sum(v)}


def group(launchers):
    by_name, by_args = defaultdict(list), defaultdict(list)
    for name, tid, dims, types, d, st in launchers:
        by_name[name].append((d, st))
        by_args[(name, str(tid), tup(dims) if dims is not None else None,
                 tup(types) if types is not None else None)].append((d, st))
    return by_name, by_args


def check_launchers(c, tt, ref, linked_same, ex_l, fl_l):
    """returns the launcher names float64 ends give other kernels"""
    f64 = set()
    ex_n, ex_a = group(ex_l)
    fl_n, fl_a = group(fl_l)
    cats = read_csv(os.path.join(ref, 'ops_summary_by_category.csv'))
    ours = tt.table('ops_summary_by_category')
    if cats is not None:
        mine = {r['op category']: r for r in ours}
        for t in cats:
            c.rows += 1
            if not linked_same:
                c.differs('flows')
                continue
            m = mine.get(t['op category'])
            if not m:
                c.bad.append('ops_summary_by_category: no %s' % t['op category'])
                continue
            if m['Count'] != t['Count'] and not c.close(m['total_direct_kernel_time_ms'],
                                                        t['total_direct_kernel_time_ms'], MS):
                # an op's kernels moved to another launcher by float64 ends
                c.differs('float64', 2)
                continue
            c.eq('category %s Count' % t['op category'], m['Count'], t['Count'])
            c.num('category %s time' % t['op category'], m['total_direct_kernel_time_ms'],
                  t['total_direct_kernel_time_ms'], MS)
    ops = read_csv(os.path.join(ref, 'ops_summary.csv'))
    ours = tt.table('ops_summary')
    mine = {r['name']: r for r in ours}
    if ops is not None:
        for t in ops:
            c.rows += 1
            n = t['name']
            if not linked_same:
                c.differs('flows')
                continue
            m = mine.get(n)
            xs, fs = ex_n.get(n, []), fl_n.get(n, [])
            if not m:
                if n not in ex_n and len(fs) == int(t['Count']):
                    c.differs('float64', 3)  # a launcher only float64 ends make
                    f64.add(n)
                else:
                    c.bad.append('ops_summary: no %s' % n)
                continue
            if m['Count'] != t['Count'] and int(m['Count']) == len(xs) and \
                    int(t['Count']) == len(fs):
                c.differs('float64')
                f64.add(n)
            else:
                c.eq('%s Count' % n, m['Count'], t['Count'])
            c.tri('%s direct' % n, m['total_direct_kernel_time_sum'],
                  t['total_direct_kernel_time_sum'], sum(d for d, _ in xs), sum(d for d, _ in fs), US)
            c.tri('%s subtree' % n, m['total_subtree_kernel_time_sum'],
                  t['total_subtree_kernel_time_sum'], sum(s for _, s in xs), sum(s for _, s in fs), US)
            c.eq('%s Categories' % n, m['Categories'], t['Categories'])
    # every set: tracetop's launchers against the recomputation (kernels
    # tied by correlation, exact ns)
    for n, v in sorted(ex_n.items()):
        c.rows += 1
        m = mine.get(n)
        if not m:
            c.bad.append('ops_summary: no launcher %s (recomputed: %d ops)' % (n, len(v)))
            continue
        c.eq('%s Count (recomputed)' % n, int(m['Count']), len(v))
        c.num('%s direct (recomputed)' % n, m['total_direct_kernel_time_sum'],
              sum(d for d, _ in v), US)
        c.num('%s subtree (recomputed)' % n, m['total_subtree_kernel_time_sum'],
              sum(s for _, s in v), US)
    if len(mine) != len(ex_n):
        c.bad.append('ops_summary: %d launcher names, recomputed %d' % (len(mine), len(ex_n)))
    uniq = read_csv(os.path.join(ref, 'ops_unique_args.csv'))
    ours = tt.table('ops_unique_args')

    def key(r):
        return (r['name'], tid_of(r['thread_name']), lit(r['Input Dims']), lit(r['Input type']))
    mine = {key(r): r for r in ours}
    for k, v in ex_a.items():
        c.rows += 1
        m = mine.get(k)
        if not m:
            c.bad.append('ops_unique_args: no row %r (recomputed)' % (k,))
            continue
        c.eq('%s operation_count (recomputed)' % k[0], int(m['operation_count']), len(v))
        for p, i in (('total_direct_kernel_time_', 0), ('total_subtree_kernel_time_', 1)):
            st = pstats([x[i] for x in v])
            for s in ('mean', 'median', 'std', 'min', 'max', 'sum'):
                c.num('%s %s%s (recomputed)' % (k[0], p, s), m[p + s], st[s], US)
    if uniq is None:
        return f64
    for t in uniq:
        c.rows += 1
        if not linked_same:
            c.differs('flows')
            continue
        k = key(t)
        m = mine.get(k)
        xs, fs = ex_a.get(k, []), fl_a.get(k, [])
        label = '%s %s' % (t['name'], t['Input Dims'][:40])
        if not m:
            if k not in ex_a and len(fs) == int(t['operation_count']):
                c.differs('float64')
            else:
                c.bad.append('ops_unique_args: no row %r' % (k,))
            continue
        if m['operation_count'] != t['operation_count'] and len(fs) == int(t['operation_count']):
            c.differs('float64')
        else:
            c.eq(label + ' operation_count', m['operation_count'], t['operation_count'])
        for p, i in (('total_direct_kernel_time_', 0), ('total_subtree_kernel_time_', 1)):
            sx, sf = pstats([x[i] for x in xs]), pstats([x[i] for x in fs])
            for s in ('mean', 'median', 'std', 'min', 'max', 'sum'):
                c.tri(label + ' ' + p + s, m[p + s], t[p + s], sx.get(s), sf.get(s), US)
        c.eq(label + ' op category', m['op category'], t['op category'])
    return f64


def sheet_key(r):
    ps = tuple((k, r[k]) for k in sorted(r) if k.startswith('param: '))
    return (r['name'],) + ps


def check_sheets(c, tt, ref, linked_same, roof_ref, peaks, ex_ops):
    for fname in sorted(os.listdir(ref)):
        if not fname.endswith('.csv'):
            continue
        sheet = fname[:-4]
        if sheet not in ('GEMM', 'CONV_fwd', 'CONV_bwd', 'SDPA_fwd', 'SDPA_bwd', 'Normalization',
                         'UnaryElementwise', 'BinaryElementwise', 'Reduce_fwd', 'Reduce_bwd'):
            continue
        theirs = read_csv(os.path.join(ref, fname))
        ours = tt.table(sheet)
        mine = {sheet_key(r): r for r in ours}
        rtheirs = None
        if roof_ref and os.path.exists(os.path.join(roof_ref, fname)):
            rtheirs = {sheet_key(r): r for r in read_csv(os.path.join(roof_ref, fname))}
            rours = {sheet_key(r): r for r in
                     tt.table(sheet, ['--peaks', peaks, '--gpu-type', 'TraceLens MI300X'])}
        for t in theirs:
            c.rows += 1
            k = sheet_key(t)
            label = '%s %s %s' % (sheet, t['name'], t['Input Dims_first'][:50])
            if t['Input Dims_first'] == '':
                # no shapes recorded: TraceLens' row has no FLOPs (0) and
                # no bytes; tracetop models nothing without shapes
                if k in mine:
                    c.bad.append(label + ': a row without shapes')
                c.differs('noshapes')
                continue
            m = mine.get(k)
            if not m:
                c.bad.append('%s: no row %r' % (sheet, k))
                continue
            for col in ('GFLOPS_first', 'Data Moved (MB)_first', 'FLOPS/Byte_first'):
                c.num(label + ' ' + col, m[col], t[col])
            c.eq(label + ' name_count', m['name_count'], t['name_count'])
            if m['Compute Spec'] != t['Compute Spec'] and m['Compute Spec'] == 'matrix_tf32' \
                    and t['Compute Spec'] == 'matrix_fp32':
                c.differs('tf32')
            else:
                c.eq(label + ' Compute Spec', m['Compute Spec'], t['Compute Spec'])
            timed = ['Kernel Time (µs)_' + s for s in ('mean', 'median', 'std', 'min', 'max', 'sum')]
            rates = [p + s for p in ('TFLOPS/s_', 'TB/s_')
                     for s in ('mean', 'median', 'std', 'min', 'max')]
            if not linked_same:
                # TraceLens' kernel times miss the kernels it could not tie:
                # ours against the recomputation (when the row is one
                # Input Dims and type)
                c.differs('flows', len(timed) + len(rates))
                v = ex_ops.get((t['name'], lit(t['Input Dims_first']), lit(t['Input type_first'])))
                if sheet not in ('Reduce_bwd', 'SDPA_bwd') and v is not None and \
                        len(v) == int(m['name_count']):
                    st = pstats(v)
                    for s in ('mean', 'median', 'std', 'min', 'max', 'sum'):
                        c.num(label + ' Kernel Time (µs)_%s (recomputed)' % s,
                              m['Kernel Time (µs)_' + s], st[s], US)
                continue
            for col in timed:
                c.num(label + ' ' + col, m[col], t[col], US)
            for col in rates:
                c.num(label + ' ' + col, m[col], t[col])
            if rtheirs is not None and k in rtheirs:
                rt, ro = rtheirs[k], rours.get(k)
                if ro is None:
                    c.bad.append(label + ': no roofline row')
                    continue
                c.num(label + ' Roofline Time', ro['Roofline Time (µs)_first'],
                      rt['Roofline Time (µs)_first'])
                c.eq(label + ' Roofline Bound', ro['Roofline Bound_first'],
                     rt['Roofline Bound_first'])
                for s in ('mean', 'median', 'std', 'min', 'max'):
                    c.num(label + ' Pct Roofline_' + s, ro['Pct Roofline_' + s],
                          rt['Pct Roofline_' + s])
        # tracetop's rows TraceLens has not
        extra = [k for k in mine if k not in {sheet_key(t) for t in theirs}]
        if extra:
            c.bad.append('%s: %d rows TraceLens has not, e.g. %r' % (sheet, len(extra), extra[0]))
    # the sheets TraceLens cannot make without Input Strides
    for sheet in ('UnaryElementwise', 'BinaryElementwise', 'Normalization'):
        if os.path.exists(os.path.join(ref, sheet + '.csv')):
            continue
        rows = tt.table(sheet)
        if rows and all(r['Input Strides_first'] == '' for r in rows):
            c.rows += len(rows)
            c.differs('strides', len(rows))


def check_kernels(c, tt, ref, linked_same, f64):
    theirs = read_csv(os.path.join(ref, 'kernel_summary.csv'))
    if theirs is None:
        return
    ours = tt.table('kernel_summary')
    # per kernel name and stream: independent of the launch links
    agg_t, agg_o = defaultdict(lambda: [0.0, 0]), defaultdict(lambda: [0.0, 0])
    for r in theirs:
        a = agg_t[(r['Kernel name'], r['Kernel stream'])]
        a[0] += float(r['Kernel duration (µs)_sum'])
        a[1] += int(r['Kernel duration (µs)_count'])
    for r in ours:
        a = agg_o[(r['Kernel name'], r['Kernel stream'])]
        a[0] += float(r['Kernel duration (µs)_sum'])
        a[1] += int(r['Kernel duration (µs)_count'])
    for k, (s, n) in agg_t.items():
        c.rows += 1
        if k not in agg_o:
            c.bad.append('kernel_summary: no kernel %r' % (k,))
            continue
        c.num('kernel %s sum' % k[0][:40], agg_o[k][0], s, US)
        c.eq('kernel %s count' % k[0][:40], agg_o[k][1], n)
    moved = {(r['Kernel name'], r['Kernel stream']) for r in theirs if r['Parent cpu_op'] in f64}
    if len(agg_o) != len(agg_t):
        c.bad.append('kernel_summary: %d kernels, TraceLens %d' % (len(agg_o), len(agg_t)))
    # the full rows, where the links agree
    mine = {(r['Parent op category'], r['Parent cpu_op'], r['Kernel name'], r['Kernel stream']): r
            for r in ours}
    for t in theirs:
        c.rows += 1
        if not linked_same:
            c.differs('flows')
            continue
        k = (t['Parent op category'], t['Parent cpu_op'], t['Kernel name'], t['Kernel stream'])
        m = mine.get(k)
        if (t['Kernel name'], t['Kernel stream']) in moved and \
                (not m or m['Kernel duration (µs)_count'] != t['Kernel duration (µs)_count']):
            c.differs('float64')
            continue
        if not m:
            c.bad.append('kernel_summary: no row %r' % ((k[:2] + (k[2][:40],)),))
            continue
        for col in ('sum', 'mean', 'min', 'max'):
            c.num('%s %s' % (k[2][:40], col), m['Kernel duration (µs)_' + col],
                  t['Kernel duration (µs)_' + col], US)
        c.eq('%s count' % k[2][:40], m['Kernel duration (µs)_count'],
             t['Kernel duration (µs)_count'])
        c.num('%s pct' % k[2][:40], m['Percent of kernels time (%)'],
              t['Percent of kernels time (%)'])


def check_short(c, tt, ref):
    hist = read_csv(os.path.join(ref, 'short_kernel_histogram.csv'))
    if hist is None:
        return
    ours = tt.table('short_kernel_histogram')
    c.rows += len(hist)
    if len(ours) != len(hist):
        c.bad.append('short_kernel_histogram: %d bins, TraceLens %d' % (len(ours), len(hist)))
        return
    for i, (m, t) in enumerate(zip(ours, hist)):
        c.num('bin %d start' % i, m['bin_start'], t['bin_start'])
        c.num('bin %d end' % i, m['bin_end'], t['bin_end'])
        c.eq('bin %d count' % i, m['count'], t['count'])
    summ = read_csv(os.path.join(ref, 'short_kernels_summary.csv'))
    rows = tt.table('short_kernels_summary')
    n_hist = sum(int(t['count']) for t in hist)
    n_ours = sum(int(r['Short Kernel count']) for r in rows)
    c.rows += 1
    c.eq('short kernels: count over rows vs the histogram', n_ours, n_hist)
    if summ is not None and len(summ) <= 1:
        # TraceLens' summary lost every row (pandas dropna on missing keys)
        c.differs('dropna', len(rows))


def check_collectives(c, exe, set_dir, ref_dir):
    """TraceLens' multi-rank report (collective/): its nccl_long has every
    communication kernel of every rank and the collective it matched it
    to; its nccl_implicit_sync (latency, skews, bandwidth) is empty on
    traces without Collective name (pandas' groupby drops rows whose keys
    are missing, its bug): its definitions are applied here to nccl_long
    (latency: the shortest duration over the ranks; start and end skew;
    first and last rank) and compared with tracetop's collectives, joined
    on the earliest start"""
    longf = os.path.join(ref_dir, 'collective', 'nccl_long.csv')
    rows = read_csv(longf)
    if rows is None:
        return 0
    sync = read_csv(os.path.join(ref_dir, 'collective', 'nccl_implicit_sync.csv'))
    tt = Tracetop(exe, set_dir)
    ours = tt.table('collective_bandwidth')
    by_first = {}
    for r in ours:
        if r['first_ts(us)']:
            by_first[round(float(r['first_ts(us)']))] = r
    groups = defaultdict(list)
    for r in rows:
        groups[r['collective_id']].append(r)
    n = 0
    for cid, rs in sorted(groups.items()):
        c.rows += 1
        ts = [(float(r['ts']), int(r['rank']), float(r['dur'])) for r in rs]
        first = min(ts)
        m = by_first.get(round(first[0]))
        if not m:
            c.bad.append('collective %s: no collective of tracetop starts at %r' % (cid, first[0]))
            continue
        n += 1
        lat = min(d for _, _, d in ts)
        starts = [t for t, _, _ in ts]
        ends = [t + d for t, _, d in ts]
        c.num('%s latency' % cid, m['latency(us)'], lat, US)
        c.eq('%s ranks' % cid, int(m['ranks_loaded']), len(ts))
        c.num('%s start skew' % cid, m['start_skew(us)'], max(starts) - min(starts), US)
        c.num('%s end skew' % cid, m['end_skew(us)'], max(ends) - min(ends), US)
        c.eq('%s first rank' % cid, int(m['first_rank']), first[1])
        if m['last_rank']:
            c.eq('%s last rank' % cid, int(m['last_rank']), max(ts)[1])
        else:
            # not a TraceLens bug: tracetop names no last rank where the
            # ranks disagree on the collective's name or size (flag mismatch)
            c.skip['last rank: ranks disagree on name or size'] += 1
    if sync is not None and not sync and groups:
        c.differs('dropna', len(groups))
    return n


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    exe, set_dir, ref_dir, peaks = argv
    meta = json.load(open(os.path.join(ref_dir, 'meta.json')))
    status = {}
    for call in meta['calls']:
        status[(call['name'], call['dir'])] = call['status']
    total = Cmp('all')
    lines = []
    rc = 0
    for fname in sorted(meta['files']):
        stem = fname[:-3] if fname.endswith('.gz') else fname
        stem = stem[:-5] if stem.endswith('.json') else stem
        perf = os.path.join(ref_dir, 'perf', stem)
        trace = os.path.join(set_dir, fname)
        c = Cmp(stem)
        tt = Tracetop(exe, trace)
        ok = status.get(('perf_report', 'perf/' + stem)) == 'ok'
        gpu_tl = os.path.exists(os.path.join(perf, 'extra_gpu_timeline_include_unlinked.csv'))
        if not ok and not gpu_tl:
            # no GPU ops at all: TraceLens fails; tracetop's tables are empty
            rows = tt.table('ops_summary')
            c.eq('no GPU ops: launchers', len(rows), 0)
            lines.append('%s: TraceLens fails (%s); tracetop: no GPU ops, %d launchers' %
                         (stem, 'No GPU events found', len(rows)))
            total.ok += c.ok
            total.bad += c.bad
            continue
        ex_tl, ex_l, linked_ours, linked_tl, ex_ops = recompute(trace, True)
        fl_tl, fl_l, _, _, _ = recompute(trace, False)
        linked_same = ok and linked_ours == linked_tl
        check_timeline(c, tt, perf, linked_same, ex_tl, fl_tl)
        f64 = check_launchers(c, tt, perf, linked_same, ex_l, fl_l)
        if ok:
            roof = os.path.join(ref_dir, 'perf-roofline-MI300X', stem)
            check_sheets(c, tt, perf, linked_same, roof if os.path.isdir(roof) else None, peaks,
                         ex_ops)
            check_kernels(c, tt, perf, linked_same, f64)
            check_short(c, tt, perf)
        why = []
        if not ok:
            why.append('TraceLens fails: No GPU events found (kernels tied by flows only)')
        if linked_ours != linked_tl:
            why.append('TraceLens ties %d of the %d GPU ops tracetop ties by correlation' %
                       (linked_tl, linked_ours))
        bugs = ', '.join('%s (%d values)' % (b, n) for b, n in sorted(c.bug.items()) if n)
        lines.append('%s: %d rows, %d values matched%s%s%s' % (
            stem, c.rows, c.ok, ', %d differ' % len(c.bad) if c.bad else '',
            '; TraceLens bugs: ' + bugs if bugs else '', '; ' + '; '.join(why) if why else ''))
        if ok and c.ok == 0:
            rc = max(rc, 2)
        total.rows += c.rows
        total.ok += c.ok
        total.bad += c.bad
        for b, n in c.bug.items():
            total.bug[b] += n
    if os.path.isdir(os.path.join(ref_dir, 'collective')):
        c = Cmp('collectives')
        n = check_collectives(c, exe, set_dir, ref_dir)
        bugs = ', '.join('%s (%d values)' % (b, k) for b, k in sorted(c.bug.items()) if k)
        skips = ', '.join('%s (%d values)' % (b, k) for b, k in sorted(c.skip.items()) if k)
        lines.append('collectives: %d of %d matched by TraceLens compared, %d values matched%s%s%s' % (
            n, c.rows, c.ok, ', %d differ' % len(c.bad) if c.bad else '',
            '; TraceLens bugs: ' + bugs if bugs else '', '; not compared: ' + skips if skips else ''))
        if n == 0:
            rc = max(rc, 2)
        total.rows += c.rows
        total.ok += c.ok
        total.bad += c.bad
        for b, k in c.bug.items():
            total.bug[b] += k
    bugs = sum(total.bug.values())
    print('%d rows, %d values matched%s%s' % (
        total.rows, total.ok, ', %d differ' % len(total.bad) if total.bad else '',
        ', %d differ on purpose' % bugs if bugs else ''))
    for l in lines:
        print('  ' + l)
    for b in total.bad[:40]:
        print('  MISMATCH ' + b)
    if total.bad:
        rc = 1
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
