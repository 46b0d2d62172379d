# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # sourced: its variables are for the scripts that source it
# Shared shell for every script in scripts/: paths, logging, timed steps,
# and the one way this project invokes kbuild. Source it, do not run it.

set -euo pipefail

BST_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Everything large lives outside the repository, in one cache directory.
BST_CACHE=${BST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootstamp}
BST_OUT=${BST_OUT:-$BST_TOP/out}		# results of the last runs
# TREE=NAME picks one of the Debian trees of scripts/config/trees (fetched
# into the cache); KSRC=/path is any other git tree, left as it is except
# for the ref and worktrees below.
TREE=${TREE:-7.2}
BST_DEFAULT_KSRC=$BST_CACHE/src/linux-$TREE
KSRC=${KSRC:-$BST_DEFAULT_KSRC}
# The commit the series applies to: a ref of its own in KSRC (not a tag or
# branch, so `git tag`, `git branch` and pushes do not see it), set by
# scripts/setup/fetch-tree.sh.
BST_BASE=refs/bootstamp/base

# The series worktree mirrors the base tree's place: src/NAME and
# build/VARIANT below $BST_CACHE for the base, the same below
# $BST_CACHE/series for the series. Kbuild passes source paths relative to
# O=, so both compile with identical command lines and ccache shares every
# object the series does not change.
# BST_SERIES_ROOT and BST_LAB_ROOT may be set to another root of the same
# layout (scripts/gates/mutants.sh: its own trees, never the shared ones).
BST_SERIES_ROOT=${BST_SERIES_ROOT:-$BST_CACHE/series}
BST_SERIES_TREE=$BST_SERIES_ROOT/src/$(basename "$KSRC")
# Two more worktrees of KSRC: the b4 prep branch (scripts/upstream/) and the
# per-patch builds (scripts/gates/bisect-builds.sh, same mirrored layout).
BST_B4_TREE=$BST_CACHE/b4/src/$(basename "$KSRC")
BST_BISECT_ROOT=$BST_CACHE/bisect
# Benchmark-only trees (scripts/bench/lab/trees), same layout again.
BST_LAB_ROOT=${BST_LAB_ROOT:-$BST_CACHE/lab}
lab_tree() { echo "$BST_LAB_ROOT/$1/src/$(basename "$KSRC")"; }
# init and selftest binaries (any variant), and the module per variant;
# a second checkout working beside this one sets its own BST_GUEST.
BST_GUEST=${BST_GUEST:-$BST_CACHE/build/guest}
guest_module_dir() { echo "$BST_GUEST-module/$1"; }
BST_SPARSE=$BST_CACHE/tools/sparse/bin/sparse	# scripts/build/build-sparse.sh

# Debian's python3 (with python3-ply and python3-git for checkpatch's SPDX
# check) must win over another python3 earlier in PATH, such as pyenv's.
export PATH=/usr/bin:$PATH
export ARCH=arm64
export CROSS_COMPILE=aarch64-linux-gnu-
export CCACHE_DIR=${CCACHE_DIR:-$BST_CACHE/ccache}
export CCACHE_BASEDIR=$BST_CACHE
export CCACHE_NOHASHDIR=1
# Depend mode: a miss compiles once instead of preprocessing first to hash,
# and a hit still comes from the manifest of the compiler's own .d file.
# Measured cold on 2 cores (kernel/ and mm/ of the series kernel, 237
# objects): 151.7 s in ccache's default mode, 114.5 s in depend mode, 114.4 s
# without ccache; warm 3.9 s.
export CCACHE_DEPEND=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
BST_JOBS=${BST_JOBS:-$(nproc)}

# Colour only when a person is watching.
if [ -t 1 ]; then
	_b=$'\e[1m' _r=$'\e[31m' _g=$'\e[32m' _n=$'\e[0m'
else
	_b='' _r='' _g='' _n=''
fi

