/* placeholder: replaced by the analysis report */
#include "config.h"

#include "tracetop/report.h"

int tt_report_temporal(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report temporal is not built yet");
}

int tt_report_overlap(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report overlap is not built yet");
}

int tt_report_kernels(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report kernels is not built yet");
}

