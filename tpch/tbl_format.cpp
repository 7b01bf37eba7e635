#include "tpch/tbl_format.h"

#include <charconv>
#include <cstdint>

#include "storage/date_time.h"

namespace floe::tpch {
namespace {

// Appends fields, each followed by the '|' separator; the line ends when the writer is
// destroyed, i.e. at the end of the statement that created it.
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}
  ~LineWriter() { out_ += '\n'; }

  LineWriter& text(std::string_view value) {
    out_ += value;
    return separator();
  }
  LineWriter& character(char value) {
    out_ += value;
    return separator();
  }
  LineWriter& integer(int64_t value) {
    append_integer(value);
    return separator();
  }
  LineWriter& money(int64_t cents) {
    if (cents < 0) {
      out_ += '-';
      cents = -cents;
    }
    append_integer(cents / 100);
    out_ += '.';
    out_ += static_cast<char>('0' + cents % 100 / 10);
    out_ += static_cast<char>('0' + cents % 10);
    return separator();
  }
  LineWriter& date(int32_t days) {
    int32_t year;
    uint32_t month, day;
    civil_from_days(days, year, month, day);
    append_integer(year);
    out_ += '-';
    append_two_digits(month);
    out_ += '-';
    append_two_digits(day);
    return separator();
  }

 private:
  LineWriter& separator() {
    out_ += '|';
    return *this;
  }
  void append_integer(int64_t value) {
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out_.append(buffer, result.ptr);
  }
  void append_two_digits(uint32_t value) {
    out_ += static_cast<char>('0' + value / 10);
    out_ += static_cast<char>('0' + value % 10);
  }

  std::string& out_;
};

}  // namespace

void append_tbl_line(std::string& out, const RegionRow& row) {
  LineWriter(out).integer(row.regionkey).text(row.name).text(row.comment);
}

void append_tbl_line(std::string& out, const NationRow& row) {
  LineWriter(out).integer(row.nationkey).text(row.name).integer(row.regionkey).text(row.comment);
}

void append_tbl_line(std::string& out, const SupplierRow& row) {
  LineWriter(out)
      .integer(row.suppkey)
      .text(row.name)
      .text(row.address)
      .integer(row.nationkey)
      .text(row.phone)
      .money(row.acctbal)
      .text(row.comment);
}

void append_tbl_line(std::string& out, const CustomerRow& row) {
  LineWriter(out)
      .integer(row.custkey)
      .text(row.name)
      .text(row.address)
      .integer(row.nationkey)
      .text(row.phone)
      .money(row.acctbal)
      .text(row.mktsegment)
      .text(row.comment);
}

void append_tbl_line(std::string& out, const PartRow& row) {
  LineWriter(out)
      .integer(row.partkey)
      .text(row.name)
      .text(row.mfgr)
      .text(row.brand)
      .text(row.type)
      .integer(row.size)
      .text(row.container)
      .money(row.retailprice)
      .text(row.comment);
}

void append_tbl_line(std::string& out, const PartSuppRow& row) {
  LineWriter(out)
      .integer(row.partkey)
      .integer(row.suppkey)
      .integer(row.availqty)
      .money(row.supplycost)
      .text(row.comment);
}

void append_tbl_line(std::string& out, const OrderRow& row) {
  LineWriter(out)
      .integer(row.orderkey)
      .integer(row.custkey)
      .character(row.orderstatus)
      .money(row.totalprice)
      .date(row.orderdate)
      .text(row.orderpriority)
      .text(row.clerk)
      .integer(row.shippriority)
      .text(row.comment);
}

void append_tbl_line(std::string& out, const LineItemRow& row) {
  LineWriter(out)
      .integer(row.orderkey)
      .integer(row.partkey)
      .integer(row.suppkey)
      .integer(row.linenumber)
      .integer(row.quantity)
      .money(row.extendedprice)
      .money(row.discount)
      .money(row.tax)
      .character(row.returnflag)
      .character(row.linestatus)
      .date(row.shipdate)
      .date(row.commitdate)
      .date(row.receiptdate)
      .text(row.shipinstruct)
      .text(row.shipmode)
      .text(row.comment);
}

}  // namespace floe::tpch
