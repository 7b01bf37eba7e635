// The Adaptive Radix Tree (Leis et al., "The Adaptive Radix Tree: ARTful Indexing for
// Main-Memory Databases", ICDE 2013): an ordered index from binary-comparable keys
// (storage/art_key.h) to row ids, for point lookups and range scans in key order.
//
//  - Adaptive nodes of 4, 16, 48 and 256 children (storage/art_node.h, §III-A/C).
//  - Path compression (§III-E): an inner node stores the bytes its path has in common.
//  - Lazy expansion (§III-E): a leaf is the row id alone, placed as high as the key is unique;
//    the tree loads a leaf's key through the KeyLoader (from the table, by row id) where it
//    must compare a whole key: on lookup and on insert.
//
// Keys must be prefix-free (no key a proper prefix of another), which the encodings of
// art_key.h are, alone and concatenated. A unique tree maps a key to one row id; a non-unique
// tree keeps several row ids per key by appending the row id to the key (big endian), so that
// entries of one key lie together in row id order.
//
// Not thread-safe for writers; concurrent readers are fine.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/art_node.h"

namespace floe {

class Art {
 public:
  // Appends the key of the entry with `row_id` to `key` (which is empty).
  using KeyLoader = std::function<void(uint64_t row_id, std::string& key)>;

  Art(bool unique, KeyLoader loader);
  ~Art();
  Art(const Art&) = delete;
  Art& operator=(const Art&) = delete;

  bool unique() const { return unique_; }
  size_t size() const { return size_; }

  // Unique: adds key -> row_id unless the key is present, and then returns the row id that
  // holds it. Non-unique: adds the entry (key, row_id); returns row_id if it is present.
  // Row ids are below 2^63.
  std::optional<uint64_t> insert(std::string_view key, uint64_t row_id);
  // Removes the entry (key, row_id); false when there is none.
  bool erase(std::string_view key, uint64_t row_id);
  // The row id of the first entry with exactly this key.
  std::optional<uint64_t> find(std::string_view key) const;
  void clear();

  // A sorted build into the empty tree, in parallel: the bulk load of a table. Unique: when
  // entries share a key, nothing is built and the larger row id of two of them is returned.
  struct Entry {
    std::string_view key;
    uint64_t row_id;
  };
  std::optional<uint64_t> build(std::vector<Entry> entries);

  // Iterates entries in key order (then row id order). Invalidated by any change of the tree.
  class Iterator {
   public:
    bool valid() const { return leaf_ != 0; }
    uint64_t row_id() const { return art::leaf_row_id(leaf_); }
    // The entry's key (without the row id of a non-unique tree), loaded from the table into
    // the iterator's buffer (no allocation once it has grown): valid until the next key() or
    // the iterator's end.
    std::string_view key() const;
    void next();

   private:
    friend class Art;
    explicit Iterator(const Art& tree) : tree_(&tree) {}
    void descend_to_first(art::Child child);
    void seek(std::string_view key);

    struct Frame {
      const art::Node* node;
      int position;
    };
    const Art* tree_;
    std::vector<Frame> stack_;
    art::Child leaf_ = 0;
    mutable std::string key_;
  };
  Iterator begin() const;
  // The first entry whose key is >= `key`.
  Iterator lower_bound(std::string_view key) const;

 private:
  // The key as stored: for a non-unique tree with the row id appended.
  std::string_view tree_key(std::string_view key, uint64_t row_id, std::string& buffer) const;
  void load_tree_key(uint64_t row_id, std::string& key) const;
  std::optional<uint64_t> insert_at(art::Child& ref, std::string_view key, size_t depth,
                                    uint64_t row_id);
  bool erase_at(art::Child& ref, std::string_view key, size_t depth, uint64_t row_id);

  bool unique_;
  KeyLoader loader_;
  art::Child root_ = 0;
  size_t size_ = 0;
};

}  // namespace floe
