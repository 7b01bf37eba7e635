#include "tpch/column_streams.h"

#include <array>
#include <cstddef>

namespace floe::tpch {
namespace {

struct StreamSpec {
  int64_t seed;
  int64_t draws_per_row;
};

// Indexed by dbgen stream number; streams 10 and 39 are never drawn from.
constexpr std::array<StreamSpec, 48> kStreams = {{
    {1, 1},           {46831694, 1},   {1841581359, 1}, {1193163244, 1}, {727633698, 1},
    {933588178, 1},   {804159733, 2},  {1671059989, 4}, {1051288424, 4}, {1961692154, 8},
    {1227283347, 1},  {1171034773, 1}, {276090261, 2},  {1066728069, 1}, {209208115, 7},
    {554590007, 7},   {721958466, 7},  {1371272478, 7}, {675466456, 7},  {1808217256, 7},
    {2095021727, 7},  {1769349045, 7}, {904914315, 7},  {373135028, 7},  {717419739, 7},
    {1095462486, 14}, {881155353, 9},  {1489529863, 1}, {1521138112, 3}, {298370230, 1},
    {1140279430, 1},  {1335826707, 2}, {706178559, 9},  {110356601, 1},  {884434366, 3},
    {962338209, 1},   {1341315363, 2}, {709314158, 92}, {591449447, 1},  {431918286, 1},
    {851767375, 1},   {606179079, 2},  {1500869201, 2}, {1434868289, 1}, {263032577, 1},
    {753643799, 1},   {202794285, 1},  {715851524, 1},
}};

}  // namespace

RandomStream column_stream(ColumnStream column, int64_t row) {
  const StreamSpec& spec = kStreams[static_cast<size_t>(column)];
  return RandomStream(skip_seed(spec.seed, (row - 1) * spec.draws_per_row), spec.draws_per_row);
}

}  // namespace floe::tpch
