-- INTERSECT over l_orderkey (issue 8 bench: set operations).
select count(*) from (
  select l_orderkey from lineitem where l_shipmode = 'AIR'
  intersect
  select l_orderkey from lineitem where l_shipmode = 'RAIL'
) i;
