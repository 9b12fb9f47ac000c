/* placeholder: the many-ranks views (issue 10) replace this file */
#include "config.h"

#include "tracetop/report.h"

int tt_report_outliers(const struct tt_model *m, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)m;
	(void)o;
	(void)out;
	(void)n;
	return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "report outliers is not built yet");
}