say()  { printf '%s==>%s %s\n' "$_b" "$_n" "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf '%swarning:%s %s\n' "$_r" "$_n" "$*" >&2; }
die()  { printf '%serror:%s %s\n' "$_r" "$_n" "$*" >&2; exit 1; }

# step "what" cmd args...: announce a long step, run it, say how long it took.
# The command runs in a "||" context, where bash ignores set -e inside
# functions: a function given to step must check its own commands.
step() {
	local what=$1 t0 rc=0
	shift
	say "$what"
	t0=$(date +%s)
	"$@" || rc=$?
	if [ "$rc" -ne 0 ]; then
		printf '    %sfailed%s after %ss (exit %s): %s\n' "$_r" "$_n" \
			$(( $(date +%s) - t0 )) "$rc" "$what" >&2
		return "$rc"
	fi
	printf '    %sdone%s in %ss\n' "$_g" "$_n" $(( $(date +%s) - t0 ))
}

# children_cpu: set CHILDREN_CPU to the user plus system seconds of the
# children this shell has waited for so far (bash's times). Call it as a
# command, not in $(...), whose subshell has children of its own.
children_cpu() {
	local f
	f=$(mktemp) || return
	times >"$f"
	CHILDREN_CPU=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] }
		printf "%d\n", n }' "$f")
	rm -f "$f"
}

# kmake TREE BUILDDIR args...: the one kbuild invocation (cross, ccache,
# stable release string so that vermagic matches the module build).
kmake() {
	local tree=$1 bdir=$2
	shift 2
	make -s -C "$tree" O="$bdir" ARCH=arm64 \
		CROSS_COMPILE=$CROSS_COMPILE CC="ccache ${CROSS_COMPILE}gcc" \
		LOCALVERSION= -j"$BST_JOBS" "$@"
}

# The variant's line in scripts/config/variants: NAME TREE FRAGMENT...
variant_line() {
	local line
	line=$(awk -v v="$1" '$1 == v' "$BST_TOP/scripts/config/variants")
	[ -n "$line" ] || die "unknown variant '$1' (see scripts/config/variants)"
	echo "$line"
}

# The lab tree a variant builds ("lab:NAME" in its line), or nothing.
variant_lab() {
	variant_line "$1" | awk '$2 ~ /^lab:/ { print substr($2, 5) }'
}

# Source tree of a variant: the unpatched base or the series worktree.
variant_tree() {
	case $(variant_line "$1" | awk '{ print $2 }') in
	base)   echo "$KSRC" ;;
	series) echo "$BST_SERIES_TREE" ;;
	bisect) echo "$BST_BISECT_ROOT/src/$(basename "$KSRC")" ;;
	lab:*)  lab_tree "$(variant_lab "$1")" ;;
	*)      die "variant '$1' names an unknown tree" ;;
	esac
}

# Config fragments of a variant, as paths relative to the repository.
variant_fragments() {
	variant_line "$1" | awk '{ for (i = 3; i <= NF; i++) print $i }'
}

# O= directory of a variant, below the root of its tree (see above).
variant_bdir() {
	case $(variant_line "$1" | awk '{ print $2 }') in
	base)   echo "$BST_CACHE/build/$1" ;;
	bisect) echo "$BST_BISECT_ROOT/build/$1" ;;
	lab:*)  echo "$(dirname "$(dirname "$(variant_tree "$1")")")/build/$1" ;;
	*)      echo "$BST_SERIES_ROOT/build/$1" ;;
	esac
}

variant_image() { echo "$(variant_bdir "$1")/arch/arm64/boot/Image"; }

# write_expect VARIANT CPUS: what the booted kernel must match, read from the
# build; the guest gets it as /bst/expect (selftests/boot/booted_kernel.c).
write_expect() {
	local bdir
	bdir=$(variant_bdir "$1")
	printf 'VARIANT=%s\nCPUS=%s\nKERNELRELEASE=%s\nUTS_VERSION=%s\nBOOTSTAMP=%s\n' "$1" "$2" \
		"$(cat "$bdir/include/config/kernel.release")" \
		"$(sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "$bdir/include/generated/utsversion.h")" \
		"$(grep -q '^CONFIG_BOOTSTAMP=y' "$bdir/.config" && echo y || echo n)"
}

