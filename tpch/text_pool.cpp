#include "tpch/text_pool.h"

#include <string>

#include "tpch/column_streams.h"
#include "tpch/distributions.h"

namespace floe::tpch {
namespace {

const Distribution& part_of_speech(char symbol) {
  switch (symbol) {
    case 'A':
      return dists::articles;
    case 'J':
      return dists::adjectives;
    case 'D':
      return dists::adverbs;
    case 'N':
      return dists::nouns;
    case 'V':
      return dists::verbs;
    default:  // 'X'
      return dists::auxillaries;
  }
}

// A noun or verb phrase: a form such as "J, J N" is filled with words, each followed by
// the punctuation written after its symbol and a space.
void append_phrase(std::string& out, const Distribution& forms, RandomStream& stream) {
  std::string_view form = pick(forms, stream);
  while (!form.empty()) {
    size_t end = form.find(' ');
    std::string_view symbol = form.substr(0, end);
    out += pick(part_of_speech(symbol[0]), stream);
    out += symbol.substr(1);
    out += ' ';
    form = end == std::string_view::npos ? std::string_view() : form.substr(end + 1);
  }
}

// A sentence from a grammar form such as "N V P T"; the terminator replaces the space after
// the last word.
void append_sentence(std::string& out, RandomStream& stream) {
  for (char symbol : pick(dists::grammar, stream)) {
    switch (symbol) {
      case 'N':
        append_phrase(out, dists::np, stream);
        break;
      case 'V':
        append_phrase(out, dists::vp, stream);
        break;
      case 'P':
        out += pick(dists::prepositions, stream);
        out += " the ";
        append_phrase(out, dists::np, stream);
        break;
      case 'T':
        out.pop_back();
        out += pick(dists::terminators, stream);
        break;
      default:  // the blank between symbols
        break;
    }
  }
}

std::string build_text_pool(const std::function<void()>& poll) {
  constexpr int kSentencesPerPoll = 4096;  // about 0.5 MB of text
  std::string pool;
  pool.reserve(kTextPoolSize + 1024);
  RandomStream stream = column_stream(ColumnStream::kTextPool, 1);
  // Sentences separated by one blank; the last one is cut at the pool size.
  for (int sentences = 1; static_cast<int64_t>(pool.size()) < kTextPoolSize; ++sentences) {
    append_sentence(pool, stream);
    pool += ' ';
    if (poll && sentences % kSentencesPerPoll == 0) poll();
  }
  pool.resize(kTextPoolSize);
  return pool;
}

}  // namespace

std::string_view text_pool(const std::function<void()>& poll) {
  static const std::string pool = build_text_pool(poll);
  return pool;
}

LengthRange variable_length(int average) {
  return {static_cast<int>(average * 0.4), static_cast<int>(average * 1.6)};
}

std::string_view random_text(RandomStream& stream, LengthRange length) {
  std::string_view pool = text_pool();
  int64_t offset = stream.uniform(0, kTextPoolSize - length.max);
  int64_t size = stream.uniform(length.min, length.max);
  return pool.substr(offset, size);
}

}  // namespace floe::tpch
