#include "runtime/concise_join_table.h"

#include <tbb/parallel_for.h>

#include <cstring>

#include "runtime/cancellation.h"

namespace floe {

ConciseJoinTable::ConciseJoinTable(uint32_t payload_size, uint32_t worker_count,
                                   uint32_t cat_key_columns)
    : payload_size_(payload_size), worker_count_(worker_count), key_columns_(cat_key_columns) {
  if (key_columns_ == 0 || key_columns_ > DenseKeyLayout::kMaxColumns) {
    key_columns_ = 0;
    cht_.emplace(payload_size, worker_count);
    return;
  }
  const size_t header = sizeof(uint64_t) * (1 + key_columns_);
  for (uint32_t w = 0; w < worker_count; ++w) {
    staged_.emplace_back(header + payload_size);
    stats_.emplace_back(key_columns_);
  }
}

uint8_t* ConciseJoinTable::insert(uint32_t worker, uint64_t hash, const int64_t* key) {
  if (key_columns_ == 0) return cht_->insert(worker, hash);
  uint8_t* staged = staged_[worker].allocate();
  std::memcpy(staged, &hash, sizeof hash);
  std::memcpy(staged + sizeof hash, key, key_columns_ * sizeof(int64_t));
  std::vector<KeyStats>& stats = stats_[worker];
  for (uint32_t k = 0; k < key_columns_; ++k) stats[k].add(key[k]);
  return staged + sizeof hash + key_columns_ * sizeof(int64_t);
}

void ConciseJoinTable::finalize(const std::atomic<bool>* cancel) {
  if (key_columns_ > 0) {
    std::vector<KeyStats> merged(key_columns_);
    for (const auto& worker : stats_)
      for (uint32_t k = 0; k < key_columns_; ++k) merged[k].merge(worker[k]);
    JoinTableChoice choice = choose_join_table(merged);
    if (choice.kind == JoinTableKind::kCat) {
      cat_.emplace(std::move(*choice.cat_layout), payload_size_, worker_count_);
    } else {
      cht_.emplace(payload_size_, worker_count_);
    }
    // Each worker's staged rows into the chosen table's staging of the same worker.
    const size_t key_bytes = key_columns_ * sizeof(int64_t);
    tbb::parallel_for(uint32_t{0}, worker_count_, [&](uint32_t w) {
      CancelPoll poll(cancel);
      staged_[w].for_each([&](uint8_t* staged) {
        poll.tick();
        uint64_t hash;
        std::memcpy(&hash, staged, sizeof hash);
        const uint8_t* key_bytes_at = staged + sizeof hash;
        int64_t key[DenseKeyLayout::kMaxColumns];
        std::memcpy(key, key_bytes_at, key_bytes);
        uint8_t* payload = cat_ ? cat_->insert(w, key) : cht_->insert(w, hash);
        std::memcpy(payload, key_bytes_at + key_bytes, payload_size_);
      });
    });
    staged_.clear();
    stats_.clear();
  }
  if (cat_) {
    cat_->finalize(cancel);
  } else {
    cht_->finalize(cancel);
  }
}

}  // namespace floe
