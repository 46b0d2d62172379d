#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-sparse.sh: build a sparse that Linux 7.2 accepts for C=1, into
# $BST_CACHE/tools/sparse/bin. Idempotent: with a working one there it only
# checks.
#
# Why: 7.2 uses __typeof_unqual__ (and __builtin_strlen in MODULE_INFO) under
# __CHECKER__, which bookworm's sparse 0.6.4 cannot parse. The top Makefile
# probes $(CHECK) with scripts/checker-valid.sh and, when the probe fails,
# only warns and sets KBUILD_CHECKSRC = 0: C=1 then checks nothing and
# "passes". Sid's sparse (0.6.5~rc1) has typeof_unqual, but its binary
# package needs sid's glibc, so we build its source package here. Only Debian
# archives are reachable, hence apt, with a private state: /etc/apt and the
# host's package lists are left alone.
. "$(dirname "$0")/../lib.sh"

sparse=$BST_SPARSE
prefix=${sparse%/bin/sparse}

# The same test as the kernel's scripts/checker-valid.sh (sparse exits 0 on
# errors, so look at its output), plus the MODULE_INFO builtin. No version
# check: upstream's 0.6.5-rc1 Makefile still says VERSION=0.6.4.
sparse_ok() {
	local out
	[ -x "$1" ] || return 1
	out=$(printf '%s\n' 'static inline int u(const int *q)' \
		'{ __typeof_unqual__(*q) v = *q; return v; }' \
		'static const char m[__builtin_strlen("abc") + 1] = "abc";' |
		"$1" --arch=arm64 -m64 -mlittle-endian - 2>&1) &&
		! grep -q error <<<"$out"
}

if sparse_ok "$sparse"; then
	info "sparse $("$sparse" --version) in $prefix/bin accepts 7.2's headers"
	exit 0
fi

# Only sparse and cgcc are built (HAVE_*=no below), so no -dev library is
# needed: gcc, make and libc6-dev, which deps.sh installs.
"$BST_TOP/scripts/setup/deps.sh"

t0=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/bst-sparse.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
step "fetching sid's source index" suite_apt "$work" sid || die "could not set up apt for sid"
ver=$(apt-cache "${SUITE_APT[@]}" showsrc --only-source sparse |
	awk '/^Version:/ { print $2; exit }')
[ -n "$ver" ] || die "sid has no source package sparse"

# --download-only checks the files against the signed Sources index and needs
# no dpkg-dev. We build the pristine upstream tarball: Debian's two patches
# only add --as-needed and hard-code gcc-16, which bookworm does not have.
fetch() {
	(cd "$work/src" && apt-get "${SUITE_APT[@]}" source --download-only sparse) \
		>>"$work/apt.log" 2>&1 &&
		tar -xzf "$work"/src/sparse_*.orig.tar.gz -C "$work/src"
}
step "downloading sparse $ver (sid source package)" fetch ||
	die "download failed: $(tail -3 "$work/apt.log")"

mk=(-C "$(echo "$work"/src/sparse-*/)" CC=gcc PREFIX="$prefix"
	HAVE_LIBXML=no HAVE_SQLITE=no HAVE_GTK=no HAVE_LLVM=no HAVE_BOOLECTOR=no
	SPARSE_VERSION="$ver (Debian source, bootstamp build)")
build() {
	make -j"$BST_JOBS" "${mk[@]}" sparse && make "${mk[@]}" install
} >"$work/build.log" 2>&1
step "building sparse $ver, installing sparse and cgcc into $prefix/bin" build ||
	die "build failed: $(tail -5 "$work/build.log")"

sparse_ok "$sparse" || die "the new $sparse still fails the typeof_unqual probe"
say "sparse $("$sparse" --version) ready in $(( $(date +%s) - t0 ))s"
info "use it with: make ... C=1 CHECK=$sparse (lib.sh puts /usr/bin first in PATH)"
