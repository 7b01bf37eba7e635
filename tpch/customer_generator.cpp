#include <string>

#include "tpch/column_streams.h"
#include "tpch/distributions.h"
#include "tpch/random_fields.h"
#include "tpch/table_generators.h"
#include "tpch/text_pool.h"

namespace floe::tpch {

void generate_customers(int64_t begin, int64_t end, const RowSink<CustomerRow>& sink) {
  RandomStream address_stream = column_stream(ColumnStream::kCustomerAddress, begin + 1);
  RandomStream nation_stream = column_stream(ColumnStream::kCustomerNation, begin + 1);
  RandomStream phone_stream = column_stream(ColumnStream::kCustomerPhone, begin + 1);
  RandomStream balance_stream = column_stream(ColumnStream::kCustomerBalance, begin + 1);
  RandomStream segment_stream = column_stream(ColumnStream::kCustomerSegment, begin + 1);
  RandomStream comment_stream = column_stream(ColumnStream::kCustomerComment, begin + 1);
  std::string name, address, phone;
  for (int64_t row = begin; row < end; ++row) {
    int64_t key = row + 1;
    tagged_key("Customer#", key, 9, name);
    random_alphanumeric(address_stream, variable_length(25), address);
    int64_t nation = nation_stream.uniform(0, kNationCount - 1);
    random_phone(phone_stream, nation, phone);
    int64_t balance = balance_stream.uniform(-99999, 999999);
    std::string_view segment = pick(dists::msegmnt, segment_stream);
    std::string_view comment = random_text(comment_stream, variable_length(73));
    sink({key, name, address, nation, phone, balance, segment, comment});
    for (RandomStream* stream : {&address_stream, &nation_stream, &phone_stream, &balance_stream,
                                 &segment_stream, &comment_stream})
      stream->next_row();
  }
}

}  // namespace floe::tpch
