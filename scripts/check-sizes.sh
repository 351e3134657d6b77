#!/usr/bin/env bash
# check-sizes.sh — the house size rules: no source file under src/ include/ tools/ fuzz/
# lexer/ grammar/ (.c .h .l .y) over 1,000 lines, no C function in src/ tools/ fuzz/ over
# 100 lines.  Prints every offender ("FILE: N lines", "FILE:LINE: function
# NAME is N lines") and exits 1 if there is any, 0 otherwise.
#
# A function's lines run from the first line of its definition (the return
# type, which house style puts on the line above the name) to its closing
# brace; ctags gives the name's line and the end, and we walk back over the
# lines of the declaration that precede the name.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_FILE=${MAX_FILE:-1000}
MAX_FUNC=${MAX_FUNC:-100}
bad=0

command -v ctags >/dev/null || { echo "check-sizes: ctags is not installed" >&2; exit 2; }

while IFS= read -r f; do
	n=$(wc -l <"$f")
	if [ "$n" -gt "$MAX_FILE" ]; then
		echo "$f: $n lines (limit $MAX_FILE)"
		bad=1
	fi
done < <(find src include lexer grammar tools fuzz -type f \( -name '*.c' -o -name '*.h' -o -name '*.l' -o -name '*.y' \) | sort)

for f in $(find src tools fuzz -type f -name '*.c' | sort); do
	out=$(ctags --c-kinds=f --fields=+ne -o - "$f" | perl -e '
		my ($file, $max) = @ARGV;
		open my $fh, "<", $file or die "$file: $!";
		my @src = <$fh>;
		my $bad = 0;
		while (my $tag = <STDIN>)
		{
			chomp $tag;
			my @f = split /\t/, $tag;
			my ($line) = $tag =~ /\tline:(\d+)/;
			my ($end) = $tag =~ /\tend:(\d+)/;
			next unless $line && $end;
			# back over the return type and qualifiers above the name
			my $start = $line;
			while ($start > 1)
			{
				my $prev = $src[ $start - 2 ];
				last if $prev =~ /^\s*$/ || $prev =~ /[;}]\s*$/ || $prev =~ m{\*/\s*$}
				  || $prev =~ /^\s*(#|\/\/)/;
				$start--;
			}
			my $n = $end - $start + 1;
			next if $n <= $max;
			print "$file:$start: function $f[0] is $n lines (limit $max)\n";
		}
	' "$f" "$MAX_FUNC")
	if [ -n "$out" ]; then
		echo "$out"
		bad=1
	fi
done

if [ "$bad" -ne 0 ]; then
	echo "check-sizes: FAILED (files over $MAX_FILE lines or functions over $MAX_FUNC lines)"
	exit 1
fi
echo "check-sizes: ok (files <= $MAX_FILE lines, functions <= $MAX_FUNC lines)"
