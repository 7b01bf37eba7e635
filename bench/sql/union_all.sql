-- UNION ALL over l_orderkey (issue 8 bench: set operations). The sum makes every value count:
-- a bare count(*) lets DuckDB answer from the inputs' row counts.
select count(*), sum(k) from (select l_orderkey as k from lineitem union all select o_orderkey from orders) u;
