// Art::build: the bulk load. Sorting the entries first makes every subtree a contiguous range,
// so a node is built once with its final size, and disjoint subtrees are built in parallel.
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <stdexcept>

#include "storage/art.h"

namespace floe {

using art::Child;

namespace {

constexpr size_t kParallelEntries = 1 << 14;  // smaller ranges are built by one thread

// The subtree of entries [begin, end), sorted and distinct, whose keys agree before `depth`.
Child build_range(const Art::Entry* begin, const Art::Entry* end, size_t depth) {
  if (end - begin == 1) return art::make_leaf(begin->row_id);
  std::string_view first = begin->key;
  std::string_view last = (end - 1)->key;
  size_t split = depth;
  while (split < first.size() && split < last.size() && first[split] == last[split]) ++split;
  std::vector<const Art::Entry*> groups;
  for (const Art::Entry* e = begin; e != end; ++e) {
    if (e->key.size() <= split)
      throw std::logic_error("ART keys must be prefix-free: a key is a prefix of another");
    if (groups.empty() || e->key[split] != groups.back()->key[split]) groups.push_back(e);
  }
  groups.push_back(end);
  const size_t count = groups.size() - 1;
  std::vector<Child> children(count);
  auto build_group = [&](size_t g) {
    children[g] = build_range(groups[g], groups[g + 1], split + 1);
  };
  if (end - begin >= static_cast<std::ptrdiff_t>(kParallelEntries)) {
    tbb::parallel_for(size_t{0}, count, build_group);
  } else {
    for (size_t g = 0; g < count; ++g) build_group(g);
  }
  Child node = art::as_child(art::make_node(count));
  art::as_node(node)->prefix = first.substr(depth, split - depth);
  for (size_t g = 0; g < count; ++g)
    art::add_child(node, static_cast<uint8_t>(groups[g]->key[split]), children[g]);
  return node;
}

}  // namespace

std::optional<uint64_t> Art::build(std::vector<Entry> entries) {
  if (root_) throw std::logic_error("Art::build needs an empty tree");
  std::string keys;  // a non-unique tree's keys with their row ids appended
  if (!unique_) {
    size_t bytes = 0;
    for (const Entry& e : entries) bytes += e.key.size() + 8;
    keys.reserve(bytes);
    for (Entry& e : entries) {
      std::string buffer;
      size_t offset = keys.size();
      keys.append(tree_key(e.key, e.row_id, buffer));
      e.key = std::string_view(keys).substr(offset);
    }
  }
  tbb::parallel_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    int order = a.key.compare(b.key);
    return order != 0 ? order < 0 : a.row_id < b.row_id;
  });
  for (size_t i = 1; i < entries.size(); ++i)
    if (entries[i].key == entries[i - 1].key) return entries[i].row_id;
  if (!entries.empty()) root_ = build_range(entries.data(), entries.data() + entries.size(), 0);
  size_ = entries.size();
  return std::nullopt;
}

}  // namespace floe
