#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# uhs-fallback.sh: what the SD UHS-I fallback costs. Boots QEMU virt with
# sdhci-pci and an sd-card in each configuration below, interleaved, and
# measures the time from the host's probe ("mmc0: SDHCI controller on PCI")
# to the card being ready ("mmc0: new ... card at address"), in printk time,
# with the mode the card ends in and what the bring-ups cost: the failures
# (the card's uhs_fallback) and the commands the host sent (CMD11s, CMD6 bus
# speed switches, ACMD41s: one per attempt after a power cycle), from the
# mmc_request_start trace event.
#
#   RUNS=7 scripts/bench/uhs-fallback.sh
#
# RUNS	measured boots per configuration (default 7)
# WARMUP	unmeasured boots per configuration first (default 1)
# PRIME	1 (default): an unmeasured boot of the same configuration right
#	before each measured one (see bench_rounds in lib.sh); 0: none
#
# QEMU 7.2 cannot do UHS-I: the configurations with a UHS-I card run the
# "uhscard" kernel (the series plus the test-only card and bus faults of
# scripts/bench/lab/sd-uhs-model.patch, sdhci_pci.uhs_card= and
# sdhci_pci.uhs_fault=, with the mmc core unmodified) and, for the verifying
# read only, the series' fault injection (see selftests/plan, "SD UHS-I
# fallback"); "quirk" is the workaround users
# apply today, sdhci.debug_quirks2=4, on the same card. With all three
# UHS-I modes offered, QEMU's own tuning fails SDR104 and DDR50 at the
# verifying read ("qemu-SDR104"; see selftests/plan). Results go
# to out/bench/uhs-fallback/ or BENCH_OUT (results.md, results.json,
# runs.tsv, costs.tsv, boots/).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-7}
WARMUP=${WARMUP:-1}
CPUS=2
OUT=${BENCH_OUT:-$BST_OUT/bench/uhs-fallback}
STATS=$BST_TOP/scripts/bench/stats.py
METRICS=$BST_TOP/scripts/bench/uhs_metrics.py
for n in RUNS WARMUP; do
	[[ ${!n} =~ ^[0-9]+$ ]] || die "$n=${!n} is not a number"
done
[ "$RUNS" -ge 5 ] || die "RUNS=$RUNS: use at least 5 boots per configuration"
bench_set_prime host

FAIL="mmc_core.fail_uhs=1,100,0,-1"
UHS="sdhci_pci.uhs_card=1"
# NAME VARIANT HOST-CAPS KERNEL-COMMAND-LINE (bst.uhs_mode: the mode the
# guest test checks the card ends in; bst.uhs_path: the failed modes).
CONFIG_LINES=(
	"unpatched	baseline	uhs	"
	"none-3.3V	series	uhs	bst.uhs_mode=HS"
	"quirk	uhscard	uhs	$UHS sdhci.debug_quirks2=4 bst.uhs_mode=HS"
	"none-SDR50	uhscard	sdr50	$UHS bst.uhs_mode=SDR50 bst.uhs_cmd11=1"
	"qemu-SDR104	uhscard	uhs	$UHS bst.uhs_mode=SDR50 bst.uhs_path=SDR104,DDR50 bst.uhs_cmd11=3"
	"cmd11	uhscard	uhs	$UHS sdhci_pci.uhs_fault=cmd11:all:always bst.uhs_mode=HS bst.uhs_path=1.8V bst.uhs_cmd11=1"
	"dat	uhscard	uhs	$UHS sdhci_pci.uhs_fault=dat:all:always bst.uhs_mode=HS bst.uhs_path=1.8V bst.uhs_cmd11=10"
	"verify-SDR50	uhscard	sdr50	$UHS $FAIL mmc_core.fail_uhs_steps=verify mmc_core.fail_uhs_modes=sdr50 bst.uhs_mode=SDR25 bst.uhs_path=SDR50 bst.uhs_cmd11=2"
	"switch-all	uhscard	uhs	$UHS sdhci_pci.uhs_fault=switch:sdr104,ddr50,sdr50,sdr25:always bst.uhs_mode=HS bst.uhs_path=SDR104,DDR50,SDR50,SDR25 bst.uhs_cmd11=4"
	"verify-all	uhscard	uhs	$UHS $FAIL mmc_core.fail_uhs_steps=verify bst.uhs_mode=HS bst.uhs_path=SDR104,DDR50,SDR50,SDR25 bst.uhs_cmd11=4"
)
declare -A VARIANT CAPS ARGS
CONFIGS=()
for line in "${CONFIG_LINES[@]}"; do
	IFS=$'\t' read -r name v caps args <<<"$line"
	CONFIGS+=("$name")
	VARIANT[$name]=$v CAPS[$name]=$caps ARGS[$name]=$args
done

need_cmd qemu-system-aarch64
VARIANTS="baseline series uhscard"
for v in $VARIANTS; do
	bench_check_built "$v"
done
bench_check_init
[ -x "$BST_GUEST/tests/mmc/uhs_fallback" ] ||
	die "$BST_GUEST/tests/mmc/uhs_fallback missing: run 'scripts/build/build-guest.sh series', then rerun"

