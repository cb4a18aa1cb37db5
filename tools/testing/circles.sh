#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# circles.sh - list the include/call circles among the C files of a
# directory.
#
#   circles.sh [DIR...]
#
# Each DIR (default: drivers/perf/vpmu, its engine/ and asm/, tools/vpmu
# and selftests/vpmu of this tree) is looked at on its own, its *.c and *.h files only (not
# its subdirectories).  The files are the .c files, each with the .h of
# the same stem; a header without a .c is part of every file that
# includes it (directly or through another such header), as its code is
# compiled into them.  A file depends on another when it includes that
# file's header or names a function or data that file defines for the
# others (a non-static definition in a .c file, a static inline function
# in its header).  A circle is a set of two or more files that all
# depend on one another, through each other: a strongly connected
# component of that graph.
#
# It reads the sources without building them: comments, strings and
# preprocessor lines are left out (so a name used only in a macro is not
# seen), a name after "." or "->" is a member, not a use, a local
# declaration hides a global of that name to the end of its definition,
# and names without a lower-case letter (TEST_F, FIXTURE: the macros of
# kselftest_harness.h) are never definitions.  A name a file defines
# itself, static or not, is its own wherever it appears there.
#
# Prints every circle: its files, then each dependency inside it with
# what ties it (the header included, the names used).  Fails if there is
# one.  The last line is "circles: N dirs, N circles".
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -eq 0 ]; then
	set -- "$TOP/drivers/perf/vpmu" "$TOP/drivers/perf/vpmu/engine" \
		"$TOP/drivers/perf/vpmu/asm" "$TOP/tools/vpmu" \
		"$TOP/selftests/vpmu"
fi
for d in "$@"; do
	[ -d "$d" ] || { echo "circles: no directory $d" >&2; exit 2; }
done

exec perl -w - "$TOP" "$@" <<'PERL'
use strict;

my ($top, @dirs) = @ARGV;

