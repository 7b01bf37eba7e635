// The $n parameters of the statement being bound (PREPARE, Connection::prepare, EXECUTE), as
// PostgreSQL types them: a declared type (PREPARE p (int) AS ...), else the type the first
// context that needs one gives it (k = $1 takes k's type, like an untyped literal:
// type_rules.h), else text. The binder finds them through a thread-local scope, as the
// sequence functions find their session.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/plan/expression.h"

namespace floe::sql {

class StatementParameters {
 public:
  // Binding for a plan that runs many times: $n becomes a kParameter expression.
  explicit StatementParameters(std::vector<SqlType> declared) : types_(std::move(declared)) {}
  // Binding for one run: $n becomes a constant of `values[n - 1]` (of type types[n - 1], or
  // an untyped literal where that is still unknown).
  StatementParameters(std::vector<SqlType> types, std::vector<Value> values)
      : types_(std::move(types)), values_(std::move(values)), constants_(true) {}

  // The parameters of the statement bound on this thread, nullptr outside PREPARE/EXECUTE.
  static StatementParameters* current();
  class Scope {
   public:
    explicit Scope(StatementParameters& parameters);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    StatementParameters* previous_;
  };

  // $number at `location`; "there is no parameter $n" outside a prepared statement.
  static plan::ExprPtr bind(int number, int location);
  // An untyped $n took `type` from its context (type_rules.cpp coerce).
  void deduce(uint32_t index, const SqlType& type);
  // After binding: every parameter's type, unknown ones text. Throws PostgreSQL's "could not
  // determine data type of parameter $n" for one that is neither declared nor used.
  std::vector<SqlType> final_types() const;
  // As bound so far: the types (unknown: not deduced), whether $index+1 was used, and the
  // values of a binding for one run.
  const std::vector<SqlType>& types() const { return types_; }
  bool used(uint32_t index) const { return index < used_.size() && used_[index]; }
  const std::vector<Value>& values() const { return values_; }

 private:
  plan::ExprPtr reference(uint32_t index, int location);

  std::vector<SqlType> types_;  // unknown: not yet deduced
  std::vector<bool> used_;
  std::vector<Value> values_;
  bool constants_ = false;
};

// The highest n of the $n in `sql` (0: none), from its tokens.
size_t highest_parameter(std::string_view sql);

}  // namespace floe::sql
