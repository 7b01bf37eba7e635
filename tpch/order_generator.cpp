#include <array>
#include <string>

#include "storage/date_time.h"
#include "tpch/column_streams.h"
#include "tpch/distributions.h"
#include "tpch/random_fields.h"
#include "tpch/table_generators.h"
#include "tpch/text_pool.h"

namespace floe::tpch {
namespace {

constexpr int64_t kMaxLinesPerOrder = 7;
// Order dates leave room for the latest ship (121 days later) and receipt (30 more) dates
// before 1998-12-31.
constexpr int64_t kOrderDateDays = 2406;
// Lineitems shipped (received) by this date are finished (may be returned).
const int32_t kStartDate = days_from_civil(1992, 1, 1);
const int32_t kCurrentDate = days_from_civil(1995, 6, 17);

// Order keys use only the first 8 of every 32 numbers (dbgen's mk_sparse), leaving the
// gaps for the refresh functions' new orders.
int64_t sparse_order_key(int64_t index) {
  return ((index >> 3) << 5) | (index & 7);
}

// A third of the customers place no orders: keys divisible by 3 are moved to a neighbour.
int64_t living_customer(int64_t custkey, int64_t customers) {
  int64_t step = 1;
  while (custkey % 3 == 0) {
    custkey = std::min(custkey + step, customers);
    step = -step;
  }
  return custkey;
}

struct OrderStreams {
  explicit OrderStreams(int64_t row)
      : custkey(column_stream(ColumnStream::kOrderCustKey, row)),
        date(column_stream(ColumnStream::kOrderDate, row)),
        priority(column_stream(ColumnStream::kOrderPriority, row)),
        clerk(column_stream(ColumnStream::kOrderClerk, row)),
        comment(column_stream(ColumnStream::kOrderComment, row)),
        line_count(column_stream(ColumnStream::kOrderLineCount, row)),
        quantity(column_stream(ColumnStream::kLineQuantity, row)),
        discount(column_stream(ColumnStream::kLineDiscount, row)),
        tax(column_stream(ColumnStream::kLineTax, row)),
        instruct(column_stream(ColumnStream::kLineInstruct, row)),
        ship_mode(column_stream(ColumnStream::kLineShipMode, row)),
        line_comment(column_stream(ColumnStream::kLineComment, row)),
        partkey(column_stream(ColumnStream::kLinePartKey, row)),
        supp_number(column_stream(ColumnStream::kLineSuppNumber, row)),
        ship_date(column_stream(ColumnStream::kLineShipDate, row)),
        commit_date(column_stream(ColumnStream::kLineCommitDate, row)),
        receipt_date(column_stream(ColumnStream::kLineReceiptDate, row)),
        return_flag(column_stream(ColumnStream::kLineReturnFlag, row)) {}

  void next_row() {
    for (RandomStream* stream :
         {&custkey, &date, &priority, &clerk, &comment, &line_count, &quantity, &discount, &tax,
          &instruct, &ship_mode, &line_comment, &partkey, &supp_number, &ship_date, &commit_date,
          &receipt_date, &return_flag})
      stream->next_row();
  }

  RandomStream custkey, date, priority, clerk, comment, line_count;
  RandomStream quantity, discount, tax, instruct, ship_mode, line_comment, partkey, supp_number,
      ship_date, commit_date, receipt_date, return_flag;
};

LineItemRow random_lineitem(const Scale& scale, OrderStreams& streams, const OrderRow& order,
                            int64_t linenumber) {
  LineItemRow line;
  line.orderkey = order.orderkey;
  line.linenumber = linenumber;
  line.quantity = streams.quantity.uniform(1, 50);
  line.discount = streams.discount.uniform(0, 10);
  line.tax = streams.tax.uniform(0, 8);
  line.shipinstruct = pick(dists::instruct, streams.instruct);
  line.shipmode = pick(dists::smode, streams.ship_mode);
  line.comment = random_text(streams.line_comment, variable_length(27));
  line.partkey = streams.partkey.uniform(1, scale.parts);
  line.suppkey = part_supplier(scale, line.partkey, streams.supp_number.uniform(0, 3));
  line.extendedprice = part_retail_price(line.partkey) * line.quantity;
  line.shipdate = order.orderdate + static_cast<int32_t>(streams.ship_date.uniform(1, 121));
  line.commitdate = order.orderdate + static_cast<int32_t>(streams.commit_date.uniform(30, 90));
  line.receiptdate = line.shipdate + static_cast<int32_t>(streams.receipt_date.uniform(1, 30));
  line.returnflag =
      line.receiptdate <= kCurrentDate ? pick(dists::rflag, streams.return_flag)[0] : 'N';
  line.linestatus = line.shipdate <= kCurrentDate ? 'F' : 'O';
  return line;
}

// The price after discount and tax, rounded down in two steps as dbgen does.
int64_t charged_price(const LineItemRow& line) {
  return line.extendedprice * (100 - line.discount) / 100 * (100 + line.tax) / 100;
}

}  // namespace

void generate_orders(const Scale& scale, int64_t begin, int64_t end,
                     const RowSink<OrderRow>& order_sink,
                     const RowSink<LineItemRow>& lineitem_sink) {
  OrderStreams streams(begin + 1);
  std::string clerk;
  std::array<LineItemRow, kMaxLinesPerOrder> lines;
  for (int64_t row = begin; row < end; ++row) {
    OrderRow order;
    order.orderkey = sparse_order_key(row + 1);
    order.custkey = living_customer(streams.custkey.uniform(1, scale.customers), scale.customers);
    order.orderdate =
        kStartDate + static_cast<int32_t>(streams.date.uniform(0, kOrderDateDays - 1));
    order.orderpriority = pick(dists::o_oprio, streams.priority);
    tagged_key("Clerk#", streams.clerk.uniform(1, scale.clerks), 9, clerk);
    order.clerk = clerk;
    order.shippriority = 0;
    order.comment = random_text(streams.comment, variable_length(49));

    int64_t line_count = streams.line_count.uniform(1, kMaxLinesPerOrder);
    int64_t shipped = 0;
    order.totalprice = 0;
    for (int64_t i = 0; i < line_count; ++i) {
      lines[i] = random_lineitem(scale, streams, order, i + 1);
      order.totalprice += charged_price(lines[i]);
      if (lines[i].linestatus == 'F') ++shipped;
    }
    order.orderstatus = shipped == line_count ? 'F' : shipped > 0 ? 'P' : 'O';

    if (order_sink) order_sink(order);
    if (lineitem_sink) {
      for (int64_t i = 0; i < line_count; ++i) lineitem_sink(lines[i]);
    }
    streams.next_row();
  }
}

}  // namespace floe::tpch
