/* placeholder: replaced by the analysis report */
#include "config.h"

#include "tracetop/report.h"

int tt_report_counters(const struct tt_model *m, const struct tt_report_opts *o,
		  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report counters is not built yet");
}


int tt_counters_write(const struct tt_model *m, const struct tt_report_opts *o,
		      const char *out_path, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out_path;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "counters output is not built yet");
}
