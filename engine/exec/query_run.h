// The objects one run of a compiled query works on: its $n values as the generated code reads
// them, the scan slots bound to those values, the query context (string heaps per worker) and
// the query state (scanners per worker, result buffer). Made for each run; a prepared
// statement of a single-pipeline plan (a point lookup) keeps them between its runs and
// restarts them, which allocates next to nothing (issue 10, bench/RESULTS.md "Primary-key
// point lookups through a prepared statement").
//
// Kept objects are reused by the statement's next run, so runs of one prepared statement
// must not overlap: a prepared statement belongs to its connection, whose statements run one
// at a time (engine/api/database.h).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/exec/query_executor.h"
#include "engine/exec/query_state.h"
#include "runtime/parameter_slot.h"
#include "runtime/query_context.h"

namespace floe {

class QueryRun {
 public:
  // For a run over `slots` (the physical description's) on `workers` workers with `options`'
  // scan settings and cancel flag; `parameters` (values of the parameter types, which must
  // outlive the run) fill in the restrictions of `parameterized_scans` (slots).
  QueryRun(const std::vector<plan::StateSlot>& slots,
           const std::vector<uint32_t>& parameterized_scans, uint32_t workers,
           const ExecutionOptions& options, const std::vector<Value>* parameters);
  QueryRun(const QueryRun&) = delete;
  QueryRun& operator=(const QueryRun&) = delete;

  // Whether restart() can ready it for another run (QueryState::restartable).
  bool restartable() const { return QueryState::restartable(slots()); }
  // Ready for another run, as if made anew with these options and parameters.
  void restart(const ExecutionOptions& options, const std::vector<Value>* parameters);

  QueryContext& query() { return query_; }
  QueryState& state() { return state_; }

 private:
  // The slots with the run's parameter values bound (bind_parameters).
  const std::vector<plan::StateSlot>& slots() const {
    return bound_slots_.empty() ? slots_ : bound_slots_;
  }
  // Binds the parameterized scans' slots to `parameters`; returns slots().
  const std::vector<plan::StateSlot>& bind_parameters(const std::vector<Value>* parameters);

  const std::vector<plan::StateSlot>& slots_;
  const std::vector<uint32_t>& parameterized_scans_;
  std::vector<ParameterSlot> parameter_values_;
  std::vector<plan::StateSlot> bound_slots_;  // empty: slots_ as they are
  QueryContext query_;
  QueryState state_;
};

}  // namespace floe
