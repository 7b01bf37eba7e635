-- String functions over l_comment (issue 8 bench: scalar functions).
select sum(length(upper(l_comment))), sum(position('ly' in l_comment)),
       count(distinct split_part(l_comment, ' ', 2)), sum(length(replace(l_comment, 'the', 'a')))
from lineitem;
