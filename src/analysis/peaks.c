/* GPU peaks: the built-in table, a user's file, and the lookup by the
 * trace's deviceProperties name.
 *
 * Dense peaks (no structured sparsity), TFLOP/s, from each vendor's spec
 * sheet as cited in the row; memory bandwidth in GB/s (10^9 bytes/s).
 * matrix_*: tensor cores / matrix cores; vector_*: the CUDA cores / SIMD
 * units.  NVIDIA has no fp32 matrix unit: fp32 GEMMs without TF32 run on the
 * CUDA cores, so matrix_fp32 is the fp32 peak.  A 0 means the GPU has no
 * such unit (no bf16 on V100, no fp8 before Hopper/Ada/CDNA3).
 * MI250X and MI250 rows are one GCD, the device PyTorch sees (the sheet's
 * figures are for the two GCDs of one package). */
#include "config.h"

#include "tracetop/perfmodel.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/testing.h"
#include "tracetop/util.h"

/* the columns of a row: matrix fp64 fp32 tf32 fp16 bf16 fp8 int8, vector fp64 fp32 fp16 bf16 */
#define PEAKS(m64, m32, tf32, m16, b16, f8, i8, v64, v32)                              \
	{                                                                               \
		[TT_PMSPEC_MATRIX_FP64] = m64, [TT_PMSPEC_MATRIX_FP32] = m32,          \
		[TT_PMSPEC_MATRIX_TF32] = tf32, [TT_PMSPEC_MATRIX_FP16] = m16,         \
		[TT_PMSPEC_MATRIX_BF16] = b16, [TT_PMSPEC_MATRIX_FP8] = f8,            \
		[TT_PMSPEC_MATRIX_INT8] = i8, [TT_PMSPEC_VECTOR_FP64] = v64,           \
		[TT_PMSPEC_VECTOR_FP32] = v32                                           \
	}

