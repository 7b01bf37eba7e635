// The random generators of TPC-C 5.11: uniform integers and decimals, NURand (clause 2.1.6)
// with run-time constants C, a-strings and n-strings (4.3.2.2), zip codes (4.3.2.7), customer
// last names from syllables (4.3.2.3) and the 10% "ORIGINAL" data fields (4.3.3.1).
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace floe::tpcc {

// The constants C of NURand(A, x, y) for A = 255 (C_LAST), 1023 (C_ID) and 8191 (OL_I_ID).
struct NurandConstants {
  int64_t c_last = 0;
  int64_t c_id = 0;
  int64_t ol_i_id = 0;
};

class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}

  // Uniform in [low, high], both included.
  int64_t uniform(int64_t low, int64_t high);
  // NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x.
  int64_t nurand(int64_t a, int64_t x, int64_t y, const NurandConstants& constants);

  // Random alphanumeric string of a length uniform in [min, max].
  std::string a_string(int min_length, int max_length);
  // Random numeric string of a length uniform in [min, max].
  std::string n_string(int min_length, int max_length);
  // Four random digits followed by "11111".
  std::string zip();
  // I_DATA / S_DATA: a-string [26, 50], 10% with "ORIGINAL" at a random position.
  std::string data_with_original();

  // C values for the initial population: uniform in [0, A].
  NurandConstants load_constants();
  // C values for the measurement run: C_ID and OL_I_ID anew, C_LAST such that its distance
  // to the load value is in [65, 119] and neither 96 nor 112 (clause 2.1.6.1).
  NurandConstants run_constants(const NurandConstants& load);

 private:
  std::mt19937_64 engine_;
};

// The last name of number 0..999: three syllables by its three digits (clause 4.3.2.3).
std::string last_name(int64_t number);

}  // namespace floe::tpcc