# suite_apt DIR SUITE: private apt state in DIR for one Debian suite (deb
# and deb-src) on the mirror this machine already uses, as apt itself
# reports it; /etc/apt and the host's package lists stay untouched. Sets
# SUITE_APT, the options to give apt-get and apt-cache, and downloads the
# indexes.
suite_apt() {
	local dir=$1 suite=$2 mirror key=/usr/share/keyrings/debian-archive-keyring.gpg
	mirror=$(apt-get indextargets --format '$(REPO_URI) $(LABEL)' |
		awk '$2 == "Debian" { print $1; exit }')
	[ -n "$mirror" ] ||
		die "no Debian mirror in this machine's apt sources (run apt-get update, or pass KSRC=)"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" || return
	printf 'deb [signed-by=%s] %s %s main\ndeb-src [signed-by=%s] %s %s main\n' \
		"$key" "$mirror" "$suite" "$key" "$mirror" "$suite" >"$dir/$suite.list" || return
	SUITE_APT=(-q -o Dir::Etc::SourceList="$dir/$suite.list"
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$dir/lists"
		-o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root)
	info "mirror from this machine's apt sources: $mirror (suite $suite, private apt state)"
	apt-get "${SUITE_APT[@]}" update >"$dir/apt-update.log" 2>&1 ||
		die "apt-get update for $suite failed: see $dir/apt-update.log"
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' is missing: run 'make deps' (as root) first"
}

# record_rows: record every tab-separated "status name detail" row on stdin
# (what ktap.py and console-check.py print); a row whose status is not pass,
# fail or skip is a failure (the summary would count it nowhere).
record_rows() {
	local status name detail
	while IFS=$'\t' read -r status name detail; do
		case $status in
		pass|fail|skip) record "$status" "$name" "$detail" ;;
		*) record fail "${name:-unnamed row}" "row with status '$status': $status${detail:+ $detail}" ;;
		esac
	done
}

# judge_rows NAME CMD...: run a judge, a command that prints result rows
# (console-check.py, ktap.py), and record its rows. A judge that exits
# non-zero or prints no row has not judged: that is a failure of NAME (its
# error went to stderr, into the log). Without this a crashed judge
# recorded nothing, which no summary counts.
judge_rows() {
	local name=$1 rows rc=0
	shift
	rows=$("$@") || rc=$?
	[ -z "$rows" ] || record_rows <<<"$rows"
	if [ "$rc" -ne 0 ]; then
		record fail "$name" "the judge exited $rc (error above): ${*##*/}"
	elif [ -z "$rows" ]; then
		record fail "$name" "the judge printed no result: ${*##*/}"
	fi
}

# --- the series ------------------------------------------------------------

# patches/ holds three independent series, one directory each (boot stamps,
# PL011 console, SD UHS-I), applied in the order of their names; each is
# posted on its own, with its own cover letter 0000-cover-letter.patch.
series_names() {
	find "$BST_TOP/patches" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort
}

# check_series NAME: NAME must be one of them (for SERIES=).
check_series() {
	series_names | grep -qx -- "$1" ||
		die "SERIES=$1: not a series of patches/ (one of: $(series_names | tr '\n' ' '))"
}

