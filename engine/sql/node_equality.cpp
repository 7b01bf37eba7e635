#include "engine/sql/node_equality.h"

#include <cstring>
#include <string_view>

#include "storage/stack_depth.h"

namespace floe::sql {

namespace {

// Bytes of one value of the field's type as protobuf-c stores it in a message (or in the
// array of a repeated field).
size_t value_size(ProtobufCType type) {
  switch (type) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return 8;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE:
      return sizeof(void*);
    case PROTOBUF_C_TYPE_BYTES:
      return sizeof(ProtobufCBinaryData);
    default:  // 32-bit integers, enums, float, bool (protobuf_c_boolean)
      return 4;
  }
}

bool same_value(const ProtobufCFieldDescriptor& field, const char* a, const char* b) {
  switch (field.type) {
    case PROTOBUF_C_TYPE_MESSAGE: {
      const ProtobufCMessage* x;
      const ProtobufCMessage* y;
      std::memcpy(&x, a, sizeof x);
      std::memcpy(&y, b, sizeof y);
      return same_parse_tree(x, y);
    }
    case PROTOBUF_C_TYPE_STRING: {
      const char* x;
      const char* y;
      std::memcpy(&x, a, sizeof x);
      std::memcpy(&y, b, sizeof y);
      return x && y ? std::strcmp(x, y) == 0 : x == y;
    }
    case PROTOBUF_C_TYPE_BYTES: {
      ProtobufCBinaryData x, y;
      std::memcpy(&x, a, sizeof x);
      std::memcpy(&y, b, sizeof y);
      return x.len == y.len && (x.len == 0 || std::memcmp(x.data, y.data, x.len) == 0);
    }
    default:
      return std::memcmp(a, b, value_size(field.type)) == 0;
  }
}

template <typename T>
T read_at(const char* message, unsigned offset) {
  T value;
  std::memcpy(&value, message + offset, sizeof value);
  return value;
}

}  // namespace

bool same_parse_tree(const ProtobufCMessage* a, const ProtobufCMessage* b) {
  check_stack_depth();
  if (!a || !b) return a == b;
  const ProtobufCMessageDescriptor* descriptor = a->descriptor;
  if (descriptor != b->descriptor) return false;
  const char* x = reinterpret_cast<const char*>(a);
  const char* y = reinterpret_cast<const char*>(b);
  for (unsigned i = 0; i < descriptor->n_fields; ++i) {
    const ProtobufCFieldDescriptor& field = descriptor->fields[i];
    if (std::string_view(field.name) == "location") continue;
    if (field.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {  // the case names the member present
      auto which = read_at<uint32_t>(x, field.quantifier_offset);
      if (which != read_at<uint32_t>(y, field.quantifier_offset)) return false;
      if (which != field.id) continue;
    }
    if (field.label != PROTOBUF_C_LABEL_REPEATED) {
      if (!same_value(field, x + field.offset, y + field.offset)) return false;
      continue;
    }
    auto count = read_at<size_t>(x, field.quantifier_offset);
    if (count != read_at<size_t>(y, field.quantifier_offset)) return false;
    auto values_x = read_at<const char*>(x, field.offset);
    auto values_y = read_at<const char*>(y, field.offset);
    const size_t size = value_size(field.type);
    for (size_t k = 0; k < count; ++k)
      if (!same_value(field, values_x + k * size, values_y + k * size)) return false;
  }
  return true;
}

}  // namespace floe::sql