# shellcheck disable=SC2086 # the variant names
bench_start "$OUT" $VARIANTS
say "SD UHS-I fallback: ${#CONFIGS[@]} configurations, $RUNS boots each, interleaved"
for v in $VARIANTS; do
	write_expect "$v" "$CPUS" >"$OUT/$v.expect"
	"$BST_TOP/scripts/guest/mkinitramfs.sh" "$v" "$OUT/$v.cpio" "$OUT/$v.expect"
done
SD_CRC=$(python3 "$BST_TOP/scripts/guest/mksdimg.py" "$OUT/sd.img") || exit

# boot NAME DIR: one boot; the card image is copied so that no boot sees
# another's writes (the tests only read, but a kernel could write).
boot() {
	local name=$1 dir=$2 v=${VARIANT[$1]} run=
	mkdir -p "$dir"
	cp "$OUT/sd.img" "$dir/sd.img"
	[ "$v" = baseline ] || run=mmc/uhs_fallback
	# shellcheck disable=SC2046 # words of sd_card_args, paths without blanks
	bench_boot "$v" "$OUT/$v.cpio" "$CPUS" "$dir" \
		"console=ttyAMA0 panic=-1 bst.run=$run bst.sd_crc=$SD_CRC trace_event=mmc:mmc_request_start ${ARGS[$name]}" \
		$(sd_card_args "$dir/sd.img" "${CAPS[$name]}")
	rm -f "$dir/sd.img"
	if [ -n "$run" ] && grep -q '^not ok' "$dir/results.log"; then
		die "$name boot in $dir: the guest test failed: $(grep -m1 '^not ok' "$dir/results.log")"
	fi
}

printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"
printf 'config\trun\tms\tmode\tfailures\tcmd11\tcmd6\tacmd41\n' >"$OUT/costs.tsv"
# measure CONFIG RUN N TOTAL: one boot (bench_rounds); a measured one is
# recorded.
measure() {
	local c=$1 i=$2 dir=$OUT/boots/$1-$2 ms mode fails c11 c6 a41
	boot "$c" "$dir"
	bench_measured "$i" || return 0
	read -r ms mode fails c11 c6 a41 < <(python3 "$METRICS" "$dir") || exit
	printf '%s\t%s\t%s\n' "$c" "$i" "$ms" >>"$OUT/runs.tsv"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$i" "$ms" "$mode" "$fails" "$c11" "$c6" "$a41" >>"$OUT/costs.tsv"
	printf '    [%2d/%d] %-14s run %d: card ready %7s ms after probe, %s, %s attempts\n' \
		"$3" "$4" "$c" "$i" "$ms" "$mode" "$a41"
}
bench_rounds "$RUNS" "$WARMUP" measure "${CONFIGS[@]}"
# shellcheck disable=SC2086 # the variant names
bench_finish $VARIANTS

costs=$(python3 "$METRICS" --table "$OUT/costs.tsv")
say "results ($RUNS boots each)"
python3 "$STATS" "$OUT/runs.tsv" --ref none-3.3V --unit ms --digits 1 \
	--md "$OUT/results.md" --title "SD UHS-I fallback: host probe to card ready" \
	--json "$OUT/results.json" --bench "$(basename "$OUT")" \
	--metric "printk time from \`mmc0: SDHCI controller on PCI\` to \`mmc0: new ... card at address\`, in ms, QEMU virt (TCG). Lower is better. The mode is the one that line names (HS: 3.3 V high speed); QEMU cannot do UHS-I, so the configurations other than unpatched and none-3.3V run the test-only UHS-I card and its faults (scripts/bench/lab/sd-uhs-model.patch, a layer between the mmc core and the host)." \
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
	--meta "host=$(nproc) CPUs, $(qemu-system-aarch64 --version | head -1)" \
	--meta "guest=QEMU virt, cortex-a76, -smp $CPUS, sdhci-pci (spec 3.00, 1.8 V) with an 8 MiB sd-card (spec 3.01)" \
	--meta "series=$(bench_kinfo series); uhscard=$(bench_kinfo uhscard); unpatched=$(bench_kinfo baseline)" \
	--meta "boots=$RUNS per configuration, interleaved, rotating order; $WARMUP warm-up boot(s) each not counted$(bench_prime_note configuration)" \
	--meta "load average=before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL} s" \
	--meta "clock=host" --meta "runs=$RUNS" --meta "revision=$(bench_revision)" \
	--meta "reproduce=\`RUNS=$RUNS WARMUP=$WARMUP PRIME=$BENCH_PRIME scripts/bench/uhs-fallback.sh\`" \
	--note "$(printf '## What each bring-up cost\n\nMedians per boot (min-max when they differ): the failures (the card\x27s uhs_fallback), and from the mmc_request_start trace event the CMD11s sent, CMD6 bus speed switches and ACMD41s (one per initialisation attempt).\n\n%s' "$costs")" \
	--note "Configurations: $(for l in "${CONFIG_LINES[@]}"; do printf '`%s`: `%s`; ' "${l%%$'\t'*}" "$(echo "$l" | cut -f2-4 | tr '\t' ' ')"; done)"
echo
echo "$costs"
info "results: ${OUT#"$BST_TOP"/}/results.md, results.json, runs.tsv, costs.tsv"
