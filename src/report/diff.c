/* placeholder: replaced by the analysis report */
#include "config.h"

#include "tracetop/report.h"

int tt_report_diff(const struct tt_model *a, const struct tt_model *b,
		   const struct tt_report_opts *o, struct tt_table ***out, size_t *n,
		   struct tt_err *err)
{
	(void)a;
	(void)b;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report diff is not built yet");
}
