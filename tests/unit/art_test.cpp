// The Adaptive Radix Tree against std::map / std::multimap models: randomized inserts,
// erases, lookups and range scans on dense, sparse, string and composite keys, in unique and
// non-unique trees, and the bulk build.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "storage/art.h"
#include "storage/art_key.h"
#include "storage/string_ref.h"

namespace floe {
namespace {

std::string int_key(int64_t value) {
  std::string key;
  append_key_part(key, SqlType::big_int(), &value);
  return key;
}

std::string text_key(std::string_view text) {
  std::string key;
  StringRef ref = StringRef::from(text);
  append_key_part(key, SqlType::text(), &ref);
  return key;
}

std::string composite_key(int32_t a, std::string_view b) {
  std::string key;
  append_key_part(key, SqlType::integer(), &a);
  StringRef ref = StringRef::from(b);
  append_key_part(key, SqlType::text(), &ref);
  return key;
}

// A tree whose "table" is a vector of keys indexed by row id, and the model of its entries.
class ArtModel {
 public:
  explicit ArtModel(bool unique)
      : tree_(unique, [this](uint64_t row_id, std::string& key) { key += keys_.at(row_id); }),
        unique_(unique) {}

  uint64_t add_row(std::string key) {
    keys_.push_back(std::move(key));
    return keys_.size() - 1;
  }

  void insert(const std::string& key) {
    uint64_t row = add_row(key);
    std::optional<uint64_t> conflict = tree_.insert(key, row);
    if (unique_) {
      auto found = model_.find(key);
      if (found != model_.end()) {
        ASSERT_EQ(conflict, found->second);
      } else {
        ASSERT_FALSE(conflict);
        model_.emplace(key, row);
      }
    } else {
      ASSERT_FALSE(conflict);
      model_.emplace(key, row);
    }
    ASSERT_EQ(tree_.size(), model_.size());
  }

  // Erases the entry at a random position of the model.
  void erase_random(std::mt19937_64& rng) {
    if (model_.empty()) return;
    auto it = model_.begin();
    std::advance(it, rng() % std::min<size_t>(model_.size(), 64));
    ASSERT_TRUE(tree_.erase(it->first, it->second));
    ASSERT_FALSE(tree_.erase(it->first, it->second));
    model_.erase(it);
    ASSERT_EQ(tree_.size(), model_.size());
  }

  void erase_key(const std::string& key) {
    auto it = model_.find(key);
    if (it == model_.end()) {
      ASSERT_FALSE(tree_.erase(key, 12345678));
      return;
    }
    ASSERT_TRUE(tree_.erase(it->first, it->second));
    model_.erase(it);
  }

  void check_find(const std::string& key) {
    auto it = model_.find(key);
    std::optional<uint64_t> found = tree_.find(key);
    if (it == model_.end()) {
      ASSERT_FALSE(found) << "key found that is not there";
    } else {
      ASSERT_EQ(found, it->second);
    }
  }

  // Up to `steps` entries from lower_bound(key) in both.
  void check_scan(const std::string& key, int steps) {
    auto it = model_.lower_bound(key);
    Art::Iterator tree_it = tree_.lower_bound(key);
    for (int i = 0; i < steps && it != model_.end(); ++i, ++it, tree_it.next()) {
      ASSERT_TRUE(tree_it.valid());
      ASSERT_EQ(tree_it.row_id(), it->second);
      ASSERT_EQ(tree_it.key(), it->first);
    }
    if (it == model_.end()) {
      ASSERT_FALSE(tree_it.valid());
    }
  }

  void check_all() {
    Art::Iterator tree_it = tree_.begin();
    for (const auto& [key, row] : model_) {
      ASSERT_TRUE(tree_it.valid());
      ASSERT_EQ(tree_it.row_id(), row);
      tree_it.next();
    }
    ASSERT_FALSE(tree_it.valid());
  }

  Art& tree() { return tree_; }
  const std::multimap<std::string, uint64_t>& model() const { return model_; }

