#include "storage/art_node.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace floe::art {

namespace {

// Node16 search with SIMD (§III-C): one compare of the searched byte against all 16 keys.
// Keys are unsigned, SSE2 compares signed bytes: flipping the top bit of both sides keeps the
// order.
#if defined(__SSE2__)
uint32_t node16_equal_mask(const Node16* node, uint8_t byte) {
  __m128i keys = _mm_loadu_si128(reinterpret_cast<const __m128i*>(node->keys));
  __m128i equal = _mm_cmpeq_epi8(keys, _mm_set1_epi8(static_cast<char>(byte)));
  return static_cast<uint32_t>(_mm_movemask_epi8(equal)) & ((1u << node->count) - 1);
}
int node16_count_less(const Node16* node, uint8_t byte) {
  const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
  __m128i keys = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(node->keys)), flip);
  __m128i less = _mm_cmplt_epi8(keys, _mm_xor_si128(_mm_set1_epi8(static_cast<char>(byte)), flip));
  uint32_t mask = static_cast<uint32_t>(_mm_movemask_epi8(less)) & ((1u << node->count) - 1);
  return __builtin_popcount(mask);
}
#else
uint32_t node16_equal_mask(const Node16* node, uint8_t byte) {
  uint32_t mask = 0;
  for (int i = 0; i < node->count; ++i) mask |= uint32_t{node->keys[i] == byte} << i;
  return mask;
}
int node16_count_less(const Node16* node, uint8_t byte) {
  int less = 0;
  while (less < node->count && node->keys[less] < byte) ++less;
  return less;
}
#endif

// Sorted insert into the key and child arrays of a Node4 or Node16 with room.
template <typename SortedNode>
void insert_sorted(SortedNode* node, int position, uint8_t byte, Child child) {
  std::memmove(node->keys + position + 1, node->keys + position, node->count - position);
  std::memmove(node->children + position + 1, node->children + position,
               (node->count - position) * sizeof(Child));
  node->keys[position] = byte;
  node->children[position] = child;
  ++node->count;
}

template <typename SortedNode>
void erase_sorted(SortedNode* node, int position) {
  std::memmove(node->keys + position, node->keys + position + 1, node->count - position - 1);
  std::memmove(node->children + position, node->children + position + 1,
               (node->count - position - 1) * sizeof(Child));
  --node->count;
  node->children[node->count] = 0;
}

int node4_lower(const Node4* node, uint8_t byte) {
  int i = 0;
  while (i < node->count && node->keys[i] < byte) ++i;
  return i;
}

void delete_node(Node* node) {
  switch (node->type) {
    case NodeType::kNode4:
      delete static_cast<Node4*>(node);
      return;
    case NodeType::kNode16:
      delete static_cast<Node16*>(node);
      return;
    case NodeType::kNode48:
      delete static_cast<Node48*>(node);
      return;
    case NodeType::kNode256:
      delete static_cast<Node256*>(node);
      return;
  }
}

// Moves every child of `from` into the empty node `to` (of another size), with the prefix.
void move_children(Node* from, Node* to) {
  to->prefix = std::move(from->prefix);
  Child ref = as_child(to);
  for (int p = next_position(from, 0); p >= 0; p = next_position(from, p + 1))
    add_child(ref, byte_at(from, p), child_at(from, p));
}

void replace_node(Child& ref, size_t children) {
  Node* old = as_node(ref);
  Node* replacement = make_node(children);
  move_children(old, replacement);
  ref = as_child(replacement);
  delete_node(old);
}

}  // namespace

Node* make_node(size_t children) {
  if (children <= 4) return new Node4();
  if (children <= 16) return new Node16();
  if (children <= 48) return new Node48();
  return new Node256();
}

void destroy(Child child) {
  if (!child || is_leaf(child)) return;
  Node* node = as_node(child);
  for (int p = next_position(node, 0); p >= 0; p = next_position(node, p + 1))
    destroy(child_at(node, p));
  delete_node(node);
}

Child* find_child(Node* node, uint8_t byte) {
  switch (node->type) {
    case NodeType::kNode4: {
      auto* n = static_cast<Node4*>(node);
      for (int i = 0; i < n->count; ++i)
        if (n->keys[i] == byte) return &n->children[i];
      return nullptr;
    }
    case NodeType::kNode16: {
      auto* n = static_cast<Node16*>(node);
      uint32_t mask = node16_equal_mask(n, byte);
      return mask ? &n->children[__builtin_ctz(mask)] : nullptr;
    }
    case NodeType::kNode48: {
      auto* n = static_cast<Node48*>(node);
      return n->index[byte] ? &n->children[n->index[byte] - 1] : nullptr;
    }
    case NodeType::kNode256: {
      auto* n = static_cast<Node256*>(node);
      return n->children[byte] ? &n->children[byte] : nullptr;
    }
  }
  return nullptr;
}

