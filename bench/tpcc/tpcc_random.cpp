#include "bench/tpcc/tpcc_random.h"

#include <array>

namespace floe::tpcc {

int64_t Random::uniform(int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(engine_);
}

int64_t Random::nurand(int64_t a, int64_t x, int64_t y, const NurandConstants& constants) {
  int64_t c = a == 255 ? constants.c_last : a == 1023 ? constants.c_id : constants.ol_i_id;
  return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
}

std::string Random::a_string(int min_length, int max_length) {
  static constexpr std::string_view kAlphabet =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string out(static_cast<size_t>(uniform(min_length, max_length)), ' ');
  for (char& c : out) c = kAlphabet[static_cast<size_t>(uniform(0, kAlphabet.size() - 1))];
  return out;
}

std::string Random::n_string(int min_length, int max_length) {
  std::string out(static_cast<size_t>(uniform(min_length, max_length)), ' ');
  for (char& c : out) c = static_cast<char>('0' + uniform(0, 9));
  return out;
}

std::string Random::zip() {
  return n_string(4, 4) + "11111";
}

std::string Random::data_with_original() {
  std::string data = a_string(26, 50);
  if (uniform(1, 10) == 1) {
    size_t position = static_cast<size_t>(uniform(0, static_cast<int64_t>(data.size()) - 8));
    data.replace(position, 8, "ORIGINAL");
  }
  return data;
}

NurandConstants Random::load_constants() {
  return {uniform(0, 255), uniform(0, 1023), uniform(0, 8191)};
}

NurandConstants Random::run_constants(const NurandConstants& load) {
  NurandConstants run{0, uniform(0, 1023), uniform(0, 8191)};
  for (;;) {
    run.c_last = uniform(0, 255);
    int64_t delta = run.c_last > load.c_last ? run.c_last - load.c_last : load.c_last - run.c_last;
    if (delta >= 65 && delta <= 119 && delta != 96 && delta != 112) return run;
  }
}

std::string last_name(int64_t number) {
  static constexpr std::array<const char*, 10> kSyllables = {
      "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
  return std::string(kSyllables[static_cast<size_t>(number / 100)]) +
         kSyllables[static_cast<size_t>(number / 10 % 10)] +
         kSyllables[static_cast<size_t>(number % 10)];
}

}  // namespace floe::tpcc
