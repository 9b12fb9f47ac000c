/* analysis: the TensorBoard profiler plugin's views, one header each.
 *
 *   utilization.h  tt_util_compute()   GPU utilisation, SM efficiency, occupancy
 *   steps.h        tt_steps_compute()  ProfilerStep#N windows per rank
 *   distributed.h  tt_dist_compute()   computation / communication, collectives
 *   operators.h    tt_ops_compute()    host and device time per operator
 *   memory.h       tt_mem_compute()    [memory] curves, peaks, live allocations
 *   source.h       tt_src_compute()    the Python stacks of operators
 *
 * Rank indices (into model->ranks) and event indices (into rank->ev) are
 * kept in the results for drill-down. */
#ifndef TRACETOP_TBVIEWS_H
#define TRACETOP_TBVIEWS_H

#include "tracetop/distributed.h"
#include "tracetop/overview.h"
#include "tracetop/memory.h"
#include "tracetop/operators.h"
#include "tracetop/source.h"
#include "tracetop/steps.h"
#include "tracetop/utilization.h"

#endif
