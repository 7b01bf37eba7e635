// A key of one index for the record path (TransactionScope::lookup and scan_range), encoded
// part by part into a buffer that the caller keeps and refills (clear(), then add per key
// column): no Value vector and no key allocation per operation once the buffer has grown.
// Values are converted to the key columns' types like those of the Value-based lookup.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/record_transaction.h"

namespace floe {

class RecordKey {
 public:
  explicit RecordKey(const RecordIndex& index) : index_(index) {}

  const RecordIndex& index() const { return index_; }
  RecordKey& clear() {
    bytes_.clear();
    values_.clear();
    parts_ = 0;
    has_null_ = false;
    return *this;
  }
  // The next key column's value; a NULL equals no key (a lookup finds nothing).
  RecordKey& add(const Value& value);
  RecordKey& add(int64_t value);
  RecordKey& add(std::string_view value);

  // Key columns given so far: all of them for a point lookup, fewer for a prefix.
  size_t parts() const { return parts_; }
  bool complete() const;
  bool has_null() const { return has_null_; }
  // The encoded key (storage/art_key.h) of the parts given.
  std::string_view bytes() const { return bytes_; }
  // The parts as given, for the predicate a serializable transaction logs
  // (index_range_predicate.h), which compares typed values.
  const std::vector<Value>& values() const { return values_; }

 private:
  // The type of the next key column; an error when every column has its value.
  const SqlType& next_type() const;

  RecordIndex index_;
  std::string bytes_;
  std::vector<Value> values_;
  size_t parts_ = 0;
  bool has_null_ = false;
};

}  // namespace floe
