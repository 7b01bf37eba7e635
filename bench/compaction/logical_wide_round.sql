-- One round of bench/compaction/logical_wide.sql's query under each strategy.
set compaction = 'none';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'binary';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'logical';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
set compaction = 'smart';
explain analyze select count(*), sum(c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8), sum(ws1.v + ws2.v + ws3.v) from wr join ws1 on wr.k1 = ws1.k join ws2 on wr.k2 = ws2.k join ws3 on wr.k3 = ws3.k;
