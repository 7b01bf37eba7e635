// The set-returning functions of runtime/table_function.h through their engine-neutral
// interface (open, next) and the ABI generated code calls.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "runtime/function_adapter.h"
#include "runtime/functions/regex.h"
#include "runtime/runtime_abi.h"
#include "runtime/table_function.h"
#include "storage/date_time.h"
#include "storage/error.h"
#include "storage/value.h"

namespace floe {
namespace {

FunctionSlot slot(std::optional<std::string_view> text) {
  FunctionSlot slot{};
  if (!text) {
    slot.bytes[kFunctionSlotNullOffset] = 1;
    return slot;
  }
  function_adapter::write(slot, StringRef::from(*text));
  return slot;
}

const TableFunction& function(std::string_view name, size_t arguments) {
  for (const TableFunction& overload : table_functions().overloads(name))
    if (overload.parameters.size() == arguments) return overload;
  throw Error("no such overload");
}

// Every value of one call, "NULL" for NULL. The argument strings must outlive the call.
std::vector<std::string> call(std::string_view name,
                              const std::vector<std::optional<std::string_view>>& arguments) {
  std::vector<FunctionSlot> slots;
  for (const auto& argument : arguments) slots.push_back(slot(argument));
  alignas(kTableFunctionCursorAlignment) unsigned char storage[kTableFunctionCursorSize];
  TableFunctionCursor* cursor = function(name, arguments.size()).open(storage, slots);
  StringHeap heap;
  std::vector<std::string> values;
  FunctionSlot value{};
  while (cursor->next(heap, value)) {
    values.push_back(value.bytes[kFunctionSlotNullOffset]
                         ? "NULL"
                         : std::string(function_adapter::read<std::string_view>(value)));
  }
  return values;
}

using Values = std::vector<std::string>;

TEST(TableFunctionTest, StringToTableSplitsAtTheDelimiter) {
  EXPECT_EQ(call("string_to_table", {"a,b,,c", ","}), (Values{"a", "b", "", "c"}));
  EXPECT_EQ(call("string_to_table", {"a,b,", ","}), (Values{"a", "b", ""}));
  EXPECT_EQ(call("string_to_table", {"a,,b", ",,"}), (Values{"a", "b"}));
  EXPECT_EQ(call("string_to_table", {"abc", ""}), (Values{"abc"}));
  EXPECT_EQ(call("string_to_table", {"", ","}), Values{});
  EXPECT_EQ(call("string_to_table", {std::nullopt, ","}), Values{});
  EXPECT_EQ(call("string_to_table", {"h\xc3\xa9!", std::nullopt}), (Values{"h", "\xc3\xa9", "!"}));
  EXPECT_EQ(call("string_to_table", {"a,*,c", ",", "*"}), (Values{"a", "NULL", "c"}));
  EXPECT_EQ(call("string_to_table", {"a,b", ",", std::nullopt}), (Values{"a", "b"}));
  // Parts longer than a StringRef's inline bytes point into the argument.
  EXPECT_EQ(call("string_to_table", {"a rather long first part;x", ";"}),
            (Values{"a rather long first part", "x"}));
}

TEST(TableFunctionTest, RegexpSplitToTableSkipsDegenerateMatches) {
  EXPECT_EQ(call("regexp_split_to_table", {"hello world  x", "\\s+"}),
            (Values{"hello", "world", "x"}));
  EXPECT_EQ(call("regexp_split_to_table", {"hello", ""}), (Values{"h", "e", "l", "l", "o"}));
  EXPECT_EQ(call("regexp_split_to_table", {"abbc", "b*"}), (Values{"a", "c"}));
  EXPECT_EQ(call("regexp_split_to_table", {",a,", ","}), (Values{"", "a", ""}));
  EXPECT_EQ(call("regexp_split_to_table", {"", ","}), (Values{""}));
  EXPECT_EQ(call("regexp_split_to_table", {"aXbxc", "x", "i"}), (Values{"a", "b", "c"}));
  EXPECT_EQ(call("regexp_split_to_table", {"abc", std::nullopt}), Values{});
}

TEST(TableFunctionTest, RegexpSplitToTableErrors) {
  EXPECT_THROW(call("regexp_split_to_table", {"abc", "b", "g"}), Error);
  EXPECT_THROW(call("regexp_split_to_table", {"abc", "("}), Error);
  EXPECT_THROW(call("regexp_split_to_table", {"abc", "b", "z"}), Error);
}

// Between two values the consumers may compile other patterns, evicting the cursor's from
// the per-thread cache: the cursor looks it up again.
TEST(TableFunctionTest, RegexpSplitSurvivesCacheEviction) {
  std::string text = "a1b2c";
  std::vector<FunctionSlot> slots = {slot(text), slot("[0-9]")};
  alignas(kTableFunctionCursorAlignment) unsigned char storage[kTableFunctionCursorSize];
  TableFunctionCursor* cursor = function("regexp_split_to_table", 2).open(storage, slots);
  StringHeap heap;
  FunctionSlot value{};
  Values values;
  while (cursor->next(heap, value)) {
    values.emplace_back(function_adapter::read<std::string_view>(value));
    for (int i = 0; i < 20; ++i) compiled_regex("x" + std::to_string(i), false);
  }
  EXPECT_EQ(values, (Values{"a", "b", "c"}));
}

// generate_series's cursor (LATERAL calls): every value of one call, as Values.
std::vector<Value> series(TypeId type, const std::vector<Value>& arguments) {
  const TableFunction* found = nullptr;
  for (const TableFunction& overload : table_functions().overloads("generate_series"))
    if (overload.parameters[0] == type) found = &overload;
  std::vector<FunctionSlot> slots(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) write_function_slot(arguments[i], slots[i]);
  alignas(kTableFunctionCursorAlignment) unsigned char storage[kTableFunctionCursorSize];
  TableFunctionCursor* cursor = found->open(storage, slots);
  StringHeap heap;
  std::vector<Value> values;
  FunctionSlot value;
  std::memset(value.bytes, 0xff, sizeof value.bytes);  // the cursor clears the NULL flag
  while (cursor->next(heap, value)) {
    EXPECT_FALSE(is_null_argument(value));
    values.push_back(read_function_slot(value, arguments[0].type()));
  }
  return values;
}

TEST(TableFunctionTest, GenerateSeriesOverEveryType) {
  auto integers =
      series(TypeId::kInteger, {Value::integer(5), Value::integer(-1), Value::integer(-3)});
  EXPECT_EQ(integers,
            (std::vector<Value>{Value::integer(5), Value::integer(2), Value::integer(-1)}));
  auto decimals = series(TypeId::kDecimal, {Value::decimal(100, 6, 2), Value::decimal(200, 6, 2),
                                            Value::decimal(75, 6, 2)});
  ASSERT_EQ(decimals.size(), 2u);
  EXPECT_EQ(decimals[1].to_string(), "1.75");
  auto timestamps = series(TypeId::kTimestamp, {Value::timestamp(parse_timestamp("2024-01-31")),
                                                Value::timestamp(parse_timestamp("2024-04-30")),
                                                Value::interval(Interval{.months = 1})});
  ASSERT_EQ(timestamps.size(), 4u);
  EXPECT_EQ(timestamps[1].to_string(), "2024-02-29 00:00:00");
  EXPECT_EQ(timestamps[3].to_string(), "2024-04-29 00:00:00");
  EXPECT_TRUE(series(TypeId::kBigInt,
                     {Value::big_int(1), Value::null(SqlType::big_int()), Value::big_int(1)})
                  .empty());
  EXPECT_THROW(series(TypeId::kBigInt, {Value::big_int(1), Value::big_int(2), Value::big_int(0)}),
               Error);
}

TEST(TableFunctionTest, AbiRecordsErrors) {
  QueryContext query(1);
  StringHeap heap;
  WorkerContext& worker = query.worker(0);
  worker.strings = &heap;
  std::vector<FunctionSlot> slots = {slot("abc"), slot("("), slot("")};
  alignas(kTableFunctionCursorAlignment) unsigned char storage[kTableFunctionCursorSize];
  EXPECT_EQ(floe_rt_table_function_open(&worker, &function("regexp_split_to_table", 3), storage,
                                        slots.data()),
            nullptr);
  EXPECT_TRUE(query.failed());
}

}  // namespace
}  // namespace floe
