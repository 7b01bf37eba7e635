#include "runtime/collected_values.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "storage/error.h"
#include "storage/physical_order.h"

namespace floe {

struct CollectedItem {
  CollectedItem* next = nullptr;
  bool key_null = false;
  alignas(16) std::array<uint8_t, 16> key{};
  alignas(16) std::array<uint8_t, 16> value{};
  alignas(16) std::array<uint8_t, 16> delimiter{};
};

namespace {

template <typename T>
T read(const std::array<uint8_t, 16>& slot) {
  T value;
  std::memcpy(&value, slot.data(), sizeof(T));
  return value;
}

int compare_slots(PhysicalType type, const std::array<uint8_t, 16>& a,
                  const std::array<uint8_t, 16>& b) {
  return visit_physical(type, [&](auto zero) {
    using T = decltype(zero);
    return sql_compare(read<T>(a), read<T>(b));
  });
}

// The items in the order's sequence (stable: items of equal keys keep the list's order).
std::vector<const CollectedItem*> ordered(const CollectedList& list, const CollectedOrder& order) {
  std::vector<const CollectedItem*> items;
  for (const CollectedItem* item = list.head; item; item = item->next) items.push_back(item);
  if (!order.has_key) return items;
  auto less = [&](const CollectedItem* a, const CollectedItem* b) {
    if (a->key_null || b->key_null) {
      if (a->key_null == b->key_null) return false;
      return a->key_null == order.nulls_first;
    }
    int c = compare_slots(order.key_type, a->key, b->key);
    if (c == 0 && order.distinct)
      c = sql_compare(read<StringRef>(a->delimiter), read<StringRef>(b->delimiter));
    return order.descending ? c > 0 : c < 0;
  };
  std::stable_sort(items.begin(), items.end(), less);
  if (order.distinct) {
    auto same = [&](const CollectedItem* a, const CollectedItem* b) {
      return !less(a, b) && !less(b, a);
    };
    items.erase(std::unique(items.begin(), items.end(), same), items.end());
  }
  return items;
}

}  // namespace

void collect(StringHeap& heap, CollectedList& list, PhysicalType key_type, const void* key,
             const void* value, const void* delimiter) {
  // The heap hands out unaligned bytes.
  char* bytes = heap.allocate(sizeof(CollectedItem) + alignof(CollectedItem) - 1);
  auto address = reinterpret_cast<uintptr_t>(bytes);
  address = (address + alignof(CollectedItem) - 1) & ~(uintptr_t{alignof(CollectedItem)} - 1);
  auto* item = new (reinterpret_cast<void*>(address)) CollectedItem();
  item->key_null = key == nullptr;
  auto keep = [&](std::array<uint8_t, 16>& slot, const void* from, bool string) {
    std::memcpy(slot.data(), from, 16);
    if (!string) return;
    StringRef copy = heap.store(read<StringRef>(slot).view());
    std::memcpy(slot.data(), &copy, 16);
  };
  if (key) keep(item->key, key, key_type == PhysicalType::kString);
  if (value) keep(item->value, value, true);
  if (delimiter) keep(item->delimiter, delimiter, true);
  if (list.tail)
    list.tail->next = item;
  else
    list.head = item;
  list.tail = item;
}

void append(CollectedList& into, CollectedList& from) {
  if (!from.head) return;
  if (into.tail)
    into.tail->next = from.head;
  else
    into.head = from.head;
  into.tail = from.tail;
  from = CollectedList{};
}

StringRef string_agg(const CollectedList& list, const CollectedOrder& order, StringHeap& heap) {
  std::vector<const CollectedItem*> items = ordered(list, order);
  size_t length = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) length += read<StringRef>(items[i]->delimiter).length;
    length += read<StringRef>(items[i]->value).length;
  }
  char inline_buffer[StringRef::kInlineLength];
  char* bytes = length <= StringRef::kInlineLength ? inline_buffer : heap.allocate(length);
  char* cursor = bytes;
  auto put = [&](const StringRef& s) {
    std::memcpy(cursor, s.data(), s.length);
    cursor += s.length;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) put(read<StringRef>(items[i]->delimiter));
    put(read<StringRef>(items[i]->value));
  }
  return StringRef::from({bytes, length});
}

double percentile_cont(const CollectedList& list, const CollectedOrder& order, double fraction) {
  std::vector<const CollectedItem*> items = ordered(list, order);
  double position = fraction * static_cast<double>(items.size() - 1);
  auto first_row = static_cast<size_t>(std::floor(position));
  auto second_row = static_cast<size_t>(std::ceil(position));
  double first = read<double>(items[first_row]->key);
  if (second_row == first_row) return first;
  double second = read<double>(items[second_row]->key);
  return first + (second - first) * (position - static_cast<double>(first_row));
}

void percentile_disc(const CollectedList& list, const CollectedOrder& order, double fraction,
                     void* out) {
  std::vector<const CollectedItem*> items = ordered(list, order);
  auto row = static_cast<size_t>(std::ceil(fraction * static_cast<double>(items.size())));
  std::memcpy(out, items[row > 1 ? row - 1 : 0]->key.data(), 16);
}

void mode(const CollectedList& list, const CollectedOrder& order, void* out) {
  std::vector<const CollectedItem*> items = ordered(list, order);
  const CollectedItem* best = items[0];
  size_t best_count = 0;
  for (size_t run = 0; run < items.size();) {
    size_t end = run + 1;
    while (end < items.size() &&
           compare_slots(order.key_type, items[run]->key, items[end]->key) == 0)
      ++end;
    if (end - run > best_count) {
      best = items[run];
      best_count = end - run;
    }
    run = end;
  }
  std::memcpy(out, best->key.data(), 16);
}

void check_fraction(double fraction) {
  if (fraction >= 0 && fraction <= 1) return;
  char text[64];
  std::snprintf(text, sizeof text, "%g", fraction);
  throw Error("percentile value " + std::string(text) + " is not between 0 and 1");
}

}  // namespace floe