# series_patches [NAME...]: the patch files of the named series (default
# all), in order (a cover letter is not a patch).
series_patches() {
	local name
	# shellcheck disable=SC2046 # series names are words
	[ $# -gt 0 ] || set -- $(series_names)
	for name; do
		find "$BST_TOP/patches/$name" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
			! -name '0000-cover-letter.patch' | sort
	done
}

# Identity of what the series worktree should hold: base commit + patches.
series_stamp() {
	local p
	{
		git -C "$KSRC" rev-parse "$BST_BASE^{commit}"
		series_patches | while read -r p; do echo "$p"; cat "$p"; done
	} | sha256sum | cut -d' ' -f1
}

# ensure_worktree DIR: a git worktree of KSRC at DIR (detached at the base
# tag when new). Callers check out what they need.
ensure_worktree() {
	[ -e "$1/.git" ] && return
	step "creating worktree $1 (about 20 s)" \
		git -C "$KSRC" worktree add -q --force --detach "$1" "$BST_BASE"
}

# am_patch PATCH MESSAGE: git am one patch in the current tree; when it does
# not apply, abort, show git's reasons and die with MESSAGE.
am_patch() {
	git am -q --3way "$1" >"$BST_CACHE/git-am.log" 2>&1 && return
	git am --abort >/dev/null 2>&1 || true
	sed 's/^/    /' "$BST_CACHE/git-am.log" >&2
	die "$2"
}

# write_patches DIR REVS...: the commits as patch files in DIR, the one
# format of patches/ (no commit ids, no signature, so exports are stable).
write_patches() {
	local dir=$1
	shift
	git format-patch -q --no-signature --zero-commit -o "$dir" "$@"
}

# install_patches DIR NAME: replace the numbered patches of patches/NAME
# with DIR's. The cover letter is replaced only when DIR has one.
install_patches() {
	series_patches "$2" | xargs -r rm -f
	cp "$1"/*.patch "$BST_TOP/patches/$2/"
}

# patch_identity FILE: what must survive a round trip of one patch mail:
# author, subject without its [PATCH] prefix, message and diff (not the
# date, message id, file name or the prefix's numbering).
patch_identity() {
	local tmp
	tmp=$(mktemp -d) || return
	git mailinfo "$tmp/msg" "$tmp/diff" <"$1" | grep -v '^Date:'
	cat "$tmp/msg" "$tmp/diff"
	rm -rf "$tmp"
}

# same_series DIR_A DIR_B: do the two directories hold the same series (the
# same patches in the same order, and the same cover letter)? Prints what
# differs.
same_series() {
	local a b rc=0
	mapfile -t a < <(find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort)
	mapfile -t b < <(find "$2" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort)
	if [ ${#a[@]} -ne ${#b[@]} ]; then
		info "${#a[@]} patches in $1, ${#b[@]} in $2"
		return 1
	fi
	for i in "${!a[@]}"; do
		diff -u <(patch_identity "${a[i]}") <(patch_identity "${b[i]}") >/dev/null ||
			{ info "patch $((i + 1)) differs: $(basename "${a[i]}") vs $(basename "${b[i]}")"; rc=1; }
	done
	if [ -f "$1/0000-cover-letter.patch" ] || [ -f "$2/0000-cover-letter.patch" ]; then
		diff -u <("$BST_TOP/scripts/upstream/cover.py" identity "$1/0000-cover-letter.patch") \
			<("$BST_TOP/scripts/upstream/cover.py" identity "$2/0000-cover-letter.patch") |
			sed 's/^/    /' || rc=1
	fi
	return "$rc"
}

# --- the test plan -----------------------------------------------------------

# plan_lines [BOOT...]: lines of the test plan without comments: the boots
# of selftests/plan (make check), and of selftests/plan-full too with
# BST_TIER=full (make check-full); only the named boots, from either file,
# if any are given. With BOOT_VARIANT=NAME they all boot that kernel variant
# instead of their own: a kernel no plan line names, such as slowuart-rt
# (PREEMPT_RT), checked by hand (check_boot_variant first).
plan_lines() {
	local plans=("$BST_TOP/selftests/plan")
	[ "${BST_TIER:-}" != full ] && [ $# -eq 0 ] || plans+=("$BST_TOP/selftests/plan-full")
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${plans[@]}" |
		awk -v only=" $* " -v variant="${BOOT_VARIANT:-}" 'BEGIN { OFS = "\t" }
			only == "  " || index(only, " " $1 " ") { if (variant != "") $2 = variant; print }'
}

# check_boot_variant: BOOT_VARIANT, if set, must name a kernel variant.
check_boot_variant() {
	[ -z "${BOOT_VARIANT:-}" ] || variant_line "$BOOT_VARIANT" >/dev/null
}

# --- guest -----------------------------------------------------------------

QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}	# boot_guest's limit (run-boots.sh sets its own)
QEMU_EFI=/usr/share/qemu-efi-aarch64/QEMU_EFI.fd	# Debian qemu-efi-aarch64

# qemu_machine SMP: the emulated board, the same for every boot and for
# the device trees scripts/guest/mkdtb.sh dumps.
qemu_machine() { echo "-M virt -cpu cortex-a76 -smp $1 -m 512"; }

# sd_card_args IMAGE [CAPS]: an SD host (sdhci-pci, spec 3.00, accepting the
# 1.8 V switch, 208 MHz base clock so that each mode gets its own clock) with
# an sd-card on IMAGE. CAPS: "uhs" offers SDR104, SDR50 and DDR50 (tuning
# then times out in QEMU 7.2), "sdr50" only SDR50 (no tuning). QEMU 7.2's
# sd-card cannot do UHS-I itself (no S18A, no CMD11): the boots make it
# behave as one with the test-only scripts/bench/lab/sd-uhs-model.patch
# (sdhci_pci.uhs_card=1), a layer between the mmc core and the host.
# werror=report: a host disk that is full fails the guest's writes (the
# test says so) instead of pausing the VM, QEMU's default, which looks like
# a guest that hung with every CPU idle until the boot's time limit.
sd_card_args() {
	local caps=0x7
	[ "${2:-uhs}" = sdr50 ] && caps=0x1
	echo "-device sdhci-pci,sd-spec-version=3,uhs=1,capareg=$(printf '0x%08x0578d0b4' "$caps")" \
		"-drive if=none,id=sdcard,format=raw,werror=report,rerror=report,file=$1" \
		"-device sd-card,drive=sdcard,spec_version=3"
}

# uart_fw_args BAUD|none: leave QEMU virt's PL011 (0x9000000, 24 MHz clock)
# as board firmware does before it starts the kernel: divisors for BAUD,
# 8n1 with FIFOs, enabled to send and receive. "none": QEMU's own reset
# state, a UART no firmware programmed (not enabled, divisors 0), which the
# series does not register early (its EDK2 leaves 38400, the tty default).
# Loader writes at reset, in register order: IBRD, FBRD, then LCR_H, which
# latches them, then CR.
uart_fw_args() {
	[ "$1" != none ] || return 0
	[[ $1 =~ ^[1-9][0-9]{2,6}$ ]] || die "bst.uart_fw=$1: expected a baud rate or none"
	local quot=$(((24000000 * 4 + $1 / 2) / $1)) reg val
	for reg in 0x24:$((quot >> 6)) 0x28:$((quot & 63)) 0x2c:0x70 0x30:0x301; do
		val=${reg#*:}
		printf -- '-device loader,addr=%#x,data=%#x,data-len=4 ' $((0x9000000 + ${reg%%:*})) "$val"
	done
}

# boot_guest VARIANT INITRD SMP OUTDIR CMDLINE [QEMU-ARGS...]: boot QEMU virt
# once with a hard timeout, the PL011 as firmware left it at $UART_FW baud
# (uart_fw_args; 115200 unless set, as board firmware leaves a debug UART).
# The PL011 console goes to OUTDIR/console.log, the results channel (virtio
# console) to OUTDIR/results.log. Returns QEMU's exit status; 124 means the
# timeout killed it.
#
# Single-threaded TCG unless QEMU-ARGS has an -accel: with QEMU 7.2's
# default multi-threaded TCG, a guest whose vCPUs all wait in WFI sometimes
# never gets its next timer interrupt (CNTV_CVAL set 1.5 s ahead, ISTATUS
# never set, QEMU idle; the guest went on only when a debugger stopped and
# restarted the VM, at guest time 293 s). Seen on the SD boots under load:
# mmc-uhs stalled in 3 of about 30 runs (one of them a cold make check,
# killed after 780 s), none in 22 runs with thread=single, two at a time.
boot_guest() {
	# shellcheck disable=SC2054 # one option and its value, not a list
	local variant=$1 initrd=$2 smp=$3 out=$4 cmdline=$5 a accel=(-accel tcg,thread=single)
	shift 5
	for a; do
		[ "$a" != -accel ] || accel=()
	done
	mkdir -p "$out"
	rm -f "$out/console.log" "$out/results.log"
	echo "$cmdline" >"$out/cmdline"
	# shellcheck disable=SC2046 # the machine and UART options are words
	timeout --kill-after=10 "$QEMU_TIMEOUT" qemu-system-aarch64 \
		$(qemu_machine "$smp") "${accel[@]}" \
		-display none -monitor none -nic none -no-reboot \
		-chardev file,id=con,path="$out/console.log" -serial chardev:con \
		-device virtio-serial-device \
		-chardev file,id=res,path="$out/results.log" \
		-device virtconsole,chardev=res \
		$(uart_fw_args "${UART_FW:-115200}") \
		-kernel "$(variant_image "$variant")" -initrd "$initrd" \
		-append "$cmdline" "$@" </dev/null >"$out/qemu.log" 2>&1
}

# --- results -----------------------------------------------------------------

# record STATUS NAME [DETAIL]: one result (pass, fail or skip) into the run's
# results file, printed as a KTAP-style line as it happens.
record() {
	local status=$1 name=$2 detail=${3:-}
	printf '%s\t%s\t%s\n' "$status" "$name" "$detail" >>"${BST_RESULTS:?record needs BST_RESULTS}"
	case $status in
	pass) printf '%sok%s %s\n' "$_g" "$_n" "$name" ;;
	skip) printf 'ok %s # SKIP %s\n' "$name" "$detail" ;;
	*)    printf '%snot ok%s %s%s\n' "$_r" "$_n" "$name" "${detail:+ # $detail}" ;;
	esac
}

# unit_tests LABEL DIR: the Python unit tests of DIR, one result per test
# whatever its name (a test of a class whose setUpClass fails, or of a
# module that does not import, is a failed result too). The runner's own
# count ("Ran N tests") must equal the results recorded, and a runner that
# exits non-zero must have recorded a failure.
unit_tests() {
	local label=$1 dir=$2 status name detail n=0 failed=0 rc ran log
	log=$(mktemp) || return
	while IFS=$'\t' read -r status name detail; do
		# unittest counts tests; a class or module fixture that fails
		# is a failure of no test
		[[ $name =~ ^(setUp|tearDown)(Class|Module)\  ]] || n=$((n + 1))
		[ "$status" != fail ] || failed=$((failed + 1))
		record "$status" "$label: $name" "$detail"
	done < <({ KSRC=$KSRC python3 -c "$UNITTEST_ROWS" "$dir"; echo "# exit=$?" >&2; } 2>"$log")
	rc=$(sed -n 's/^# exit=//p' "$log")
	ran=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$log")
	if [ "$n" -eq 0 ]; then
		sed 's/^/    /' "$log"
		record fail "$label: unit tests" "no test ran in $dir (import error?)"
	elif [ "${ran:-none}" != "$n" ]; then
		sed 's/^/    /' "$log"
		record fail "$label: unit tests" "the runner ran ${ran:-no} tests, $n results recorded"
	elif [ "$rc" != 0 ] && [ "$failed" -eq 0 ]; then
		sed 's/^/    /' "$log"
		record fail "$label: unit tests" "the runner exited ${rc:-without a status} and no test failed"
	fi
	rm -f "$log"
}

# unit_tests' runner: unittest discover on DIR ($1) with a result that
# prints one row per test (status, method name, detail) on stdout as it
# ends, and unittest's own summary on stderr; exit 1 unless all passed.
UNITTEST_ROWS='
import sys
import unittest


class Rows(unittest.TextTestResult):
    def startTest(self, test):
        super().startTest(test)
        self.started, self.cur = test, None

    def row(self, test, status, detail):
        name = getattr(test, "_testMethodName", None) or str(test)
        print(f"{status}\t{name}\t{detail}", flush=True)

    def set(self, test, status, detail):
        if getattr(self, "started", None) is not test:
            self.row(test, status, detail)
        elif self.cur is None or self.cur[0] != "fail":
            self.cur = (status, detail)

    def stopTest(self, test):
        super().stopTest(test)
        self.row(test, *(self.cur or ("fail", "no outcome reported")))
        self.started = None

    def why(self, kind, err):
        last = [x for x in str(err[1]).splitlines() if x.strip()] or [""]
        return f"{kind}: {err[0].__name__}: {last[0][:200]}"

    def addSuccess(self, test):
        super().addSuccess(test)
        self.set(test, "pass", "ok")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.set(test, "fail", self.why("FAIL", err))

    def addError(self, test, err):
        super().addError(test, err)
        self.set(test, "fail", self.why("ERROR", err))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.set(test, "skip", f"skipped {reason!r}")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.set(test, "pass", "expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.set(test, "fail", "unexpected success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.set(test, "fail", self.why(f"subtest {subtest._subDescription()}", err))


suite = unittest.defaultTestLoader.discover(sys.argv[1])
res = unittest.TextTestRunner(resultclass=Rows, verbosity=1).run(suite)
sys.exit(0 if res.wasSuccessful() else 1)
'

# expected_skips RESULTS LIST: every skip of RESULTS must be one LIST
# (selftests/expected-skips) expects: a line of LIST is a shell glob
# pattern, a tab and the reason, and a skip matches when the pattern
# matches its "NAME # DETAIL" (as record prints it). A skip that matches
# no pattern is a failure; a pattern that matched no skip is reported (not
# a failure: BOOT= runs a subset of the boots); a malformed line is a
# failure. Records into BST_RESULTS (which may be RESULTS) after reading.
expected_skips() {
	local results=$1 list=$2 line n=0 i status name detail hit pats=() whys=() used=()
	local fails=()
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in '' | '#'*) continue ;; esac
		if [[ $line != *$'\t'?* ]] || [[ ${line%%$'\t'*} = '' ]] ||
			[[ ${line#*$'\t'} == *$'\t'* ]]; then
			fails+=("${list#"$BST_TOP"/}:$n: malformed"$'\t'"want PATTERN, a tab, REASON: $line")
			continue
		fi
		pats+=("${line%%$'\t'*}")
		whys+=("${line#*$'\t'}")
		used+=(0)
	done <"$list"
	while IFS=$'\t' read -r status name detail; do
		[ "$status" = skip ] || continue
		hit=
		for i in "${!pats[@]}"; do
			# shellcheck disable=SC2053 # the pattern is a glob
			if [[ "$name # $detail" == ${pats[i]} ]]; then
				used[i]=1
				hit=1
				break
			fi
		done
		[ -n "$hit" ] || fails+=("unexpected skip: $name"$'\t'"$detail; add it to ${list#"$BST_TOP"/} with a reason if it is meant")
	done <"$results"
	for i in "${!pats[@]}"; do
		[ "${used[i]}" = 1 ] || info "expected skip not seen in this run: ${pats[i]}  (${whys[i]})"
	done
	for line in "${fails[@]}"; do
		record fail "${line%%$'\t'*}" "${line#*$'\t'}"
	done
}

# record_clean NAME FINDINGS: one result for a check that finds problems:
# pass when FINDINGS is empty, else print them and fail with the first.
record_clean() {
	if [ -z "$2" ]; then
		record pass "$1"
	else
		echo "$2" | sed 's/^/    /'
		record fail "$1" "$(echo "$2" | head -1)"
	fi
}

# init_start_ms RESULTS_LOG: when /init started, in ms of the arch counter
# (from counter zero: QEMU's machine start), from its "# bst-init" line.
init_start_ms() {
	sed -n 's/^# bst-init started counter=\([0-9]*\) freq=\([0-9]*\)$/\1 \2/p' "$1" |
		awk '{ printf "%.3f\n", $1 * 1000 / $2 }'
}

# extract_files RESULTS_LOG DIR: write the files /init dumped (bst.dump=)
# into DIR, one file each.
extract_files() {
	mkdir -p "$2"
	awk -v dir="$2" '
		/^# bst-file-begin / { f = dir "/" $3; printf "" >f; next }
		/^# bst-file-end /   { close(f); f = ""; next }
		f != ""              { print >f }
	' "$1"
}
