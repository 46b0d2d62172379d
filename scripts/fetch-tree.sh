#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make the default base tree: Debian's linux-source-7.2 from the sid suite of
# the mirror this machine already uses, extracted into the cache and turned
# into a git repository tagged $BST_BASE_TAG. Nothing in /etc/apt is changed:
# apt runs on a private sources list and private state directories.
# With KSRC=/your/tree it only checks that tree and leaves it alone.
. "$(dirname "$0")/lib.sh"

PKG=linux-source-7.2

# The first Debian mirror that /etc/apt already names for the main archive.
system_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk '/^URIs:/ { u = $2 } /^Suites:/ && !/security/ && u { print u; exit }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -e "$f" ] || continue
		awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f"
	done
}

download_deb() {
	local dir=$1 mirror
	mirror=$(system_mirror | grep -m1 /debian) ||
		die "no Debian mirror found in /etc/apt; add one or pass KSRC=/path/to/tree"
	info "mirror from /etc/apt: $mirror (suite sid, private apt state)"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s sid main\n' \
		"$mirror" >"$dir/sid.list"
	local apt_opts=(-q -o Dir::Etc::SourceList="$dir/sid.list"
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$dir/lists"
		-o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root)
	apt-get "${apt_opts[@]}" update >"$dir/apt-update.log" 2>&1 ||
		die "apt-get update for sid failed: see $dir/apt-update.log"
	(cd "$dir" && apt-get "${apt_opts[@]}" download "$PKG") >"$dir/apt-download.log" 2>&1 ||
		die "apt-get download $PKG failed: see $dir/apt-download.log"
}

extract_tree() {
	local dir=$1 deb tmp
	deb=$(ls "$dir"/${PKG}_*.deb)
	info "package: $(basename "$deb")"
	tmp=$KSRC.tmp
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/src/$PKG.tar.xz
	tar -xJf "$tmp/usr/src/$PKG.tar.xz" -C "$tmp"
	mv "$tmp/$PKG" "$KSRC"
	rm -rf "$tmp"
}

# The tarball's .gitignore ends with Debian's "ignore everything at the top
# level" block (/* and !/debian/). Drop it so git sees the tree; add with -f
# because the tarball is pristine source and files tracked upstream may match
# other ignore patterns.
make_git_repo() {
	cd "$KSRC"
	sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore
	git init -q -b bootstamp-base-branch
	git config gc.auto 0
	git config user.name "bootstamp harness"
	git config user.email "bootstamp@localhost"
	git add -A -f
	git commit -q -m "Debian linux-source-7.2 $(make -s kernelversion) (base for the bootstamp series)" \
		-m "Extracted from the Debian package; the Debian ignore-all block was removed from .gitignore."
	git tag "$BST_BASE_TAG"
}

main() {
	if [ -d "$KSRC/.git" ] && git -C "$KSRC" rev-parse -q --verify "$BST_BASE_TAG^{commit}" >/dev/null; then
		info "kernel tree: $KSRC ($(make -s -C "$KSRC" kernelversion), base $BST_BASE_TAG = $(git -C "$KSRC" rev-parse --short "$BST_BASE_TAG"))"
		return 0
	fi
	if [ "$KSRC" != "$BST_DEFAULT_KSRC" ]; then
		[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
		git -C "$KSRC" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
			die "KSRC=$KSRC must be a git repository with a commit (the series is applied with git am)"
		git -C "$KSRC" tag "$BST_BASE_TAG" HEAD
		info "tagged HEAD of $KSRC as $BST_BASE_TAG; patches/ will be applied on top of it"
		return 0
	fi
	[ -e "$KSRC" ] && rm -rf "$KSRC"	# a half-made tree from an interrupted run
	local dl=$BST_CACHE/download
	mkdir -p "$dl"
	ls "$dl"/${PKG}_*.deb >/dev/null 2>&1 || step "downloading $PKG from sid (about 160 MB)" download_deb "$dl"
	step "extracting into $KSRC" extract_tree "$dl"
	step "making it a git repository (tag $BST_BASE_TAG; about a minute)" make_git_repo
	info "kernel tree: $KSRC ($(make -s -C "$KSRC" kernelversion))"
}

main "$@"