void add_child(Child& ref, uint8_t byte, Child child) {
  Node* node = as_node(ref);
  switch (node->type) {
    case NodeType::kNode4: {
      auto* n = static_cast<Node4*>(node);
      if (n->count < 4) return insert_sorted(n, node4_lower(n, byte), byte, child);
      break;
    }
    case NodeType::kNode16: {
      auto* n = static_cast<Node16*>(node);
      if (n->count < 16) return insert_sorted(n, node16_count_less(n, byte), byte, child);
      break;
    }
    case NodeType::kNode48: {
      auto* n = static_cast<Node48*>(node);
      if (n->count < 48) {
        int slot = 0;
        while (n->children[slot]) ++slot;
        n->children[slot] = child;
        n->index[byte] = static_cast<uint8_t>(slot + 1);
        ++n->count;
        return;
      }
      break;
    }
    case NodeType::kNode256: {
      auto* n = static_cast<Node256*>(node);
      n->children[byte] = child;
      ++n->count;
      return;
    }
  }
  replace_node(ref, node->count + 1u);  // full: grow to the next size
  add_child(ref, byte, child);
}

void remove_child(Child& ref, uint8_t byte) {
  Node* node = as_node(ref);
  switch (node->type) {
    case NodeType::kNode4: {
      auto* n = static_cast<Node4*>(node);
      erase_sorted(n, node4_lower(n, byte));
      if (n->count == 1) {
        // One child left: the node is no longer a branch; merge it into the child.
        Child only = n->children[0];
        if (!is_leaf(only)) {
          Node* child = as_node(only);
          child->prefix = n->prefix + static_cast<char>(n->keys[0]) + child->prefix;
        }
        ref = only;
        delete n;
      }
      return;
    }
    case NodeType::kNode16: {
      auto* n = static_cast<Node16*>(node);
      erase_sorted(n, node16_count_less(n, byte));
      if (n->count <= 3) replace_node(ref, n->count);
      return;
    }
    case NodeType::kNode48: {
      auto* n = static_cast<Node48*>(node);
      n->children[n->index[byte] - 1] = 0;
      n->index[byte] = 0;
      --n->count;
      if (n->count <= 12) replace_node(ref, n->count);
      return;
    }
    case NodeType::kNode256: {
      auto* n = static_cast<Node256*>(node);
      n->children[byte] = 0;
      --n->count;
      if (n->count <= 37) replace_node(ref, n->count);
      return;
    }
  }
}

int next_position(const Node* node, int from) {
  switch (node->type) {
    case NodeType::kNode4:
    case NodeType::kNode16:
      return from < node->count ? from : -1;
    case NodeType::kNode48: {
      auto* n = static_cast<const Node48*>(node);
      for (int b = from; b < 256; ++b)
        if (n->index[b]) return b;
      return -1;
    }
    case NodeType::kNode256: {
      auto* n = static_cast<const Node256*>(node);
      for (int b = from; b < 256; ++b)
        if (n->children[b]) return b;
      return -1;
    }
  }
  return -1;
}

int lower_position(const Node* node, uint8_t byte) {
  switch (node->type) {
    case NodeType::kNode4: {
      int p = node4_lower(static_cast<const Node4*>(node), byte);
      return p < node->count ? p : -1;
    }
    case NodeType::kNode16: {
      int p = node16_count_less(static_cast<const Node16*>(node), byte);
      return p < node->count ? p : -1;
    }
    case NodeType::kNode48:
    case NodeType::kNode256:
      return next_position(node, byte);
  }
  return -1;
}

uint8_t byte_at(const Node* node, int position) {
  switch (node->type) {
    case NodeType::kNode4:
      return static_cast<const Node4*>(node)->keys[position];
    case NodeType::kNode16:
      return static_cast<const Node16*>(node)->keys[position];
    case NodeType::kNode48:
    case NodeType::kNode256:
      return static_cast<uint8_t>(position);
  }
  return 0;
}

Child child_at(const Node* node, int position) {
  switch (node->type) {
    case NodeType::kNode4:
      return static_cast<const Node4*>(node)->children[position];
    case NodeType::kNode16:
      return static_cast<const Node16*>(node)->children[position];
    case NodeType::kNode48: {
      auto* n = static_cast<const Node48*>(node);
      return n->children[n->index[position] - 1];
    }
    case NodeType::kNode256:
      return static_cast<const Node256*>(node)->children[position];
  }
  return 0;
}

}  // namespace floe::art
