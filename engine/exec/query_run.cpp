#include "engine/exec/query_run.h"

#include "engine/plan/parameter_restrictions.h"

namespace floe {

QueryRun::QueryRun(const std::vector<plan::StateSlot>& slots,
                   const std::vector<uint32_t>& parameterized_scans, uint32_t workers,
                   const ExecutionOptions& options, const std::vector<Value>* parameters)
    : slots_(slots),
      parameterized_scans_(parameterized_scans),
      parameter_values_(parameters ? parameter_slots(*parameters) : std::vector<ParameterSlot>{}),
      query_(workers, options.cancel, parameter_values_.data()),
      state_(bind_parameters(parameters), query_.worker_count(), options.scan) {}

const std::vector<plan::StateSlot>& QueryRun::bind_parameters(
    const std::vector<Value>* parameters) {
  // Scans that compare with parameters take the run's values (parameter_restrictions.h);
  // binding derives them from the scan's own restrictions, so a bound slot binds again.
  if (parameters && !parameterized_scans_.empty()) {
    if (bound_slots_.empty()) bound_slots_ = slots_;
    for (uint32_t slot : parameterized_scans_)
      plan::bind_scan_parameters(bound_slots_[slot], *parameters);
  }
  return slots();
}

void QueryRun::restart(const ExecutionOptions& options, const std::vector<Value>* parameters) {
  parameter_values_ = parameters ? parameter_slots(*parameters) : std::vector<ParameterSlot>{};
  query_.restart(options.cancel, parameter_values_.data());
  state_.restart(bind_parameters(parameters), options.scan);
}

}  // namespace floe
