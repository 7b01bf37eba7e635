#include "engine/exec/csv_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "storage/error.h"
#include "storage/utf8.h"

namespace floe {

namespace {

constexpr size_t kInitialBlockSize = 4 << 20;

int octal_digit(char c) {
  return c >= '0' && c <= '7' ? c - '0' : -1;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes PostgreSQL text-format backslash escapes of [begin, end) in place; returns the new
// end. The result is never longer than the input.
char* unescape_text(char* begin, char* end) {
  char* w = begin;
  for (char* r = begin; r < end;) {
    if (*r != '\\' || r + 1 == end) {
      *w++ = *r++;
      continue;
    }
    char c = r[1];
    r += 2;
    switch (c) {
      case 'b':
        *w++ = '\b';
        break;
      case 'f':
        *w++ = '\f';
        break;
      case 'n':
        *w++ = '\n';
        break;
      case 'r':
        *w++ = '\r';
        break;
      case 't':
        *w++ = '\t';
        break;
      case 'v':
        *w++ = '\v';
        break;
      case 'x': {
        int value = 0, digits = 0;
        while (digits < 2 && r < end && hex_digit(*r) >= 0)
          value = value * 16 + hex_digit(*r++), ++digits;
        *w++ = digits ? static_cast<char>(value) : 'x';
        break;
      }
      default:
        if (octal_digit(c) >= 0) {
          int value = octal_digit(c), digits = 1;
          while (digits < 3 && r < end && octal_digit(*r) >= 0)
            value = value * 8 + octal_digit(*r++), ++digits;
          *w++ = static_cast<char>(value);
        } else {
          *w++ = c;  // \\, \<delimiter>, and any other character stand for themselves
        }
    }
  }
  return w;
}

}  // namespace

CsvReader::CsvReader(const std::string& path, const CsvOptions& options)
    : options_(options), path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY);
  if (fd_ < 0) {
    throw Error("could not open file \"" + path + "\" for reading: " + std::strerror(errno));
  }
  capacity_ = kInitialBlockSize;
  buffer_ = std::make_unique<char[]>(capacity_);
  pos_ = end_ = buffer_.get();
}

CsvReader::~CsvReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool CsvReader::refill() {
  size_t unread = static_cast<size_t>(end_ - pos_);
  if (unread == capacity_) {  // one record longer than the buffer: grow it
    auto bigger = std::make_unique<char[]>(capacity_ * 2);
    std::memcpy(bigger.get(), pos_, unread);
    buffer_ = std::move(bigger);
    capacity_ *= 2;
  } else if (unread) {
    std::memmove(buffer_.get(), pos_, unread);
  }
  pos_ = buffer_.get();
  end_ = pos_ + unread;
  ssize_t n;
  do {
    n = ::read(fd_, end_, capacity_ - unread);
  } while (n < 0 && errno == EINTR);
  if (n < 0) throw Error("could not read from file \"" + path_ + "\": " + std::strerror(errno));
  if (n == 0) eof_ = true;
  end_ += n;
  return n > 0;
}

char* CsvReader::find_record_end(uint64_t& newlines_inside) {
  newlines_inside = 0;
  char* p = pos_;
  for (;;) {
    auto* newline = static_cast<char*>(std::memchr(p, '\n', static_cast<size_t>(end_ - p)));
    char* limit = newline ? newline : end_;
    if (options_.format == CopyFormat::kCsv) {
      auto* quote =
          static_cast<char*>(std::memchr(p, options_.quote, static_cast<size_t>(limit - p)));
      if (quote) {  // skip the quoted section, which may span lines
        auto* close = static_cast<char*>(
            std::memchr(quote + 1, options_.quote, static_cast<size_t>(end_ - quote - 1)));
        if (!close) return nullptr;
        for (char* c = quote; c < close; ++c) newlines_inside += *c == '\n';
        p = close + 1;
        continue;
      }
    } else if (newline) {  // a backslash before the newline makes it part of the data
      size_t backslashes = 0;
      for (char* c = newline; c > p && c[-1] == '\\'; --c) ++backslashes;
      if (backslashes % 2) {
        ++newlines_inside;
        p = newline + 1;
        continue;
      }
    }
    if (newline) return newline;
    return eof_ ? end_ : nullptr;
  }
}

bool CsvReader::next_record() {
  for (;;) {
    if (pos_ == end_ && eof_) return false;
    uint64_t newlines_inside = 0;
    char* record_end = pos_ < end_ ? find_record_end(newlines_inside) : nullptr;
    if (!record_end) {
      line_ = next_line_;
      if (eof_) throw Error("unterminated CSV quoted field");
      refill();
      continue;
    }
    line_ = next_line_;
    next_line_ += 1 + newlines_inside;
    // The file must be UTF-8, checked with the line end as PostgreSQL does (a sequence cut
    // short by the newline names the newline byte too).
    check_utf8({pos_, static_cast<size_t>(record_end - pos_) + (record_end < end_)});
    char* stop = record_end;
    if (stop > pos_ && stop[-1] == '\r') --stop;
    if (options_.format == CopyFormat::kCsv) {
      split_csv(pos_, stop);
    } else {
      split_text(pos_, stop);
    }
    pos_ = record_end < end_ ? record_end + 1 : end_;
    return true;
  }
}

void CsvReader::split_csv(char* begin, char* end) {
  fields_.clear();
  const char delimiter = options_.delimiter, quote = options_.quote;
  bool has_quotes = std::memchr(begin, quote, static_cast<size_t>(end - begin)) != nullptr;
  for (char* r = begin;;) {
    char* start = r;
    char* w = r;
    bool quoted = false;
    if (!has_quotes) {
      auto* delim = static_cast<char*>(std::memchr(r, delimiter, static_cast<size_t>(end - r)));
      r = w = delim ? delim : end;
    } else {
      // RFC 4180 as PostgreSQL reads it: a quote anywhere opens a quoted section, and a
      // doubled quote inside one is a literal quote. Unquoting happens in place (w <= r).
      bool in_quotes = false;
      while (r < end) {
        char c = *r;
        if (c == quote) {
          if (in_quotes && r + 1 < end && r[1] == quote) {
            *w++ = quote;
            r += 2;
            continue;
          }
          in_quotes = !in_quotes;
          quoted = true;
          ++r;
          continue;
        }
        if (c == delimiter && !in_quotes) break;
        *w++ = c;
        ++r;
      }
    }
    std::string_view text(start, static_cast<size_t>(w - start));
    fields_.push_back({text, !quoted && text == options_.null_string, !quoted && text.empty()});
    if (r >= end) break;
    ++r;  // the delimiter
  }
}

void CsvReader::split_text(char* begin, char* end) {
  fields_.clear();
  const char delimiter = options_.delimiter;
  for (char* r = begin;;) {
    char* start = r;
    bool escaped = false;
    while (r < end && *r != delimiter) {
      if (*r == '\\' && r + 1 < end) {
        escaped = true;
        ++r;
      }
      ++r;
    }
    std::string_view raw(start, static_cast<size_t>(r - start));
    bool null = raw == options_.null_string;  // compared before unescaping, as PostgreSQL does
    std::string_view text = raw;
    if (escaped && !null) {
      text = {start, static_cast<size_t>(unescape_text(start, r) - start)};
      check_utf8(text);  // \xHH and octal escapes can make any byte
    }
    fields_.push_back({text, null, raw.empty()});
    if (r >= end) break;
    ++r;
  }
}

}  // namespace floe
