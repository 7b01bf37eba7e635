#include "storage/sequence_session.h"

#include "storage/catalog.h"
#include "storage/error.h"
#include "storage/sequence.h"

namespace floe {

namespace {

thread_local SequenceSession* current_session = nullptr;

// The relation a text names, as PostgreSQL reads a regclass literal: "Quoted" as is,
// anything else folded to lower case.
std::string relation_name(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    std::string name;
    for (size_t i = 1; i + 1 < text.size(); ++i) {
      name += text[i];
      if (text[i] == '"' && text[i + 1] == '"') ++i;
    }
    return name;
  }
  std::string name(text);
  for (char& c : name)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return name;
}

}  // namespace

Sequence& SequenceSession::find(std::string_view text) const {
  std::string name = relation_name(text);
  if (Sequence* sequence = catalog_.find_sequence(name)) return *sequence;
  if (catalog_.find_table(name) || catalog_.find_view(name))
    throw Error("\"" + name + "\" is not a sequence");
  throw Error("relation \"" + name + "\" does not exist");
}

int64_t SequenceSession::nextval(std::string_view name) {
  Sequence& sequence = find(name);
  int64_t value = sequence.next();
  std::lock_guard lock(mutex_);
  last_values_[sequence.id()] = value;
  last_used_ = sequence.id();
  return value;
}

int64_t SequenceSession::currval(std::string_view name) {
  Sequence& sequence = find(name);
  std::lock_guard lock(mutex_);
  auto it = last_values_.find(sequence.id());
  if (it == last_values_.end())
    throw Error("currval of sequence \"" + sequence.name() +
                "\" is not yet defined in this session");
  return it->second;
}

int64_t SequenceSession::setval(std::string_view name, int64_t value, bool is_called) {
  Sequence& sequence = find(name);
  sequence.set(value, is_called);
  std::lock_guard lock(mutex_);
  if (is_called) last_values_[sequence.id()] = value;  // as PostgreSQL: currval, not lastval
  return value;
}

int64_t SequenceSession::lastval() {
  std::lock_guard lock(mutex_);
  // A dropped sequence no longer counts (PostgreSQL checks that it still exists).
  if (!last_used_ || !catalog_.find_sequence_by_id(*last_used_))
    throw Error("lastval is not yet defined in this session");
  return last_values_.at(*last_used_);
}

SequenceSession* SequenceSession::current() {
  return current_session;
}

SequenceSession::Scope::Scope(SequenceSession& session) : previous_(current_session) {
  current_session = &session;
}

SequenceSession::Scope::~Scope() {
  current_session = previous_;
}

}  // namespace floe
