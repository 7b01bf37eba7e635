#include "runtime/compaction_learner.h"

#include <algorithm>
#include <cmath>

namespace floe {
namespace {

std::vector<uint32_t> scaled_arms(uint32_t vector_size) {
  std::vector<uint32_t> arms;
  for (uint32_t arm : CompactionLearner::kPaperArms) {
    uint32_t scaled = static_cast<uint32_t>(uint64_t{arm} * vector_size / 2048);
    if (arms.empty() || scaled > arms.back()) arms.push_back(scaled);
  }
  return arms;
}

}  // namespace

CompactionLearner::CompactionLearner(uint32_t vector_size)
    : CompactionLearner(scaled_arms(vector_size), Settings{}) {}

CompactionLearner::CompactionLearner(std::vector<uint32_t> arms, Settings settings)
    : arms_(std::move(arms)),
      settings_(settings),
      arms_state_(arms_.size()),
      selections_(arms_.size()) {}

double CompactionLearner::Arm::mean() const {
  if (rewards.empty()) return 0;
  double sum = 0;
  for (double reward : rewards) sum += reward;
  return sum / static_cast<double>(rewards.size());
}

size_t CompactionLearner::select() {
  std::lock_guard lock(mutex_);
  size_t chosen = 0;
  auto untried = std::find_if(arms_state_.begin(), arms_state_.end(), [&](const Arm& arm) {
    return arm.tries < settings_.initial_tries;
  });
  if (untried != arms_state_.end()) {
    chosen = static_cast<size_t>(untried - arms_state_.begin());
  } else {
    double scale = 0;
    for (size_t j = 0; j < arms_.size(); ++j) scale = std::max(scale, mean_of(j));
    if (scale <= 0) scale = 1;
    const double log_n = std::log(static_cast<double>(total_tries_));
    double best = -1;
    for (size_t j = 0; j < arms_.size(); ++j) {
      const Arm& arm = arms_state_[j];
      const double n_j = static_cast<double>(arm.tries);
      double mean = 0, squares = 0;
      for (double reward : arm.rewards) {
        mean += reward / scale;
        squares += (reward / scale) * (reward / scale);
      }
      const double d = static_cast<double>(std::max<size_t>(1, arm.rewards.size()));
      mean /= d;
      const double variance = squares / d - mean * mean + std::sqrt(2 * log_n / n_j);
      const double value = mean + std::sqrt(log_n / n_j * std::min(0.25, variance));
      if (value > best) {
        best = value;
        chosen = j;
      }
    }
  }
  ++arms_state_[chosen].tries;
  ++selections_[chosen];
  ++total_tries_;
  return chosen;
}

void CompactionLearner::update(size_t arm, double reward) {
  std::lock_guard lock(mutex_);
  auto& rewards = arms_state_[arm].rewards;
  rewards.push_back(reward);
  if (rewards.size() > settings_.window) rewards.pop_front();
  if (++updates_ % settings_.snapshot_interval == 0) snapshot_check();
}

void CompactionLearner::snapshot_check() {
  std::vector<double> means(arms_.size());
  for (size_t j = 0; j < arms_.size(); ++j) means[j] = mean_of(j);
  bool jumped = false;
  for (size_t j = 0; j < means.size() && !snapshot_.empty(); ++j) {
    if (snapshot_[j] <= 0 || means[j] <= 0) continue;
    jumped = jumped || means[j] >= 2 * snapshot_[j] || snapshot_[j] >= 2 * means[j];
  }
  snapshot_ = std::move(means);
  if (jumped) reset();
}

void CompactionLearner::reset() {
  arms_state_.assign(arms_.size(), Arm{});
  total_tries_ = 0;
  snapshot_.clear();
  ++resets_;
}

size_t CompactionLearner::best_arm() const {
  std::lock_guard lock(mutex_);
  size_t best = 0;
  for (size_t j = 1; j < arms_.size(); ++j)
    if (mean_of(j) > mean_of(best)) best = j;
  return best;
}

uint32_t CompactionLearner::resets() const {
  std::lock_guard lock(mutex_);
  return resets_;
}

std::vector<uint64_t> CompactionLearner::selections() const {
  std::lock_guard lock(mutex_);
  return selections_;
}

}  // namespace floe
