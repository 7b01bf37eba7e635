#include "storage/sequence.h"

#include <atomic>

#include "storage/error.h"

namespace floe {

namespace {

uint64_t next_sequence_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

}  // namespace

Sequence::Sequence(std::string name, SequenceOptions options)
    : name_(std::move(name)), options_(options), id_(next_sequence_id()), last_(options.start) {}

// PostgreSQL's nextval_internal, without the cache: one value at a time.
int64_t Sequence::next() {
  std::lock_guard lock(mutex_);
  if (!is_called_) {
    is_called_ = true;
    return last_;
  }
  int64_t next;
  const bool overflow = __builtin_add_overflow(last_, options_.increment, &next);
  if (options_.increment > 0 && (overflow || next > options_.max_value)) {
    if (!options_.cycle)
      throw Error("nextval: reached maximum value of sequence \"" + name_ + "\" (" +
                  std::to_string(options_.max_value) + ")");
    next = options_.min_value;
  } else if (options_.increment < 0 && (overflow || next < options_.min_value)) {
    if (!options_.cycle)
      throw Error("nextval: reached minimum value of sequence \"" + name_ + "\" (" +
                  std::to_string(options_.min_value) + ")");
    next = options_.max_value;
  }
  last_ = next;
  return next;
}

void Sequence::set(int64_t value, bool is_called) {
  if (value < options_.min_value || value > options_.max_value)
    throw Error("setval: value " + std::to_string(value) + " is out of bounds for sequence \"" +
                name_ + "\" (" + std::to_string(options_.min_value) + ".." +
                std::to_string(options_.max_value) + ")");
  std::lock_guard lock(mutex_);
  last_ = value;
  is_called_ = is_called;
}

}  // namespace floe
