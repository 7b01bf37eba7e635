// The compaction learner of one chunk-reducing operator (chunk compaction, SIGMOD 2024,
// section 4): a multi-armed bandit over compaction thresholds. Arms are thresholds (a chunk
// of at most that many rows is buffered and merged); the reward of a sample is the
// operator's throughput downstream of it (rows per microsecond, including the copying). The
// learner
//  - tries every arm `initial_tries` times first (in arm order, so runs are repeatable);
//  - then picks by UCB-tuned (Auer et al.): mean + sqrt(ln n / n_j * min(1/4, V_j)), with
//    means and variances over the last `window` rewards of each arm, normalized by the best
//    mean so that they lie in [0, 1] as UCB assumes;
//  - counts an arm as tried when it is selected, not when its reward arrives, so that
//    workers selecting at once do not all take the same arm (section 4, morsel parallelism);
//  - every `snapshot_interval` rewards compares the arms' means with the last snapshot and
//    starts over (fresh statistics, initial tries again) when one moved by a factor of 2 or
//    more.
// Thread-safe: workers share one learner per operator under a mutex.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace floe {

class CompactionLearner {
 public:
  // The paper's candidates for a vector size of 2048 (section 4).
  static constexpr uint32_t kPaperArms[] = {0, 32, 64, 128, 256, 384, 512, 768, 1024};

  struct Settings {
    uint32_t initial_tries = 8;
    uint32_t window = 16;  // moving average of the last rewards per arm
    uint32_t snapshot_interval = 1024;
  };

  // The paper's arms scaled to `vector_size` (their values for 2048).
  explicit CompactionLearner(uint32_t vector_size);
  CompactionLearner(std::vector<uint32_t> arms, Settings settings);

  // The arm to use for the next sample.
  size_t select();
  // The reward of a sample taken with `arm`.
  void update(size_t arm, double reward);

  uint32_t threshold(size_t arm) const { return arms_[arm]; }
  size_t arm_count() const { return arms_.size(); }
  // The arm with the best mean reward so far (EXPLAIN ANALYZE, Fig 12); resets so far.
  size_t best_arm() const;
  uint32_t resets() const;
  // How often each arm was selected over the learner's life, resets included (EXPLAIN
  // ANALYZE's learned thresholds, Fig 12).
  std::vector<uint64_t> selections() const;

 private:
  struct Arm {
    uint64_t tries = 0;          // selections since the last reset
    std::deque<double> rewards;  // the last `window` rewards
    double mean() const;
  };
  double mean_of(size_t arm) const { return arms_state_[arm].mean(); }
  void snapshot_check();
  void reset();

  std::vector<uint32_t> arms_;
  Settings settings_;
  mutable std::mutex mutex_;
  std::vector<Arm> arms_state_;
  std::vector<uint64_t> selections_;
  uint64_t total_tries_ = 0;
  uint64_t updates_ = 0;
  std::vector<double> snapshot_;  // empty until the first one
  uint32_t resets_ = 0;
};

}  // namespace floe
