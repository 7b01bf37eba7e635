// generate_series source: the morsel is a range of the values' ordinals i, and the value is
// start + i * step (integers, numerics as scaled integers, timestamps with a step without
// months), or, for a calendar step, the i-th of the timestamps runtime/series.h computed;
// WITH ORDINALITY's number is i + 1.
// In the register width the arithmetic may wrap in between: the result lies between start
// and stop, so it is exact.
#include "codegen/translator.h"
#include "runtime/series.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

class SeriesSource : public Source {
 public:
  SeriesSource(PipelineEnv& env, const plan::SeriesOp& series) : env_(env), series_(series) {
    // The physical description counts the values (PipelineDescription::value_rows).
    const Value& start = plan::series_argument(*series.start);
    const Value& stop = plan::series_argument(*series.stop);
    const Value& step = plan::series_argument(*series.step);
    start_ = start.as_int128();
    if (start.is_null() || stop.is_null() || step.is_null()) return;  // strict: no rows
    if (auto linear = linear_step(step)) {
      step_ = *linear;
      return;
    }
    auto values = std::make_shared<std::vector<int64_t>>(
        calendar_series(start.as_int64(), stop.as_int64(), step.as_interval()));
    calendar_ = env.codegen.embed_object(std::shared_ptr<void>(values, values->data()));
  }

  void produce(Consumer& consumer) override {
    auto& b = env_.builder();
    auto* type = env_.codegen.register_type(env_.column(series_.column).type);
    env_.emit_loop(env_.morsel_begin, env_.morsel_end, [&](llvm::Value* i, llvm::BasicBlock* next) {
      llvm::Value* value;
      if (calendar_) {
        value = b.CreateLoad(type, b.CreateInBoundsGEP(type, calendar_, i), "series_value");
      } else {
        auto* ordinal = b.CreateSExtOrTrunc(i, type);
        auto* step = llvm::ConstantInt::get(type, to_apint(step_, type));
        auto* start = llvm::ConstantInt::get(type, to_apint(start_, type));
        value = b.CreateAdd(start, b.CreateMul(ordinal, step), "series_value");
      }
      Tuple tuple;
      tuple[series_.column] = {value, nullptr};
      if (series_.ordinality) tuple[*series_.ordinality] = {b.CreateAdd(i, b.getInt64(1)), nullptr};
      consumer.consume(tuple, next);
    });
  }

 private:
  static llvm::APInt to_apint(int128_t value, llvm::Type* type) {
    uint64_t words[2] = {static_cast<uint64_t>(value), static_cast<uint64_t>(value >> 64)};
    return llvm::APInt(128, words).sextOrTrunc(type->getIntegerBitWidth());
  }

  PipelineEnv& env_;
  const plan::SeriesOp& series_;
  int128_t start_ = 0;
  int128_t step_ = 0;
  llvm::Value* calendar_ = nullptr;  // the timestamps of a calendar step
};

}  // namespace

std::unique_ptr<Source> make_series_source(PipelineEnv& env, const plan::SeriesOp& series) {
  return std::make_unique<SeriesSource>(env, series);
}

}  // namespace floe::codegen
