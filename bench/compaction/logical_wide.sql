-- A join-style pipeline with a wide probe side for logical compaction (bench/RESULTS.md
-- "Logical and smart compaction"): R of 1E6 rows with 3 join keys and 8 BIGINT columns summed
-- above three joins with 2, 2 and 1 matches per probe row. This file makes the tables;
-- logical_wide_round.sql times the query once under none, binary, logical and smart
-- (EXPLAIN ANALYZE's probe pipeline, P3: Scan wr ...). Three rounds:
--   cat bench/compaction/logical_wide.sql bench/compaction/logical_wide_round.sql \
--     bench/compaction/logical_wide_round.sql bench/compaction/logical_wide_round.sql \
--     | build/shell/floe | grep 'P3: Scan wr'
set execution_mode = 'vectorized';
set threads = 2;
set freeze_policy = 'never';
create table wr (k1 bigint, k2 bigint, k3 bigint, c1 bigint, c2 bigint, c3 bigint, c4 bigint, c5 bigint, c6 bigint, c7 bigint, c8 bigint);
insert into wr select n % 10000, (n * 7919) % 10000, (n * 104729) % 10000, n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7 from generate_series(cast(0 as bigint), 999999) as g(n);
create table ws1 (k bigint, v bigint);
insert into ws1 select n % 10000, n from generate_series(0, 19999) as g(n);
create table ws2 (k bigint, v bigint);
insert into ws2 select n % 10000, n from generate_series(0, 19999) as g(n);
create table ws3 (k bigint, v bigint);
insert into ws3 select n, n from generate_series(0, 9999) as g(n);
