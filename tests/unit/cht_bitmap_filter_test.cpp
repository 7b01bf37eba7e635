// Early filtering of probe rows by the bitmaps of several joins (runtime/bitmap_filter.h).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "runtime/bitmap_filter.h"
#include "runtime/concise_array_table.h"
#include "runtime/concise_hash_table.h"
#include "runtime/hash.h"

namespace floe {
namespace {

uint64_t hash_of(int64_t key) {
  return mix_hash(static_cast<uint64_t>(key));
}

TEST(BitmapFilterTest, KeepsExactlyTheRowsThatEveryBitmapMayHold) {
  // Join 1: a CHT on the even keys below 20000. Join 2: a CAT on [0, 9999], every third key.
  ConciseHashTable cht(sizeof(int64_t), 1);
  for (int64_t key = 0; key < 20000; key += 2)
    std::memcpy(cht.insert(0, hash_of(key)), &key, sizeof key);
  cht.finalize();
  std::optional<DenseKeyLayout> layout =
      DenseKeyLayout::make(std::vector<KeyColumnRange>{{0, 9999}});
  ConciseArrayTable cat(*layout, 0, 1);
  for (int64_t key = 0; key < 10000; key += 3) cat.insert(0, &key);
  cat.finalize();

  constexpr uint32_t kBatch = 2048;
  std::mt19937_64 random(1);
  std::vector<int64_t> a(kBatch), b(kBatch);
  std::vector<uint64_t> a_hashes(kBatch);
  for (uint32_t r = 0; r < kBatch; ++r) {
    a[r] = static_cast<int64_t>(random() % 40000);
    b[r] = static_cast<int64_t>(random() % 12000);
    a_hashes[r] = hash_of(a[r]);
  }
  const int64_t* b_columns[] = {b.data()};
  BitmapFilterJoin joins[] = {{&cht, a_hashes.data(), nullptr, nullptr},
                              {nullptr, nullptr, &cat, b_columns}};
  std::vector<uint32_t> sel;
  for (uint32_t r = 0; r < kBatch; r += 3) sel.push_back(r);
  std::vector<uint32_t> out(sel.size());
  uint32_t kept =
      filter_by_bitmaps(joins, sel.data(), static_cast<uint32_t>(sel.size()), out.data());

  std::vector<uint32_t> expected;
  for (uint32_t r : sel) {
    bool in_cht = cht.may_contain(a_hashes[r]);
    bool in_cat = cat.may_contain(&b[r]);
    if (in_cht && in_cat) expected.push_back(r);
    // No false negatives: a row with matches in both joins passes.
    bool matches = a[r] < 20000 && a[r] % 2 == 0 && b[r] < 10000 && b[r] % 3 == 0;
    if (matches) {
      EXPECT_TRUE(in_cht && in_cat) << r;
    }
    // The CAT bitmap is exact for keys in range.
    if (b[r] < 10000) {
      EXPECT_EQ(in_cat, b[r] % 3 == 0) << r;
    }
  }
  out.resize(kept);
  EXPECT_EQ(out, expected);
  EXPECT_LT(kept, sel.size() / 4);  // about 1/2 * 1/3 of the rows, plus false positives
  // In place, and with no joins the selection stays as it is.
  uint32_t in_place =
      filter_by_bitmaps(joins, sel.data(), static_cast<uint32_t>(sel.size()), sel.data());
  EXPECT_EQ(std::vector<uint32_t>(sel.begin(), sel.begin() + in_place), expected);
  std::vector<uint32_t> all = {0, 5, 9};
  std::vector<uint32_t> copy(3);
  EXPECT_EQ(filter_by_bitmaps({}, all.data(), 3, copy.data()), 3u);
  EXPECT_EQ(copy, all);
}

}  // namespace
}  // namespace floe
