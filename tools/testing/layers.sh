#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# layers.sh - check that the driver's layers depend one way.
#
#   layers.sh [--quiet] [DIR]
#
# The driver in DIR (default drivers/perf/vpmu, with the engine core in
# DIR/engine and the assembler the build runs on the host in DIR/asm) is
# five layers, top to bottom; the table below gives each file's.  A file may include the
# headers and use the functions and data of its own layer and the layers
# below it, never those of a layer above: calls up go through an ops
# table the upper layer registers (struct vpmu_machine_ops), which this
# script sees as the upper layer naming its own functions.
#
# Within a layer that INTERFACES names (the front ends), each pattern of
# the layer's line in LAYERS is one part, and the parts meet only
# through the layer's interface: a file may include the headers and use
# the functions and data of its own part and of the interface's files
# (vpmu.h), never those of another part.  So the loader cannot call the
# perf glue; it calls through an ops table in the interface (struct
# vpmu_pmu_ops), which this script sees as the perf glue naming its own
# functions.  A part may be several files (vpmu_pmu*.[ch]: the perf
# glue, sharing vpmu_pmu_priv.h).  The other layers are one part each: their
# files share internals by design (vpmu_machine.h, vpmu_engine_priv.h).
#
# It reads the sources, without building them: which vpmu_* headers each
# file includes, which functions and data each file defines for the
# others (non-static definitions in .c files, static inline functions in
# headers) and which of those each file names.  It prints that map, file
# by file, and the longest function of each file; it fails on a use or
# an include that goes up or, in a layer of parts, across to another
# part but through the interface, on a file whose layer is not declared, on a
# file of the engine core that includes a system header other than
# through vpmu_port.h, and on a function of 100 lines or more above the
# engine core.  The last line is "layers: N files, N violations".
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
quiet=0
if [ "${1:-}" = --quiet ]; then
	quiet=1
	shift
fi
DIR=${1:-$TOP/drivers/perf/vpmu}

# The layers, top to bottom, and their files (shell patterns).  The one
# place a file's layer is declared.
LAYERS='
main	vpmu_main.c vpmu_version.h
front	vpmu.h vpmu_pmu*.[ch] vpmu_cdev.c vpmu_loader.c vpmu_caps.c vpmu_uhist.c vpmu_hu.c
machine	vpmu_machine*.[ch] vpmu_default_image.[ch] vpmu_compat.h
asm	asm/*
core	engine/* vpmu_hu_uapi.[ch]
'

# The layers made of parts that meet only through an interface (above),
# and the interface's files (shell patterns, each also a part in LAYERS).
INTERFACES='
front	vpmu.h
'

# Functions at least this long fail, in every layer but the engine core
# (whose interpreter loop has a limit of its own).
MAX_LINES=100

# Generated at build time, not kept in git: part of vpmu_default_image.c (and
# kbuild's vpmu.mod.c, which the script skips).
GENERATED=vpmu_default_image_data.h

[ -d "$DIR" ] || { echo "layers: no directory $DIR" >&2; exit 2; }

LAYERS=$LAYERS INTERFACES=$INTERFACES MAX_LINES=$MAX_LINES \
GENERATED=$GENERATED QUIET=$quiet \
exec perl -e '
use strict;
use warnings;

my ($dir) = @ARGV;
my @order = map { (split /\t/)[0] } grep { /\S/ } split /\n/, $ENV{LAYERS};
my %rank;
@rank{@order} = (0 .. $#order);
my @pats;
for my $line (grep { /\S/ } split /\n/, $ENV{LAYERS}) {
	my ($layer, $files) = split /\t/, $line;
	push @pats, [$layer, $_] for split / /, $files;
}
my %iface;	# layer of parts => [its interface patterns]
for my $line (grep { /\S/ } split /\n/, $ENV{INTERFACES}) {
	my ($layer, $files) = split /\t/, $line;
	$iface{$layer} = [split / /, $files];
}
my $max = $ENV{MAX_LINES};
my %rel;
my $quiet = $ENV{QUIET};

sub glob_re {
	my $g = quotemeta shift;
	$g =~ s/\\\*/.*/g;
	$g =~ s/\\\[(.*?)\\\]/[$1]/g;
	return qr/^$g$/;
}

# A pattern with a "/" matches the path of a file below DIR (engine/*), the
# others its name.
sub matches {
	my ($f, $p) = @_;
	return ($p =~ m{/} ? $rel{$f} : $f) =~ glob_re($p);
}

