#include "engine/vector/chunk_sources.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/plan/scan_predicates.h"
#include "engine/vector/expression_executor.h"
#include "runtime/series.h"
#include "runtime/table_scanner.h"
#include "storage/error.h"
#include "storage/physical_order.h"

namespace floe::vectorized {
namespace {

class ScanSource : public ChunkSource {
 public:
  ScanSource(const PipelineContext& context, const plan::ScanOp& scan) : executor_(context.worker) {
    // The scanner reads the used columns, in this order (plan::StateSlot::columns).
    for (const auto& column : scan.columns) {
      if (!context.physical.is_used(column.id)) continue;
      size_t index = types_.size();
      columns_[column.id] = index;
      executor_.bind_column(column.id, index);
      types_.push_back(context.plan.registry[column.id].type);
      nullable_.push_back(column.table_column != kRowIdColumn &&
                          scan.table->columns()[column.table_column].nullable);
    }
    plan::ScanPredicates predicates = plan::scan_predicates(scan, context.physical);
    selects_ = predicates.selects;
    predicates_ = std::move(predicates.evaluated);
    selections_.resize(predicates_.size());
    uint32_t slot = context.physical.operator_slots.at(&scan);
    scanner_ = static_cast<TableScanner**>(context.state[slot])[context.worker.worker_id];
  }

  bool produce(uint64_t begin, uint64_t end, ChunkConsumer& consumer) override {
    if (!scanner_->open(begin, end)) throw Error("internal error: an empty scan morsel");
    FloeScanBatch batch;
    while (uint32_t count = scanner_->next(batch)) {
      DataChunk chunk(count);
      for (size_t k = 0; k < types_.size(); ++k) {
        chunk.add_column(Vector::wrap(types_[k], batch.columns[k],
                                      nullable_[k] ? batch.validity[k] : nullptr,
                                      batch.validity_offset));
      }
      chunk.set_count(count);
      chunk.set_selection(selects_ ? batch.selection : nullptr);
      for (size_t i = 0; i < predicates_.size() && chunk.count(); ++i) {
        chunk.set_count(executor_.select(*predicates_[i], chunk, selections_[i]));
        chunk.set_selection(selections_[i].data());
      }
      if (chunk.count() && !consumer.consume(chunk)) return false;
    }
    return true;
  }

 private:
  ExpressionExecutor executor_;
  std::vector<SqlType> types_;  // of the loaded columns
  std::vector<bool> nullable_;
  bool selects_ = false;  // batches may come with a selection vector
  std::vector<const plan::Expr*> predicates_;
  std::vector<std::vector<uint32_t>> selections_;  // per predicate, the rows that pass it
  TableScanner* scanner_ = nullptr;
};

class ValuesSource : public ChunkSource {
 public:
  ValuesSource(const PipelineContext& context, const plan::ValuesOp& values)
      : context_(context), values_(values), executor_(context.worker) {
    for (size_t c = 0; c < values.columns.size(); ++c) columns_[values.columns[c]] = c;
    for (const auto& row : values.rows) {
      if (row.size() != values.columns.size())
        throw Error("internal error: VALUES row has the wrong number of columns");
    }
  }

  bool produce(uint64_t begin, uint64_t end, ChunkConsumer& consumer) override {
    // The expressions have no columns: each is evaluated on a one-row chunk.
    DataChunk one_row(1);
    one_row.set_count(1);
    for (uint64_t first = begin; first < end; first += context_.vector_size) {
      const uint32_t n =
          static_cast<uint32_t>(std::min<uint64_t>(context_.vector_size, end - first));
      DataChunk chunk(n);
      for (ColumnId id : values_.columns) chunk.add_column(context_.plan.registry[id].type);
      for (uint32_t r = 0; r < n; ++r) {
        const auto& row = values_.rows[first + r];
        for (size_t c = 0; c < row.size(); ++c) {
          Vector value = executor_.evaluate(*row[c], one_row);
          chunk.column(c).set(r, value.get(0), *context_.worker.strings);
        }
      }
      chunk.set_count(n);
      if (!consumer.consume(chunk)) return false;
    }
    return true;
  }

 private:
  using ColumnId = plan::ColumnId;
  const PipelineContext& context_;
  const plan::ValuesOp& values_;
  ExpressionExecutor executor_;
};

class SeriesSource : public ChunkSource {
 public:
  SeriesSource(const PipelineContext& context, const plan::SeriesOp& series)
      : context_(context), type_(context.plan.registry[series.column].type) {
    columns_[series.column] = 0;
    if (series.ordinality) columns_[*series.ordinality] = 1;  // WITH ORDINALITY: ordinal + 1
    // The physical description counts the values (PipelineDescription::value_rows); a NULL
    // argument gives none.
    const Value& start = plan::series_argument(*series.start);
    const Value& stop = plan::series_argument(*series.stop);
    const Value& step = plan::series_argument(*series.step);
    if (start.is_null() || stop.is_null() || step.is_null()) return;
    start_ = start.as_int128();
    if (auto linear = linear_step(step)) {
      step_ = *linear;
      return;
    }
    calendar_ = calendar_series(start.as_int64(), stop.as_int64(), step.as_interval());
  }

  bool produce(uint64_t begin, uint64_t end, ChunkConsumer& consumer) override {
    for (uint64_t first = begin; first < end; first += context_.vector_size) {
      const uint32_t n =
          static_cast<uint32_t>(std::min<uint64_t>(context_.vector_size, end - first));
      DataChunk chunk(n);
      Vector& column = chunk.add_column(type_);
      visit_physical(type_.physical(), [&](auto t) {
        using T = decltype(t);
        if constexpr (kIsIntegerLike<T>) {
          T* values = column.mutable_values<T>();
          for (uint32_t i = 0; i < n; ++i) values[i] = value_at(first + i);
        }
      });
      if (columns_.size() > 1) {
        int64_t* ordinals = chunk.add_column(SqlType::big_int()).mutable_values<int64_t>();
        for (uint32_t i = 0; i < n; ++i) ordinals[i] = static_cast<int64_t>(first + i + 1);
      }
      chunk.set_count(n);
      if (!consumer.consume(chunk)) return false;
    }
    return true;
  }

 private:
  // start + ordinal * step in two's complement, as generated code computes it in the
  // register width: it may wrap in between, the result lies between start and stop.
  int128_t value_at(uint64_t ordinal) const {
    if (!calendar_.empty()) return calendar_[ordinal];
    using Unsigned = unsigned __int128;
    return static_cast<int128_t>(static_cast<Unsigned>(start_) +
                                 static_cast<Unsigned>(ordinal) * static_cast<Unsigned>(step_));
  }

  const PipelineContext& context_;
  SqlType type_;
  int128_t start_ = 0;
  int128_t step_ = 0;
  std::vector<int64_t> calendar_;  // the timestamps of a calendar step
};

}  // namespace

std::unique_ptr<ChunkSource> make_scan_source(const PipelineContext& context,
                                              const plan::ScanOp& scan) {
  return std::make_unique<ScanSource>(context, scan);
}

std::unique_ptr<ChunkSource> make_values_source(const PipelineContext& context,
                                                const plan::ValuesOp& values) {
  return std::make_unique<ValuesSource>(context, values);
}

std::unique_ptr<ChunkSource> make_series_source(const PipelineContext& context,
                                                const plan::SeriesOp& series) {
  return std::make_unique<SeriesSource>(context, series);
}

}  // namespace floe::vectorized