 private:
  std::vector<std::string> keys_;
  Art tree_;
  bool unique_;
  std::multimap<std::string, uint64_t> model_;  // at most one entry per key when unique
};

// Random operations; `make_key` draws a key.
template <typename MakeKey>
void run_random_ops(ArtModel& model, size_t ops, uint64_t seed, MakeKey make_key) {
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < ops; ++i) {
    unsigned dice = rng() % 100;
    std::string key = make_key(rng);
    if (dice < 50) {
      ASSERT_NO_FATAL_FAILURE(model.insert(key));
    } else if (dice < 60) {
      ASSERT_NO_FATAL_FAILURE(model.erase_random(rng));
    } else if (dice < 75) {
      ASSERT_NO_FATAL_FAILURE(model.erase_key(key));
    } else if (dice < 90) {
      ASSERT_NO_FATAL_FAILURE(model.check_find(key));
    } else {
      ASSERT_NO_FATAL_FAILURE(model.check_scan(key, 20));
    }
    if (i % 20000 == 0) {
      ASSERT_NO_FATAL_FAILURE(model.check_all());
    }
  }
  ASSERT_NO_FATAL_FAILURE(model.check_all());
  // Drain: erasing everything shrinks every node type down to the empty tree.
  while (!model.model().empty()) ASSERT_NO_FATAL_FAILURE(model.erase_random(rng));
  ASSERT_EQ(model.tree().size(), 0u);
  ASSERT_FALSE(model.tree().begin().valid());
}

TEST(ArtTest, DenseIntegerKeys) {
  ArtModel model(true);
  run_random_ops(model, 150000, 1, [](std::mt19937_64& rng) {
    return int_key(static_cast<int64_t>(rng() % 5000) - 2500);
  });
}

TEST(ArtTest, SparseIntegerKeys) {
  ArtModel model(true);
  run_random_ops(model, 100000, 2, [](std::mt19937_64& rng) {
    // Wide spread with clusters, so that nodes of every size appear.
    return int_key(rng() % 2 ? static_cast<int64_t>(rng()) : static_cast<int64_t>(rng() % 300));
  });
}

TEST(ArtTest, StringKeysWithSharedPrefixes) {
  ArtModel model(true);
  run_random_ops(model, 100000, 3, [](std::mt19937_64& rng) {
    static const char kAlphabet[] = {'a', 'b', 'c', '\0', '\xff'};
    std::string text(rng() % 3 == 0 ? "a long common prefix that exceeds inline storage/" : "");
    size_t length = rng() % 6;
    for (size_t i = 0; i < length; ++i) text.push_back(kAlphabet[rng() % 5]);
    return text_key(text);
  });
}

TEST(ArtTest, CompositeKeys) {
  ArtModel model(true);
  run_random_ops(model, 60000, 4, [](std::mt19937_64& rng) {
    std::string b(rng() % 4, static_cast<char>('x' + rng() % 3));
    return composite_key(static_cast<int32_t>(rng() % 40) - 20, b);
  });
}

TEST(ArtTest, NonUniqueKeys) {
  ArtModel model(false);
  run_random_ops(model, 100000, 5, [](std::mt19937_64& rng) {
    return rng() % 2 ? int_key(static_cast<int64_t>(rng() % 500))
                     : int_key(static_cast<int64_t>(rng() % 100000));
  });
}

TEST(ArtTest, NonUniqueFindsEveryRowOfAKey) {
  ArtModel model(false);
  for (int i = 0; i < 300; ++i) model.insert(int_key(i % 7));
  std::string key = int_key(3);
  std::vector<uint64_t> rows;
  for (Art::Iterator it = model.tree().lower_bound(key); it.valid() && it.key() == key; it.next())
    rows.push_back(it.row_id());
  std::vector<uint64_t> expected;
  for (uint64_t row = 3; row < 300; row += 7) expected.push_back(row);
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(model.tree().find(key), 3u);
  EXPECT_FALSE(model.tree().find(int_key(7)));
}

TEST(ArtTest, UniqueInsertReportsTheRowHoldingTheKey) {
  ArtModel model(true);
  uint64_t first = model.add_row(text_key("x"));
  uint64_t second = model.add_row(text_key("x"));
  EXPECT_FALSE(model.tree().insert(text_key("x"), first));
  EXPECT_EQ(model.tree().insert(text_key("x"), second), first);
  EXPECT_EQ(model.tree().size(), 1u);
  EXPECT_FALSE(model.tree().erase(text_key("x"), second));
  EXPECT_TRUE(model.tree().erase(text_key("x"), first));
}

TEST(ArtTest, KeysThatArePrefixesAreRejected) {
  ArtModel model(true);
  uint64_t a = model.add_row("ab");
  uint64_t b = model.add_row("abc");
  model.tree().insert("ab", a);
  EXPECT_THROW(model.tree().insert("abc", b), std::logic_error);
}

// The bulk build gives the same tree content as inserts, in parallel for large inputs.
void check_build(bool unique, size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  ArtModel built(unique);
  std::vector<std::string> keys;
  std::set<std::string> seen;
  while (keys.size() < rows) {
    std::string key = rng() % 3 ? int_key(static_cast<int64_t>(rng() % (rows * 4)))
                                : text_key(std::to_string(rng() % (rows * 4)));
    if (unique && !seen.insert(key).second) continue;
    keys.push_back(key);
  }
  std::vector<Art::Entry> entries;
  std::multimap<std::string, uint64_t> expected;
  for (const std::string& key : keys) {
    uint64_t row = built.add_row(key);
    expected.emplace(key, row);
  }
  for (uint64_t row = 0; row < keys.size(); ++row) entries.push_back({keys[row], row});
  ASSERT_FALSE(built.tree().build(entries));
  ASSERT_EQ(built.tree().size(), rows);
  Art::Iterator it = built.tree().begin();
  for (const auto& [key, row] : expected) {
    ASSERT_TRUE(it.valid());
    ASSERT_EQ(it.key(), key);
    ASSERT_EQ(it.row_id(), row);
    it.next();
  }
  ASSERT_FALSE(it.valid());
  for (size_t i = 0; i < 1000; ++i) {
    const std::string& key = keys[rng() % keys.size()];
    ASSERT_TRUE(built.tree().find(key));
    ASSERT_EQ(built.tree().lower_bound(key).key(), key);
  }
  // The built tree takes inserts and erases like any other.
  for (uint64_t row = 0; row < keys.size(); row += 2)
    ASSERT_TRUE(built.tree().erase(keys[row], row));
  ASSERT_EQ(built.tree().size(), rows / 2);
}

TEST(ArtTest, BulkBuildUnique) {
  check_build(true, 200000, 6);
}
TEST(ArtTest, BulkBuildNonUnique) {
  check_build(false, 100000, 7);
}
TEST(ArtTest, BulkBuildSmall) {
  check_build(true, 1, 8);
  check_build(true, 2, 9);
  check_build(true, 100, 10);
}

TEST(ArtTest, BulkBuildFindsDuplicates) {
  ArtModel model(true);
  std::vector<Art::Entry> entries;
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(int_key(i == 700 ? 5 : i));
  for (uint64_t row = 0; row < keys.size(); ++row) {
    model.add_row(keys[row]);
    entries.push_back({keys[row], row});
  }
  EXPECT_EQ(model.tree().build(entries), 700u);
  EXPECT_EQ(model.tree().size(), 0u);
  EXPECT_FALSE(model.tree().begin().valid());
}

}  // namespace
}  // namespace floe