static const struct tt_gpu_peak builtin[] = {
	/* NVIDIA Tesla V100 datasheet (PCIe and SXM2), 2020: SXM2 7.8 FP64, 15.7
	 * FP32, 125 Tensor; PCIe 7 / 14 / 112; HBM2 900 GB/s; V100S PCIe 8.2 /
	 * 16.4 / 130, 1134 GB/s */
	{"V100S PCIe", "V100S", 0, 1134, PEAKS(8.2, 16.4, 0, 130, 0, 0, 0, 8.2, 16.4),
	 "NVIDIA V100S datasheet"},
	{"V100 PCIe", "V100&PCIE", 0, 900, PEAKS(7, 14, 0, 112, 0, 0, 0, 7, 14),
	 "NVIDIA Tesla V100 datasheet"},
	{"V100 SXM2", "V100", 0, 900, PEAKS(7.8, 15.7, 0, 125, 0, 0, 0, 7.8, 15.7),
	 "NVIDIA Tesla V100 datasheet"},
	/* NVIDIA A100 datasheet (2021): FP64 9.7, FP64 Tensor 19.5, FP32 19.5,
	 * TF32 156, BF16/FP16 312, INT8 624 (dense); HBM2 40 GB 1555 GB/s,
	 * HBM2e 80 GB: SXM 2039, PCIe 1935 GB/s */
	{"A100 PCIe 80GB", "A100&PCIE", 60, 1935, PEAKS(19.5, 19.5, 156, 312, 312, 0, 624, 9.7, 19.5),
	 "NVIDIA A100 datasheet"},
	{"A100 PCIe 40GB", "A100&PCIE", 0, 1555, PEAKS(19.5, 19.5, 156, 312, 312, 0, 624, 9.7, 19.5),
	 "NVIDIA A100 datasheet"},
	{"A100 SXM4 80GB", "A100", 60, 2039, PEAKS(19.5, 19.5, 156, 312, 312, 0, 624, 9.7, 19.5),
	 "NVIDIA A100 datasheet"},
	{"A100 SXM4 40GB", "A100", 0, 1555, PEAKS(19.5, 19.5, 156, 312, 312, 0, 624, 9.7, 19.5),
	 "NVIDIA A100 datasheet"},
	/* NVIDIA H100 datasheet (2023; tensor figures there are with sparsity,
	 * halved here): SXM FP64 34, FP64 Tensor 67, FP32 67, TF32 494.5,
	 * BF16/FP16 989.5, FP8/INT8 1979, HBM3 3.35 TB/s; PCIe 26 / 51 / 51 /
	 * 378 / 756 / 1513, 2 TB/s; NVL 30 / 60 / 60 / 417.5 / 835.5 /
	 * 1670.5, 3.9 TB/s */
	{"H100 PCIe", "H100&PCIE", 0, 2000, PEAKS(51, 51, 378, 756, 756, 1513, 1513, 26, 51),
	 "NVIDIA H100 datasheet"},
	{"H100 NVL", "H100&NVL", 0, 3900, PEAKS(60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5, 30, 60),
	 "NVIDIA H100 datasheet"},
	{"H100 SXM", "H100|H800", 0, 3350,
	 PEAKS(67, 67, 494.5, 989.5, 989.5, 1979, 1979, 34, 67), "NVIDIA H100 datasheet"},
	/* NVIDIA H200 datasheet (2024): SXM as H100 SXM, HBM3e 4.8 TB/s; NVL
	 * as H100 NVL, 4.8 TB/s */
	{"H200 NVL", "H200&NVL", 0, 4800, PEAKS(60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5, 30, 60),
	 "NVIDIA H200 datasheet"},
	{"H200 SXM", "H200", 0, 4800, PEAKS(67, 67, 494.5, 989.5, 989.5, 1979, 1979, 34, 67),
	 "NVIDIA H200 datasheet"},
	/* NVIDIA HGX B200 spec table (8 GPUs, tensor figures with sparsity):
	 * per GPU FP64/FP64 Tensor 37, FP32 75, TF32 1125, FP16/BF16 2250,
	 * FP8/INT8 4500 (dense), HBM3e 8 TB/s */
	{"B200", "B200", 0, 8000, PEAKS(37, 75, 1125, 2250, 2250, 4500, 4500, 37, 75),
	 "NVIDIA HGX B200 specifications"},
	/* NVIDIA L40S datasheet (2023, dense): FP32 91.6, TF32 183, BF16/FP16
	 * 362.05, FP8 733, INT8 733, GDDR6 864 GB/s; no FP64 figure (1/64 rate) */
	{"L40S", "L40S", 0, 864, PEAKS(0, 91.6, 183, 362.05, 362.05, 733, 733, 0, 91.6),
	 "NVIDIA L40S datasheet"},
	/* NVIDIA Ada Lovelace whitepaper v1.1, RTX 4090 (dense, FP32
	 * accumulate as PyTorch's GEMMs): FP32 82.6, TF32 82.6, FP16/BF16
	 * 165.2, FP8 330.3, INT8 660.6, GDDR6X 1008 GB/s */
	{"RTX 4090", "4090", 0, 1008, PEAKS(0, 82.6, 82.6, 165.2, 165.2, 330.3, 660.6, 0, 82.6),
	 "NVIDIA Ada Lovelace GPU architecture whitepaper"},
	/* AMD Instinct MI250X datasheet: FP64/FP32 vector 47.9, FP64/FP32
	 * matrix 95.7, FP16/BF16 383, INT8 383, HBM2e 3.2768 TB/s: one GCD
	 * (of two) below; MI250: 45.3 / 90.5 / 362.1, 3.2768 TB/s */
	{"MI250X (one GCD)", "MI250X", 0, 1638.4,
	 PEAKS(47.85, 47.85, 0, 191.5, 191.5, 0, 191.5, 23.95, 23.95), "AMD Instinct MI250X datasheet"},
	{"MI250 (one GCD)", "MI250", 0, 1638.4,
	 PEAKS(45.25, 45.25, 0, 181.05, 181.05, 0, 181.05, 22.65, 22.65), "AMD Instinct MI250 datasheet"},
	/* AMD Instinct MI300X datasheet (dense): FP64 vector 81.7, FP64 matrix
	 * 163.4, FP32 163.4, TF32 653.7, FP16/BF16 1307.4, FP8/INT8 2614.9,
	 * HBM3 5.3 TB/s */
	{"MI300X", "MI300X", 0, 5300,
	 PEAKS(163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9, 81.7, 163.4),
	 "AMD Instinct MI300X datasheet"},
	/* AMD Instinct MI325X datasheet: compute as MI300X, HBM3E 6 TB/s */
	{"MI325X", "MI325X", 0, 6000,
	 PEAKS(163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9, 81.7, 163.4),
	 "AMD Instinct MI325X datasheet"},
};

const struct tt_gpu_peak *tt_gpu_peaks(size_t *n)
{
	*n = TT_ARRAY_SIZE(builtin);
	return builtin;
}

double tt_gpu_peak_of(const struct tt_gpu_peak *g, int spec, bool *fallback)
{
	if (fallback)
		*fallback = false;
	if (!g || spec < 0 || spec >= TT_PM_NSPEC)
		return 0;
	double v = g->tflops[spec];
	if (v > 0)
		return v;
	int alt = TT_PMSPEC_NONE;
	if (spec == TT_PMSPEC_MATRIX_TF32)
		alt = TT_PMSPEC_MATRIX_FP32;
	else if (spec == TT_PMSPEC_VECTOR_FP16 || spec == TT_PMSPEC_VECTOR_BF16)
		alt = TT_PMSPEC_VECTOR_FP32;
	if (alt == TT_PMSPEC_NONE || !(g->tflops[alt] > 0))
		return 0;
	if (fallback)
		*fallback = true;
	return g->tflops[alt];
}

/* ---- the user's file ---- */

#define MAX_ROWS 256
#define MAX_LINE 1024

struct tt_gpu_table {
	struct tt_gpu_peak *rows;
	size_t n;
	char **strs; /* every string the rows hold */
	size_t nstrs, cstrs;
};

