#include <string>

#include "tpch/column_streams.h"
#include "tpch/random_fields.h"
#include "tpch/table_generators.h"
#include "tpch/text_pool.h"

namespace floe::tpch {
namespace {

// A few supplier comments carry "Customer ... Complaints" or "Customer ... Recommends"
// (TPC-H 4.2.3), which queries 16 and others look for.
constexpr int64_t kRatedPerTenThousand = 10;
constexpr int64_t kComplaintPercent = 50;
constexpr std::string_view kRatingSubject = "Customer ";
constexpr std::string_view kComplaint = "Complaints";
constexpr std::string_view kRecommendation = "Recommends";
constexpr int64_t kRatingLength = 19;

struct SupplierStreams {
  explicit SupplierStreams(int64_t row)
      : address(column_stream(ColumnStream::kSupplierAddress, row)),
        nation(column_stream(ColumnStream::kSupplierNation, row)),
        phone(column_stream(ColumnStream::kSupplierPhone, row)),
        balance(column_stream(ColumnStream::kSupplierBalance, row)),
        comment(column_stream(ColumnStream::kSupplierComment, row)),
        rating(column_stream(ColumnStream::kSupplierRating, row)),
        rating_type(column_stream(ColumnStream::kSupplierRatingType, row)),
        rating_noise(column_stream(ColumnStream::kSupplierRatingNoise, row)),
        rating_offset(column_stream(ColumnStream::kSupplierRatingOffset, row)) {}

  void next_row() {
    for (RandomStream* stream : {&address, &nation, &phone, &balance, &comment, &rating,
                                 &rating_type, &rating_noise, &rating_offset})
      stream->next_row();
  }

  RandomStream address, nation, phone, balance, comment, rating, rating_type, rating_noise,
      rating_offset;
};

// Overwrites part of the comment with a rating; the draws happen for every supplier.
void add_rating(SupplierStreams& streams, std::string& comment) {
  auto length = static_cast<int64_t>(comment.size());
  int64_t rated = streams.rating.uniform(1, 10000);
  int64_t type = streams.rating_type.uniform(0, 100);
  int64_t noise = streams.rating_noise.uniform(0, length - kRatingLength);
  int64_t offset = streams.rating_offset.uniform(0, length - (kRatingLength + noise));
  if (rated > kRatedPerTenThousand) return;
  comment.replace(offset, kRatingSubject.size(), kRatingSubject);
  std::string_view verdict = type < kComplaintPercent ? kComplaint : kRecommendation;
  comment.replace(offset + kRatingSubject.size() + noise, verdict.size(), verdict);
}

}  // namespace

void generate_suppliers(int64_t begin, int64_t end, const RowSink<SupplierRow>& sink) {
  SupplierStreams streams(begin + 1);
  std::string name, address, phone, comment;
  for (int64_t row = begin; row < end; ++row) {
    int64_t key = row + 1;
    tagged_key("Supplier#", key, 9, name);
    random_alphanumeric(streams.address, variable_length(25), address);
    int64_t nation = streams.nation.uniform(0, kNationCount - 1);
    random_phone(streams.phone, nation, phone);
    int64_t balance = streams.balance.uniform(-99999, 999999);
    comment.assign(random_text(streams.comment, variable_length(63)));
    add_rating(streams, comment);
    sink({key, name, address, nation, phone, balance, comment});
    streams.next_row();
  }
}

}  // namespace floe::tpch
