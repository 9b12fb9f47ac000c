/* src/analysis/tbviews.c: the TensorBoard views (issue 9) */
#include "config.h"
