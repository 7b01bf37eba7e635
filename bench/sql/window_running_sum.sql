-- Running sum of order prices over order date (issue 8 bench: windows).
select max(running) from (
  select sum(o_totalprice) over (order by o_orderdate, o_orderkey rows between unbounded preceding and current row) as running
  from orders
) sums;
