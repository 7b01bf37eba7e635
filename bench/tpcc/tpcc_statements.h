// The SQL statements of the five transactions (clauses 2.4-2.8), with PostgreSQL's $n
// parameters, and the schema of clause 1.3. One text serves every backend: floe substitutes
// the parameters today (and can prepare the same text once PREPARE exists); SQLite prepares
// it with its ?n parameters.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace floe::tpcc {

enum class StatementId {
  // New-Order (2.4.2)
  kNewOrderWarehouse,
  kNewOrderDistrict,
  kNewOrderDistrictUpdate,
  kNewOrderCustomer,
  kNewOrderOrderInsert,
  kNewOrderNewOrderInsert,
  kNewOrderItem,
  kNewOrderStock,
  kNewOrderStockUpdate,
  kNewOrderOrderLineInsert,
  // Payment (2.5.2)
  kPaymentWarehouseUpdate,
  kPaymentWarehouse,
  kPaymentDistrictUpdate,
  kPaymentDistrict,
  kPaymentCustomer,
  kPaymentCustomerUpdate,
  kPaymentCustomerData,
  kPaymentCustomerDataUpdate,
  kPaymentHistoryInsert,
  // Payment and Order-Status: the customers of a last name, ordered by first name.
  kCustomersByLastName,
  // Order-Status (2.6.2)
  kOrderStatusCustomer,
  kOrderStatusLastOrder,
  kOrderStatusOrderLines,
  // Delivery (2.7.4)
  kDeliveryNewOrder,
  kDeliveryNewOrderDelete,
  kDeliveryOrder,
  kDeliveryOrderUpdate,
  kDeliveryOrderLineUpdate,
  kDeliveryOrderLineSum,
  kDeliveryCustomerUpdate,
  // Stock-Level (2.8.2)
  kStockLevelDistrict,
  kStockLevelCount,
  kCount  // number of statements
};

inline constexpr size_t kStatementCount = static_cast<size_t>(StatementId::kCount);

// The statement's SQL text with $1, $2, ... parameters.
const char* statement_sql(StatementId statement);

// The nine tables (clause 1.3); "order" is quoted: ORDER is an SQL keyword.
struct TableSchema {
  const char* name;  // as written in SQL
  size_t column_count;
  const char* create_table;  // CREATE TABLE with the primary key
};
const std::vector<TableSchema>& tables();
// Secondary indexes, made after the initial population: the customer lookup by last name
// (2.5.2.2, 2.6.2.2) and the customer's last order (2.6.2.2).
const std::vector<std::string>& secondary_indexes();

}  // namespace floe::tpcc
