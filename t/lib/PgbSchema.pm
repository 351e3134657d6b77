# PgbSchema.pm — a small JSON Schema checker for the tests of the report
# files: the subset doc/report-json.schema.json uses (type, const, enum,
# required, properties, additionalProperties, items, propertyNames with a
# pattern, $ref to #/$defs/NAME).  check_schema returns the list of
# violations, each "PATH: what", empty when the document conforms.
package PgbSchema;

use strict;
use warnings;
use Exporter 'import';
use JSON::PP ();
use Scalar::Util qw(looks_like_number);

our @EXPORT = qw(check_schema schema_names);

sub _type_of
{
	my ($v) = @_;
	return 'null' unless defined $v;
	return 'boolean' if JSON::PP::is_bool($v);
	return 'object' if ref $v eq 'HASH';
	return 'array' if ref $v eq 'ARRAY';
	# JSON::PP keeps the text of a number: integers have no '.' or exponent
	if (looks_like_number($v) && !(B::svref_2object(\$v)->FLAGS & B::SVp_POK()))
	{
		return $v == int($v) && "$v" !~ /[.eE]/ ? 'integer' : 'number';
	}
	return 'string';
}

sub _check
{
	my ($root, $s, $v, $path, $errors) = @_;
	if (my $ref = $s->{'$ref'})
	{
		my ($name) = $ref =~ m{^#/\$defs/(\w+)$} or die "unsupported \$ref $ref";
		$s = $root->{'$defs'}{$name} or die "no \$defs/$name";
	}
	my $type = _type_of($v);
	if (my $want = $s->{type})
	{
		my @want = ref $want ? @$want : ($want);
		my $ok = grep { $_ eq $type || ($_ eq 'number' && $type eq 'integer') } @want;
		if (!$ok)
		{
			push @$errors, "$path: $type, not " . join(' or ', @want);
			return;
		}
	}
	push @$errors, "$path: not the constant $s->{const}"
	  if exists $s->{const} && (!defined $v || $v ne $s->{const});
	push @$errors, "$path: not one of " . join(', ', @{ $s->{enum} })
	  if $s->{enum} && (!defined $v || !grep { $_ eq $v } @{ $s->{enum} });
	if ($type eq 'object')
	{
		my $props = $s->{properties} || {};
		for my $k (@{ $s->{required} || [] })
		{
			push @$errors, "$path: no member $k" unless exists $v->{$k};
		}
		for my $k (sort keys %$v)
		{
			if ($s->{propertyNames} && $k !~ /$s->{propertyNames}{pattern}/)
			{
				push @$errors, "$path: member name $k";
			}
			if ($props->{$k})
			{
				_check($root, $props->{$k}, $v->{$k}, "$path.$k", $errors);
			}
			elsif (ref $s->{additionalProperties} eq 'HASH')
			{
				_check($root, $s->{additionalProperties}, $v->{$k}, "$path.$k", $errors);
			}
			elsif (defined $s->{additionalProperties} && !$s->{additionalProperties})
			{
				push @$errors, "$path: undocumented member $k";
			}
		}
	}
	if ($type eq 'array' && $s->{items})
	{
		_check($root, $s->{items}, $v->[$_], "$path\[$_]", $errors) for 0 .. $#$v;
	}
}

sub check_schema
{
	my ($schema, $doc) = @_;
	require B;
	my @errors;
	_check($schema, $schema, $doc, '$', \@errors);
	return @errors;
}

# Every member name the schema defines (properties of every object).
sub schema_names
{
	my ($schema) = @_;
	my %names;
	my @todo = ($schema);
	while (my $s = shift @todo)
	{
		next unless ref $s eq 'HASH';
		$names{$_} = 1, push @todo, $s->{properties}{$_} for keys %{ $s->{properties} || {} };
		push @todo, values %{ $s->{'$defs'} || {} };
		push @todo, $s->{items} if $s->{items};
	}
	return sort keys %names;
}

1;
