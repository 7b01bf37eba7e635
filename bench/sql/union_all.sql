-- UNION ALL over l_orderkey (issue 8 bench: set operations).
select count(*) from (select l_orderkey from lineitem union all select o_orderkey from orders) u;
