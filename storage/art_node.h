// The inner nodes of the Adaptive Radix Tree (Leis et al., ICDE 2013, §III): four node sizes
// chosen by the number of children, each with a path-compressed prefix (§III-E, stored in
// full: the "pessimistic" variant). A child slot holds either a node or a leaf; a leaf is not
// a node but the row id itself, tagged with the low bit (the paper's single-value leaves and
// lazy expansion: the key is loaded from the table to verify a match).
#pragma once

#include <cstdint>
#include <string>

namespace floe::art {

// 0 = no child; low bit 1 = a leaf holding row id bits >> 1; otherwise a Node*.
using Child = uintptr_t;

inline bool is_leaf(Child child) {
  return child & 1;
}
inline uint64_t leaf_row_id(Child child) {
  return child >> 1;
}
inline Child make_leaf(uint64_t row_id) {
  return static_cast<Child>(row_id << 1 | 1);
}

enum class NodeType : uint8_t { kNode4, kNode16, kNode48, kNode256 };

struct Node {
  explicit Node(NodeType node_type) : type(node_type) {}
  NodeType type;
  uint16_t count = 0;  // children
  std::string prefix;  // the compressed path below the byte that led here
};

// Node4 and Node16: keys sorted, children in the same order.
struct Node4 : Node {
  Node4() : Node(NodeType::kNode4) {}
  uint8_t keys[4] = {};
  Child children[4] = {};
};
struct Node16 : Node {
  Node16() : Node(NodeType::kNode16) {}
  uint8_t keys[16] = {};
  Child children[16] = {};
};
// Node48: a 256-entry index of child slots (0 = none, else slot + 1).
struct Node48 : Node {
  Node48() : Node(NodeType::kNode48) {}
  uint8_t index[256] = {};
  Child children[48] = {};
};
struct Node256 : Node {
  Node256() : Node(NodeType::kNode256) {}
  Child children[256] = {};
};

inline Node* as_node(Child child) {
  return reinterpret_cast<Node*>(child);
}
inline Child as_child(Node* node) {
  return reinterpret_cast<Child>(node);
}

// A new, empty node able to hold `children` children (at most 256).
Node* make_node(size_t children);
// Frees a subtree (nodes; leaves own nothing).
void destroy(Child child);

// The slot of the child for `byte`, or nullptr.
Child* find_child(Node* node, uint8_t byte);
// Adds a child for a byte not present yet. `ref` holds the node and is pointed to a larger
// node when the node is full.
void add_child(Child& ref, uint8_t byte, Child child);
// Removes the child for `byte`. `ref` holds the node; it is pointed to a smaller node when the
// node becomes sparse, and a Node4 left with one child is merged into it (path compression).
void remove_child(Child& ref, uint8_t byte);

// Children in byte order through positions: indexes into keys for Node4/16, bytes for 48/256.
// The first position >= `from` that has a child, or -1.
int next_position(const Node* node, int from);
// The first position whose byte is >= `byte`, or -1.
int lower_position(const Node* node, uint8_t byte);
uint8_t byte_at(const Node* node, int position);
Child child_at(const Node* node, int position);

}  // namespace floe::art