static const char *keep(struct tt_gpu_table *t, const char *s)
{
	char *c = tt_strdup(s);
	TT_GROW(t->strs, t->cstrs, t->nstrs + 1);
	t->strs[t->nstrs++] = c;
	return c;
}

void tt_gpu_table_free(struct tt_gpu_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->rows);
	free(t);
}

struct tt_gpu_table *tt_gpu_table_load(const char *path, struct tt_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "%s", strerror(errno));
		return NULL;
	}
	struct tt_gpu_table *t = tt_calloc(1, sizeof(*t));
	t->rows = tt_calloc(MAX_ROWS, sizeof(*t->rows));
	char line[MAX_LINE + 2];
	unsigned lineno = 0;
	struct tt_gpu_peak *cur = NULL;
	const char *bad = NULL;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			bad = "a line longer than 1024 bytes";
			break;
		}
		char *c = strpbrk(line, ";#");
		if (c)
			*c = '\0';
		char *s = tt_trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (!e || e == s + 1) {
				bad = "a section is [GPU NAME]";
				break;
			}
			*e = '\0';
			if (t->n >= MAX_ROWS) {
				bad = "more than 256 GPUs";
				break;
			}
			cur = &t->rows[t->n++];
			cur->name = keep(t, tt_trim(s + 1));
			cur->match = cur->name;
			cur->source = path;
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq) {
			bad = "expected KEY = VALUE";
			break;
		}
		if (!cur) {
			bad = "a value before the first [GPU NAME]";
			break;
		}
		*eq = '\0';
		char *k = tt_trim(s), *v = tt_trim(eq + 1);
		if (strcmp(k, "match") == 0) {
			cur->match = keep(t, v);
		} else if (strcmp(k, "source") == 0) {
			cur->source = keep(t, v);
		} else {
			char *e;
			errno = 0;
			double d = strtod(v, &e);
			if (e == v || *e || errno || !(d >= 0) || d > 1e9) {
				bad = "a number of TFLOP/s or GB/s (0 or more)";
				break;
			}
			int spec = tt_pm_spec_of(k);
			if (strcmp(k, "mem_bw_gbps") == 0)
				cur->mem_gbps = d;
			else if (strcmp(k, "min_mem_gib") == 0)
				cur->min_mem_gib = d;
			else if (spec != TT_PMSPEC_NONE)
				cur->tflops[spec] = d;
			else {
				bad = "an unknown key (match, source, mem_bw_gbps, min_mem_gib, or a "
				      "compute class such as matrix_bf16)";
				break;
			}
		}
	}
	fclose(f);
	if (bad) {
		tt_err_set(err, TT_E_USAGE, path, TT_NO_OFFSET, "line %u: %s", lineno, bad);
		tt_gpu_table_free(t);
		return NULL;
	}
	return t;
}

/* ---- lookup ---- */

static bool has_ci(const char *hay, const char *needle, size_t n)
{
	if (!n)
		return true;
	for (const char *h = hay; *h; h++) {
		size_t i = 0;
		while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return false;
}

/* "A&B|C": (A and B) or C, as case-insensitive substrings of name */
static bool matches(const char *name, const char *m)
{
	while (*m) {
		const char *alt_end = strchr(m, '|');
		if (!alt_end)
			alt_end = m + strlen(m);
		bool all = true;
		const char *p = m;
		while (p < alt_end) {
			const char *e = memchr(p, '&', (size_t)(alt_end - p));
			if (!e)
				e = alt_end;
			const char *a = p, *b = e;
			while (a < b && isspace((unsigned char)*a))
				a++;
			while (b > a && isspace((unsigned char)b[-1]))
				b--;
			if (!has_ci(name, a, (size_t)(b - a)))
				all = false;
			p = e < alt_end ? e + 1 : e;
		}
		if (all)
			return true;
		m = *alt_end ? alt_end + 1 : alt_end;
	}
	return false;
}

static const struct tt_gpu_peak *find(const struct tt_gpu_peak *rows, size_t n,
				      const char *devname, int64_t mem_bytes, const char *force)
{
	for (size_t i = 0; i < n; i++) {
		const struct tt_gpu_peak *g = &rows[i];
		if (force) {
			if (has_ci(g->name, force, strlen(force)))
				return g;
			continue;
		}
		if (!devname || !*devname || !matches(devname, g->match))
			continue;
		if (g->min_mem_gib > 0 &&
		    !(mem_bytes > 0 && (double)mem_bytes >= g->min_mem_gib * 1073741824.0))
			continue;
		return g;
	}
	return NULL;
}

const struct tt_gpu_peak *tt_gpu_lookup(const struct tt_gpu_table *u, const char *devname,
					int64_t mem_bytes, const char *force)
{
	const struct tt_gpu_peak *g = NULL;
	if (u)
		g = find(u->rows, u->n, devname, mem_bytes, force);
	if (!g)
		g = find(builtin, TT_ARRAY_SIZE(builtin), devname, mem_bytes, force);
	return g;
}
