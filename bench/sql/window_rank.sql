-- Rank of each line within its order by extended price (issue 8 bench: windows).
select count(*), sum(r) from (
  select rank() over (partition by l_orderkey order by l_extendedprice desc) as r from lineitem
) ranked;
