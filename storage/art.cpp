#include "storage/art.h"

#include <stdexcept>

namespace floe {

using art::Child;
using art::Node;

namespace {

[[noreturn]] void not_prefix_free() {
  throw std::logic_error("ART keys must be prefix-free: a key is a prefix of another");
}

// The key of a leaf that a lookup, seek or insert compares against (lazy expansion, §III-E):
// one buffer per thread, so that the comparison allocates nothing once it has grown. The
// loader (the table's row_key) does not reenter the tree.
std::string& leaf_key_buffer() {
  thread_local std::string buffer;
  return buffer;
}

}  // namespace

Art::Art(bool unique, KeyLoader loader) : unique_(unique), loader_(std::move(loader)) {}

Art::~Art() {
  art::destroy(root_);
}

void Art::clear() {
  art::destroy(root_);
  root_ = 0;
  size_ = 0;
}

std::string_view Art::tree_key(std::string_view key, uint64_t row_id, std::string& buffer) const {
  if (unique_) return key;
  buffer.assign(key);
  for (int shift = 56; shift >= 0; shift -= 8) buffer.push_back(static_cast<char>(row_id >> shift));
  return buffer;
}

void Art::load_tree_key(uint64_t row_id, std::string& key) const {
  key.clear();
  loader_(row_id, key);
  if (!unique_)
    for (int shift = 56; shift >= 0; shift -= 8) key.push_back(static_cast<char>(row_id >> shift));
}

std::optional<uint64_t> Art::insert(std::string_view key, uint64_t row_id) {
  std::string buffer;
  return insert_at(root_, tree_key(key, row_id, buffer), 0, row_id);
}

std::optional<uint64_t> Art::insert_at(Child& ref, std::string_view key, size_t depth,
                                       uint64_t row_id) {
  const Child current = ref;
  if (!current) {
    ref = art::make_leaf(row_id);
    ++size_;
    return std::nullopt;
  }
  if (art::is_leaf(current)) {
    // Lazy expansion: the leaf's key decides where the two keys part.
    std::string& existing = leaf_key_buffer();
    load_tree_key(art::leaf_row_id(current), existing);
    if (existing == key) return art::leaf_row_id(current);
    size_t split = depth;
    while (split < key.size() && split < existing.size() && key[split] == existing[split]) ++split;
    if (split == key.size() || split == existing.size()) not_prefix_free();
    Child branch = art::as_child(art::make_node(2));
    art::as_node(branch)->prefix = key.substr(depth, split - depth);
    art::add_child(branch, static_cast<uint8_t>(existing[split]), current);
    art::add_child(branch, static_cast<uint8_t>(key[split]), art::make_leaf(row_id));
    ref = branch;
    ++size_;
    return std::nullopt;
  }
  Node* node = art::as_node(current);
  size_t matched = 0;
  while (matched < node->prefix.size() && depth + matched < key.size() &&
         node->prefix[matched] == key[depth + matched])
    ++matched;
  if (matched < node->prefix.size()) {
    // The key leaves the compressed path: a new branch above the node.
    if (depth + matched == key.size()) not_prefix_free();
    Child branch = art::as_child(art::make_node(2));
    art::as_node(branch)->prefix = node->prefix.substr(0, matched);
    const auto node_byte = static_cast<uint8_t>(node->prefix[matched]);
    node->prefix.erase(0, matched + 1);
    art::add_child(branch, node_byte, current);
    art::add_child(branch, static_cast<uint8_t>(key[depth + matched]), art::make_leaf(row_id));
    ref = branch;
    ++size_;
    return std::nullopt;
  }
  depth += node->prefix.size();
  if (depth == key.size()) not_prefix_free();
  const auto byte = static_cast<uint8_t>(key[depth]);
  if (Child* child = art::find_child(node, byte)) return insert_at(*child, key, depth + 1, row_id);
  art::add_child(ref, byte, art::make_leaf(row_id));
  ++size_;
  return std::nullopt;
}

bool Art::erase(std::string_view key, uint64_t row_id) {
  std::string buffer;
  return erase_at(root_, tree_key(key, row_id, buffer), 0, row_id);
}

bool Art::erase_at(Child& ref, std::string_view key, size_t depth, uint64_t row_id) {
  const Child current = ref;
  if (!current) return false;
  if (art::is_leaf(current)) {  // the root
    if (art::leaf_row_id(current) != row_id) return false;
    ref = 0;
    --size_;
    return true;
  }
  Node* node = art::as_node(current);
  if (key.substr(depth, node->prefix.size()) != node->prefix) return false;
  depth += node->prefix.size();
  if (depth >= key.size()) return false;
  const auto byte = static_cast<uint8_t>(key[depth]);
  Child* child = art::find_child(node, byte);
  if (!child) return false;
  if (!art::is_leaf(*child)) return erase_at(*child, key, depth + 1, row_id);
  if (art::leaf_row_id(*child) != row_id) return false;
  art::remove_child(ref, byte);
  --size_;
  return true;
}

std::optional<uint64_t> Art::find(std::string_view key) const {
  if (!unique_) {
    Iterator it = lower_bound(key);
    if (it.valid() && it.key() == key) return it.row_id();
    return std::nullopt;
  }
  Child current = root_;
  size_t depth = 0;
  while (current && !art::is_leaf(current)) {
    const Node* node = art::as_node(current);
    if (key.substr(depth, node->prefix.size()) != node->prefix) return std::nullopt;
    depth += node->prefix.size();
    if (depth >= key.size()) return std::nullopt;
    Child* child = art::find_child(const_cast<Node*>(node), static_cast<uint8_t>(key[depth]));
    if (!child) return std::nullopt;
    current = *child;
    ++depth;
  }
  if (!current) return std::nullopt;
  std::string& existing = leaf_key_buffer();
  load_tree_key(art::leaf_row_id(current), existing);
  if (existing != key) return std::nullopt;
  return art::leaf_row_id(current);
}

Art::Iterator Art::begin() const {
  Iterator it(*this);
  if (root_) it.descend_to_first(root_);
  return it;
}

Art::Iterator Art::lower_bound(std::string_view key) const {
  Iterator it(*this);
  it.seek(key);
  return it;
}

std::string_view Art::Iterator::key() const {
  key_.clear();
  tree_->loader_(row_id(), key_);
  return key_;
}

void Art::Iterator::descend_to_first(Child child) {
  while (!art::is_leaf(child)) {
    const Node* node = art::as_node(child);
    int position = art::next_position(node, 0);
    stack_.push_back({node, position});
    child = art::child_at(node, position);
  }
  leaf_ = child;
}

void Art::Iterator::next() {
  leaf_ = 0;
  while (!stack_.empty()) {
    Frame& top = stack_.back();
    int position = art::next_position(top.node, top.position + 1);
    if (position >= 0) {
      top.position = position;
      return descend_to_first(art::child_at(top.node, position));
    }
    stack_.pop_back();
  }
}

// Descends along `key`; where the tree parts from it, the first entry of the next larger
// subtree is the answer (next() climbs the stack to it).
void Art::Iterator::seek(std::string_view key) {
  Child current = tree_->root_;
  size_t depth = 0;
  while (current) {
    if (art::is_leaf(current)) {
      std::string& existing = leaf_key_buffer();
      tree_->load_tree_key(art::leaf_row_id(current), existing);
      if (std::string_view(existing) >= key) {
        leaf_ = current;
      } else {
        next();
      }
      return;
    }
    const Node* node = art::as_node(current);
    for (size_t i = 0; i < node->prefix.size(); ++i) {
      if (depth + i == key.size()) return descend_to_first(current);  // key is a prefix
      const auto tree_byte = static_cast<uint8_t>(node->prefix[i]);
      const auto key_byte = static_cast<uint8_t>(key[depth + i]);
      if (tree_byte < key_byte) return next();  // the whole subtree is smaller
      if (tree_byte > key_byte) return descend_to_first(current);
    }
    depth += node->prefix.size();
    if (depth == key.size()) return descend_to_first(current);
    const auto byte = static_cast<uint8_t>(key[depth]);
    int position = art::lower_position(node, byte);
    if (position < 0) return next();
    stack_.push_back({node, position});
    current = art::child_at(node, position);
    if (art::byte_at(node, position) != byte) return descend_to_first(current);
    ++depth;
  }
}

}  // namespace floe
