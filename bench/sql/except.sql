-- EXCEPT over l_orderkey (issue 8 bench: set operations).
select count(*) from (
  select l_orderkey from lineitem except select l_orderkey from lineitem where l_quantity > 10
) e;
