/* placeholder: the TensorBoard views (issue 9) replace this file */
#include "config.h"

#include "tracetop/report.h"

int tt_report_utilization(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report utilization is not built yet");
}

int tt_report_distributed(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report distributed is not built yet");
}

int tt_report_operators(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report operators is not built yet");
}

int tt_report_memory(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report memory is not built yet");
}

int tt_report_source(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report source is not built yet");
}

int tt_report_steps(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report steps is not built yet");
}

int tt_report_advice(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report advice is not built yet");
}

