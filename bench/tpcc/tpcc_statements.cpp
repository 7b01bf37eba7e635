#include "bench/tpcc/tpcc_statements.h"

#include <array>

namespace floe::tpcc {

namespace {

constexpr std::array<const char*, kStatementCount> kStatements = {
    // New-Order
    "SELECT w_tax FROM warehouse WHERE w_id = $1",
    "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2",
    "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2",
    "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND "
    "c_id = $3",
    "INSERT INTO \"order\" (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
    "o_all_local) VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)",
    "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)",
    "SELECT i_price, i_name, i_data FROM item WHERE i_id = $1",
    // S_DIST_xx of the order's district only (2.4.2.2: xx = D_ID).
    "SELECT s_quantity, s_data, CASE $3 WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN "
    "s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN "
    "s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END FROM stock WHERE "
    "s_w_id = $1 AND s_i_id = $2",
    "UPDATE stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1, "
    "s_remote_cnt = s_remote_cnt + $3 WHERE s_w_id = $4 AND s_i_id = $5",
    "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
    "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES ($1, $2, $3, $4, $5, $6, NULL, "
    "$7, $8, $9)",
    // Payment
    "UPDATE warehouse SET w_ytd = w_ytd + $1 WHERE w_id = $2",
    "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = $1",
    "UPDATE district SET d_ytd = d_ytd + $1 WHERE d_w_id = $2 AND d_id = $3",
    "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = "
    "$1 AND d_id = $2",
    "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, "
    "c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer WHERE c_w_id = $1 AND "
    "c_d_id = $2 AND c_id = $3",
    "UPDATE customer SET c_balance = c_balance - $1, c_ytd_payment = c_ytd_payment + $1, "
    "c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = $2 AND c_d_id = $3 AND c_id = $4",
    "SELECT c_data FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
    "UPDATE customer SET c_data = $1 WHERE c_w_id = $2 AND c_d_id = $3 AND c_id = $4",
    "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    // Payment and Order-Status
    "SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY "
    "c_first",
    // Order-Status
    "SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = $1 AND c_d_id = $2 "
    "AND c_id = $3",
    "SELECT o_id, o_entry_d, o_carrier_id FROM \"order\" WHERE o_w_id = $1 AND o_d_id = $2 AND "
    "o_c_id = $3 ORDER BY o_id DESC LIMIT 1",
    "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE "
    "ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
    // Delivery
    "SELECT min(no_o_id) FROM new_order WHERE no_w_id = $1 AND no_d_id = $2",
    "DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3",
    "SELECT o_c_id FROM \"order\" WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3",
    "UPDATE \"order\" SET o_carrier_id = $1 WHERE o_w_id = $2 AND o_d_id = $3 AND o_id = $4",
    "UPDATE order_line SET ol_delivery_d = $1 WHERE ol_w_id = $2 AND ol_d_id = $3 AND "
    "ol_o_id = $4",
    "SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
    "UPDATE customer SET c_balance = c_balance + $1, c_delivery_cnt = c_delivery_cnt + 1 WHERE "
    "c_w_id = $2 AND c_d_id = $3 AND c_id = $4",
    // Stock-Level
    "SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2",
    "SELECT count(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = $1 AND ol_d_id = $2 "
    "AND ol_o_id < $3 AND ol_o_id >= $4 AND s_w_id = $1 AND s_i_id = ol_i_id AND "
    "s_quantity < $5",
};

}  // namespace

const char* statement_sql(StatementId statement) {
  return kStatements[static_cast<size_t>(statement)];
}

const std::vector<TableSchema>& tables() {
  static const std::vector<TableSchema> kTables = {
      {"warehouse", 9,
       "CREATE TABLE warehouse (w_id integer NOT NULL, w_name varchar(10), w_street_1 "
       "varchar(20), w_street_2 varchar(20), w_city varchar(20), w_state char(2), w_zip char(9), "
       "w_tax numeric(4,4), w_ytd numeric(12,2), PRIMARY KEY (w_id))"},
      {"district", 11,
       "CREATE TABLE district (d_id integer NOT NULL, d_w_id integer NOT NULL, d_name "
       "varchar(10), d_street_1 varchar(20), d_street_2 varchar(20), d_city varchar(20), d_state "
       "char(2), d_zip char(9), d_tax numeric(4,4), d_ytd numeric(12,2), d_next_o_id integer, "
       "PRIMARY KEY (d_w_id, d_id))"},
      {"customer", 21,
       "CREATE TABLE customer (c_id integer NOT NULL, c_d_id integer NOT NULL, c_w_id integer NOT "
       "NULL, c_first varchar(16), c_middle char(2), c_last varchar(16), c_street_1 varchar(20), "
       "c_street_2 varchar(20), c_city varchar(20), c_state char(2), c_zip char(9), c_phone "
       "char(16), c_since timestamp, c_credit char(2), c_credit_lim numeric(12,2), c_discount "
       "numeric(4,4), c_balance numeric(12,2), c_ytd_payment numeric(12,2), c_payment_cnt "
       "integer, c_delivery_cnt integer, c_data varchar(500), PRIMARY KEY (c_w_id, c_d_id, "
       "c_id))"},
      {"history", 8,
       "CREATE TABLE history (h_c_id integer, h_c_d_id integer, h_c_w_id integer, h_d_id "
       "integer, h_w_id integer, h_date timestamp, h_amount numeric(6,2), h_data varchar(24))"},
      {"new_order", 3,
       "CREATE TABLE new_order (no_o_id integer NOT NULL, no_d_id integer NOT NULL, no_w_id "
       "integer NOT NULL, PRIMARY KEY (no_w_id, no_d_id, no_o_id))"},
      {"\"order\"", 8,
       "CREATE TABLE \"order\" (o_id integer NOT NULL, o_d_id integer NOT NULL, o_w_id integer "
       "NOT NULL, o_c_id integer, o_entry_d timestamp, o_carrier_id integer, o_ol_cnt integer, "
       "o_all_local integer, PRIMARY KEY (o_w_id, o_d_id, o_id))"},
      {"order_line", 10,
       "CREATE TABLE order_line (ol_o_id integer NOT NULL, ol_d_id integer NOT NULL, ol_w_id "
       "integer NOT NULL, ol_number integer NOT NULL, ol_i_id integer, ol_supply_w_id integer, "
       "ol_delivery_d timestamp, ol_quantity integer, ol_amount numeric(6,2), ol_dist_info "
       "char(24), PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))"},
      {"item", 5,
       "CREATE TABLE item (i_id integer NOT NULL, i_im_id integer, i_name varchar(24), i_price "
       "numeric(5,2), i_data varchar(50), PRIMARY KEY (i_id))"},
      {"stock", 17,
       "CREATE TABLE stock (s_i_id integer NOT NULL, s_w_id integer NOT NULL, s_quantity "
       "integer, s_dist_01 char(24), s_dist_02 char(24), s_dist_03 char(24), s_dist_04 char(24), "
       "s_dist_05 char(24), s_dist_06 char(24), s_dist_07 char(24), s_dist_08 char(24), "
       "s_dist_09 char(24), s_dist_10 char(24), s_ytd integer, s_order_cnt integer, "
       "s_remote_cnt integer, s_data varchar(50), PRIMARY KEY (s_w_id, s_i_id))"},
  };
  return kTables;
}

const std::vector<std::string>& secondary_indexes() {
  static const std::vector<std::string> kIndexes = {
      "CREATE INDEX customer_last_name ON customer (c_w_id, c_d_id, c_last, c_first)",
      "CREATE INDEX order_customer ON \"order\" (o_w_id, o_d_id, o_c_id, o_id)",
  };
  return kIndexes;
}

}  // namespace floe::tpcc
