use Test::More; plan skip_all => "todo";