# The source of $path with comments, strings, character constants and
# preprocessor lines blanked out (line count kept); the includes "x.h"
# it names, in order.
sub read_source {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "circles: $path: $!\n";
	my $text = do { local $/; <$fh> };
	close $fh;
	my @inc;
	my $out = '';
	# One pass, left to right: whatever of these starts first wins.
	while ($text =~ m{\G(?:
		(/\*.*?\*/) |			# 1 block comment
		(//[^\n]*) |			# 2 line comment
		("(?:\\.|[^"\\\n])*") |		# 3 string
		('(?:\\.|[^'\\\n])*') |		# 4 character
		(^[ \t]*\#(?:[^\n]*\\\n)*[^\n]*) |	# 5 preprocessor line
		([^/"'\#\n]+|.)		# 6 anything else
	)}gcsmx) {
		if (defined $6) {
			$out .= $6;
			next;
		}
		my $m = $+;
		if (defined $5 && $m =~ /^\s*#\s*include\s*"([^"]+)"/) {
			push @inc, $1;
		}
		(my $keep = $m) =~ tr/\n//cd;
		$out .= (defined $3 || defined $4) ? "0$keep" : " $keep";
	}
	return ($out, \@inc);
}

# Whether the name at $t->[$i] is not a use: a member (after "." or
# "->"), a tag (after struct, union or enum), or a name being declared
# (after a type: a name that is no keyword, then perhaps "*" and const).
# "a * b" reads as a declaration too, so a global multiplied by a local
# is missed.
sub declared {
	my ($t, $i) = @_;
	my $j = $i - 1;
	return 0 if $j < 0;
	return 1 if $t->[$j] =~ /^(?:\.|->|struct|union|enum|goto)$/;
	$j-- while $j > 0 && $t->[$j] =~ /^(?:\*|const)$/;
	return $t->[$j] =~ /^[A-Za-z_]/ && $t->[$j] !~
		/^(?:return|sizeof|case|else|do|typeof|__typeof__|_Alignof)$/;
}

# Walk the tokens of one file: what it defines at file scope (non-static
# for the others, every one for itself) and the names it uses.
sub scan {
	my ($src, $is_header, $defs, $own, $uses) = @_;
	my @t = $src =~ /([A-Za-z_]\w*|->|\S)/g;
	my ($brace, $paren, $init, $body) = (0, 0, 0, 0);
	my %stmt;	# keywords seen in the current file-scope statement
	my %local;	# names declared in the current definition
	my $i = -1;
	while (++$i < @t) {
		my $tok = $t[$i];
		if ($tok eq '{') { $brace++; next; }
		if ($tok eq '}') {
			$brace--;
			# The end of a function's body ends its definition.
			($body, %stmt, %local) = (0) if !$brace && $body;
			next;
		}
		if ($tok eq '(') { $paren++; next; }
		if ($tok eq ')') { $paren--; next; }
		next unless $tok =~ /^[A-Za-z_]/;
		my $prev = $i ? $t[$i - 1] : '';
		my $tag = $prev =~ /^(?:struct|union|enum)$/;
		if ($brace || $paren || $init) {
			# A local name hides a global one to the end of
			# the definition it is declared in.
			if (declared(\@t, $i)) {
				$local{$tok} = 1;
			} elsif (!$local{$tok} && (!$is_header || $brace)) {
				$uses->{$tok} = 1;
			}
			next;
		}
		# File scope, outside any parentheses or initializer.
		if ($tok =~ /^(?:static|extern|inline|typedef)$/) {
			$stmt{$tok} = 1;
			next;
		}
		my $next = $i + 1 < @t ? $t[$i + 1] : '';
		next if $tag || $stmt{typedef} || $tok !~ /[a-z]/;
		my $kind;
		if ($next eq '(') {
			# A function if its parameter list is followed by "{".
			my ($j, $d) = ($i + 1, 0);
			for (; $j < @t; $j++) {
				$d++ if $t[$j] eq '(';
				$d-- if $t[$j] eq ')';
				last if !$d;
			}
			$kind = 'function' if $j + 1 < @t && $t[$j + 1] eq '{';
		} elsif ($next =~ /^[=;,\[]$/ && !$is_header && !$stmt{extern}) {
			$kind = 'data';
		}
		next unless $kind;
		$body = $kind eq 'function';
		$own->{$tok} = 1;
		$defs->{$tok} = 1 if !$stmt{static} ||
			($is_header && $stmt{inline} && $kind eq 'function');
	} continue {
		# An initializer runs to the "," or ";" that ends it.
		my $tok = $t[$i];
		if (!$brace && !$paren) {
			if ($tok eq '=') {
				$init = 1;
			} elsif ($tok eq ',' || $tok eq ';') {
				$init = 0;
				(%stmt, %local) = () if $tok eq ';';
			}
		}
	}
}

# Tarjan's strongly connected components of %$edges over @$nodes.
sub components {
	my ($nodes, $edges) = @_;
	my (%index, %low, %on, @stack, @comps);
	my $n = 0;
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$index{$v} = $low{$v} = $n++;
		push @stack, $v;
		$on{$v} = 1;
		for my $w (sort keys %{$edges->{$v} || {}}) {
			if (!defined $index{$w}) {
				$visit->($w);
				$low{$v} = $low{$w} if $low{$w} < $low{$v};
			} elsif ($on{$w} && $index{$w} < $low{$v}) {
				$low{$v} = $index{$w};
			}
		}
		return if $low{$v} != $index{$v};
		my @c;
		my $w;
		do {
			$w = pop @stack;
			$on{$w} = 0;
			push @c, $w;
		} while ($w ne $v);
		push @comps, [sort @c];
	};
	$visit->($_) for grep { !defined $index{$_} } @$nodes;
	return sort { $a->[0] cmp $b->[0] } @comps;
}

# What ties one file to another: "includes x.h; uses f g", each name
# followed by the header without a .c it comes through, if it does.
sub tie_of {
	my ($w) = @_;
	my @what;
	for my $kind (qw(includes uses)) {
		next unless $w->{$kind};
		push @what, join(' ', $kind, map {
			my @via = sort grep { $_ ne '' } keys %{$w->{$kind}{$_}};
			@via && !exists $w->{$kind}{$_}{''} ?
				"$_ (in @via)" : $_;
		} sort keys %{$w->{$kind}});
	}
	return join('; ', @what);
}

my $total = 0;
for my $dir (@dirs) {
	opendir(my $dh, $dir) or die "circles: $dir: $!\n";
	my @files = sort grep { /\.[ch]$/ && !/\.mod\.c$/ && -f "$dir/$_" }
		readdir $dh;
	closedir $dh;
	my %have = map { $_ => 1 } @files;
	# The .c file each file belongs to; none for a header without one.
	my %node;
	for my $f (@files) {
		(my $c = $f) =~ s/\.h$/.c/;
		$node{$f} = $c if $have{$c};
	}

	my (%defs, %own, %uses, %incs);
	for my $f (@files) {
		my ($src, $inc) = read_source("$dir/$f");
		scan($src, $f =~ /\.h$/ ? 1 : 0, $defs{$f} = {}, $own{$f} = {},
		     $uses{$f} = {});
		$incs{$f} = [grep { $have{$_} } @$inc];
	}
	my %definer;
	for my $f (grep { $node{$_} } @files) {
		push @{$definer{$_}}, $node{$f} for keys %{$defs{$f}};
	}

	# A .c file is itself, its header, and every header without a .c
	# that these include, directly or through one another: what such a
	# header declares, defines inline and includes is compiled into its
	# includers.
	my (%edge, %why);
	my @nodes = sort grep { /\.c$/ } @files;
	for my $a (@nodes) {
		(my $h = $a) =~ s/\.c$/.h/;
		my @parts = ($a, $have{$h} ? $h : ());
		my %in = map { $_ => 1 } @parts;
		for (my $k = 0; $k < @parts; $k++) {
			for my $i (@{$incs{$parts[$k]}}) {
				next if $node{$i} || $in{$i}++;
				push @parts, $i;
			}
		}
		my %mine = map { %{$own{$_}} } @parts;
		for my $p (@parts) {
			my $via = $node{$p} ? '' : $p;
			for my $i (@{$incs{$p}}) {
				my $b = $node{$i};
				next unless $b && $b ne $a;
				$edge{$a}{$b} = 1;
				$why{$a}{$b}{includes}{$i}{$via} = 1;
			}
			for my $name (keys %{$uses{$p}}) {
				next if $mine{$name};
				for my $b (@{$definer{$name} || []}) {
					next if $b eq $a;
					$edge{$a}{$b} = 1;
					$why{$a}{$b}{uses}{$name}{$via} = 1;
				}
			}
		}
	}

	my @circles = grep { @$_ > 1 } components(\@nodes, \%edge);
	(my $rel = $dir) =~ s{^\Q$top\E/}{};
	printf "%s: %d files, %d circles\n", $rel, scalar @nodes,
		scalar @circles;
	for my $c (@circles) {
		my %in = map { $_ => 1 } @$c;
		printf "  circle of %d: %s\n", scalar @$c, join(' ', @$c);
		for my $a (@$c) {
			for my $b (sort grep { $in{$_} } keys %{$edge{$a}}) {
				printf "    %s -> %s: %s\n", $a, $b,
					tie_of($why{$a}{$b});
			}
		}
	}
	$total += @circles;
}
printf "circles: %d dirs, %d circles\n", scalar @dirs, $total;
exit($total ? 1 : 0);
PERL
