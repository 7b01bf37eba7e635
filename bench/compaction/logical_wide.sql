-- A join-style pipeline with a wide probe side for logical compaction (bench/RESULTS.md
-- "Logical and smart compaction"): R of 1E6 rows with 3 join keys and 8 BIGINT columns summed
-- above three joins with 2, 2 and 1 matches per probe row; EXPLAIN ANALYZE's probe pipeline
-- (P3: Scan wr ...) in 3 rounds of none / binary / logical / smart.
--   build/shell/floe < bench/compaction/logical_wide.sql | grep 'P3: Scan wr'
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
set compaction = 'none';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'binary';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'logical';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'smart';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'none';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'binary';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'logical';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'smart';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'none';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'binary';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'logical';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'smart';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