sub layer_of {
	my $f = shift;
	for my $p (@pats) {
		return $p->[0] if matches($f, $p->[1]);
	}
	return undef;
}

# The part of a file: its layer, or in a layer of parts the pattern it
# matches.
sub part_of {
	my ($f, $layer) = @_;
	return $layer unless defined $layer && $iface{$layer};
	for my $p (@pats) {
		return "$layer:$p->[1]" if matches($f, $p->[1]);
	}
	return $layer;
}

sub is_iface {
	my ($f, $layer) = @_;
	return grep { $f =~ glob_re($_) } @{$iface{$layer} // []};
}

# The files of the driver, of its engine (DIR/engine) and of the assembler
# (DIR/asm), by name: the directories share no file name, and includes
# name files without a path.
my (@files, %path);
for my $d ($dir, "$dir/engine", "$dir/asm") {
	next unless -d $d;
	opendir(my $dh, $d) or die "layers: $d: $!\n";
	for (grep { /^vpmu.*\.[ch]$/ && !/\.mod\.c$/ &&
		    $_ ne $ENV{GENERATED} } readdir $dh) {
		die "layers: $_ in $dir and $d\n" if exists $path{$_};
		$path{$_} = "$d/$_";
		$rel{$_} = $d eq $dir ? $_ : substr($d, length($dir) + 1) . "/$_";
		push @files, $_;
	}
	closedir $dh;
}
@files = sort @files;

my (%layer, %part, %incs, %defs, %statics, %tokens, %longest, %longname);
my $bad = 0;

sub violation {
	print "VIOLATION: @_\n";
	$bad++;
}

for my $f (@files) {
	open(my $fh, "<", $path{$f}) or die "layers: $f: $!\n";
	local $/;
	my $src = <$fh>;
	close $fh;

	$layer{$f} = layer_of($f);
	violation("$f: no layer declared (tools/testing/layers.sh)")
		unless defined $layer{$f};
	$part{$f} = part_of($f, $layer{$f});

	my @inc = $src =~ /^[ \t]*#[ \t]*include[ \t]*"([^"]+)"/mg;
	$incs{$f} = [grep { $_ ne $ENV{GENERATED} } @inc];
	# The engine core is portable: kernel and C library headers come
	# through vpmu_port.h only (and the uapi header, ours).
	if (defined $layer{$f} && $layer{$f} eq "core" &&
	    $f ne "vpmu_port.h") {
		for my $sys ($src =~ /^[ \t]*#[ \t]*include[ \t]*<([^>]+)>/mg) {
			violation("$f: includes <$sys>; the core takes it " .
				  "from vpmu_port.h")
				unless $sys eq "linux/vpmu.h";
		}
	}

	# Comments, strings and characters go; newlines stay.
	$src =~ s{(/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27)}{
		my $m = $1;
		(my $nl = $m) =~ s/[^\n]//g;
		($m =~ m{^/}) ? $nl : "0$nl";
	}gse;
	# So do preprocessor lines, continuations included.
	$src =~ s{^[ \t]*#(?:[^\n]*\\\n)*[^\n]*}{
		(my $nl = $&) =~ s/[^\n]//g;
		$nl;
	}gme;

	my @tok;
	my $line = 1;
	while ($src =~ /(\n)|([A-Za-z_]\w*)|([=!<>]=|->|&&|\|\||\S)/g) {
		if (defined $1) {
			$line++;
		} else {
			push @tok, [defined $2 ? $2 : $3, $line];
		}
	}
	my $hdr = $f =~ /\.h$/;

	# Top-level definitions: NAME ( ... ) { at brace depth 0 is a
	# function; NAME [ ... ] = or NAME = at depth 0 is data.  Names
	# used: every name inside braces, and in a .c file every name.
	my ($depth, $paren, $stmt_static, $stmt_extern, $stmt_inline) =
		(0, 0, 0, 0, 0);
	my @used;
	for (my $i = 0; $i < @tok; $i++) {
		my ($t, $ln) = @{$tok[$i]};
		push @used, $t if $depth || !$hdr;
		if ($t eq "{") { $depth++; next; }
		if ($t eq "}") {
			$depth--;
			($stmt_static, $stmt_extern, $stmt_inline) = (0, 0, 0)
				if $depth == 0;
			next;
		}
		next if $depth;
		$paren++ if $t eq "(";
		$paren-- if $t eq ")";
		if ($t eq ";") {
			($stmt_static, $stmt_extern, $stmt_inline) = (0, 0, 0);
			next;
		}
		$stmt_static = 1 if $t eq "static";
		$stmt_extern = 1 if $t eq "extern";
		$stmt_inline = 1 if $t eq "inline";
		next unless $t =~ /^[A-Za-z_]\w*$/ && $i + 1 < @tok && !$paren;
		my $next = $tok[$i + 1][0];
		if ($next eq "(") {
			# Find the matching ")" and see what follows it.
			my ($j, $p) = ($i + 1, 0);
			for (; $j < @tok; $j++) {
				$p++ if $tok[$j][0] eq "(";
				$p-- if $tok[$j][0] eq ")";
				last if !$p;
			}
			next unless $j + 1 < @tok && $tok[$j + 1][0] eq "{";
			# A function: its body ends at the matching "}".
			my ($k, $d) = ($j + 1, 0);
			for (; $k < @tok; $k++) {
				$d++ if $tok[$k][0] eq "{";
				$d-- if $tok[$k][0] eq "}";
				last if !$d;
			}
			push @used, map { $_->[0] } @tok[$i + 1 .. $k];
			my $len = $tok[$k][1] - $ln + 1;
			if (!defined $longest{$f} || $len > $longest{$f}) {
				$longest{$f} = $len;
				$longname{$f} = $t;
			}
			if ($len >= $max && defined $layer{$f} &&
			    $layer{$f} ne "core") {
				violation("$f: $t() is $len lines (limit " .
					  ($max - 1) . ")");
			}
			if ($stmt_static && !($hdr && $stmt_inline)) {
				$statics{$f}{$t} = 1;
			} else {
				$defs{$t} = $f;
			}
			$i = $k;
			($stmt_static, $stmt_extern, $stmt_inline) = (0, 0, 0);
		} elsif (($next eq "=" || $next eq "[") && !$stmt_extern &&
			 !$hdr) {
			if ($stmt_static) {
				$statics{$f}{$t} = 1;
			} else {
				$defs{$t} = $f;
			}
		}
	}
	$tokens{$f} = \@used;
}

# What each file names of what the others define.
my %uses;
for my $f (@files) {
	my %seen;
	for my $t (@{$tokens{$f}}) {
		my $d = $defs{$t};
		next unless defined $d && $d ne $f && !$statics{$f}{$t};
		$uses{$f}{$d}{$t} = 1;
	}
}

my %known = map { $_ => 1 } @files;

# Does $f reach $d, a file of another part of its own layer, other than
# the interface of the layer?
sub across {
	my ($f, $d) = @_;
	my $l = $layer{$f};
	return defined $l && $iface{$l} && defined $layer{$d} &&
	       $layer{$d} eq $l && $part{$d} ne $part{$f} &&
	       !is_iface($d, $l);
}
for my $f (@files) {
	my $lf = $layer{$f} // "?";
	my $rf = $rank{$lf} // $#order;
	unless ($quiet) {
		printf "%s [%s]%s\n", $f, $lf, defined $longest{$f} ?
		       "  longest: $longname{$f}() $longest{$f} lines" : "";
		printf "  includes: %s\n", join(" ", map {
			"$_ [" . ($layer{$_} // "?") . "]"
		} @{$incs{$f}}) if @{$incs{$f}};
	}
	for my $h (@{$incs{$f}}) {
		next unless $known{$h} && defined $layer{$h};
		violation("$f [$lf] includes $h [$layer{$h}], a layer above")
			if $rank{$layer{$h}} < $rf;
		violation("$f [$lf] includes $h, a header of another part " .
			  "of its layer; parts meet through @{$iface{$lf}}")
			if across($f, $h);
	}
	for my $d (sort keys %{$uses{$f} // {}}) {
		my @syms = sort keys %{$uses{$f}{$d}};
		my $ld = $layer{$d} // "?";
		printf "  uses %s [%s]: %s\n", $d, $ld, join(" ", @syms)
			unless $quiet;
		violation("$f [$lf] uses $d [$ld], a layer above: @syms")
			if defined $rank{$ld} && $rank{$ld} < $rf;
		violation("$f [$lf] uses $d, another part of its layer, " .
			  "not through @{$iface{$lf}}: @syms")
			if across($f, $d);
	}
}
printf "layers: %d files, %d violations\n", scalar @files, $bad;
exit($bad ? 1 : 0);
' "$DIR"
