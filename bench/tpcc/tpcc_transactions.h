// The five TPC-C transactions with their full logic (clauses 2.4-2.8) against a Session, and
// their inputs drawn as clauses 2.4.1-2.8.1 prescribe. Each function runs one database
// transaction from BEGIN to COMMIT (New-Order's 1% with an unused item: ROLLBACK). A
// ConflictError passes to the caller with the transaction still open (it rolls back).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/tpcc/tpcc_backend.h"
#include "bench/tpcc/tpcc_random.h"
#include "bench/tpcc/tpcc_schema_sizes.h"

namespace floe::tpcc {

enum class TransactionType { kNewOrder, kPayment, kOrderStatus, kDelivery, kStockLevel };
inline constexpr int kTransactionTypes = 5;
const char* transaction_name(TransactionType type);

struct NewOrderLine {
  int64_t item_id;
  int64_t supply_w_id;
  int64_t quantity;
};
struct NewOrderInput {
  int64_t w_id, d_id, c_id;
  std::vector<NewOrderLine> lines;
  std::string entry_d;
};
struct NewOrderOutput {
  bool rolled_back = false;  // an item was not found
  int64_t o_id = 0;
  double total_amount = 0;
  std::vector<char> brand_generic;  // 'B' or 'G' per line
};

// A customer either by id or, when `c_id` is empty, by last name.
struct CustomerSelector {
  std::optional<int64_t> c_id;
  std::string c_last;
  static CustomerSelector by_id(int64_t c_id) { return {c_id, {}}; }
  static CustomerSelector by_last_name(std::string c_last) {
    CustomerSelector out;
    out.c_last = std::move(c_last);
    return out;
  }
};
struct PaymentInput {
  int64_t w_id, d_id, c_w_id, c_d_id;
  CustomerSelector customer;
  double h_amount;
  std::string h_date;
};
struct PaymentOutput {
  int64_t c_id = 0;
  double c_balance = 0;
  std::string c_credit;
};

struct OrderStatusInput {
  int64_t w_id, d_id;
  CustomerSelector customer;
};
struct OrderStatusOutput {
  int64_t c_id = 0;
  std::optional<int64_t> o_id;
  size_t order_lines = 0;
};

struct DeliveryInput {
  int64_t w_id, carrier_id;
  std::string delivery_d;
};
struct DeliveryOutput {
  int delivered = 0;  // districts with an undelivered order
};

struct StockLevelInput {
  int64_t w_id, d_id, threshold;
};
struct StockLevelOutput {
  int64_t low_stock = 0;
};

NewOrderOutput run_new_order(Session& session, const NewOrderInput& input);
PaymentOutput run_payment(Session& session, const PaymentInput& input);
OrderStatusOutput run_order_status(Session& session, const OrderStatusInput& input);
DeliveryOutput run_delivery(Session& session, const DeliveryInput& input);
StockLevelOutput run_stock_level(Session& session, const StockLevelInput& input);

// Draws transaction types by the mix of clause 5.2.3 (45/43/4/4/4) and their inputs. The
// terminal's warehouse is drawn per transaction, uniformly from all warehouses.
class InputGenerator {
 public:
  InputGenerator(const Scale& scale, int warehouses, uint64_t seed, const NurandConstants& c);

  TransactionType next_type();
  NewOrderInput new_order();
  PaymentInput payment();
  OrderStatusInput order_status();
  DeliveryInput delivery();
  StockLevelInput stock_level();

 private:
  CustomerSelector customer(int by_last_name_percent);
  int64_t other_warehouse(int64_t w_id);

  Scale scale_;
  int warehouses_;
  Random random_;
  NurandConstants c_;
};

}  // namespace floe::tpcc
