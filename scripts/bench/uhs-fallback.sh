#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# uhs-fallback.sh: is a board with a bad UHS-I bus better off with the
# series than with the quirk users apply today (sdhci.debug_quirks2=4)?
# Boots QEMU virt with sdhci-pci and an SD card, interleaved, through the
# test-only card and fault model of scripts/bench/lab/sd-uhs-model.patch (a
# layer between the mmc core and the host: the mmc core, sd.c and sdhci.c
# run unmodified; QEMU 7.2 cannot do UHS-I itself).
#
# Bring-up (issue 28 item 4), per fault model of FAULT_LINES, five boots:
#   unpatched  the base kernel with the model (uhsmodel-base), no quirk
#   quirk      the same with sdhci.debug_quirks2=4: no 1.8 V, so no fault
#              armed at 1.8 V can fire (the guest checks it did not)
#   squirk     the series with sdhci.debug_quirks2=4: the reference for
#              later boots, on the same kernel (the series' other patches
#              move what else runs while the card comes up)
#   first      the series, first boot: it walks down and prints the line
#              that makes later boots start where it ended
#   later      the series with that line (mmc_core.sd_uhs_limit=), taken
#              from an unmeasured first boot of this run
# measured from the host's probe ("mmc0: SDHCI controller on PCI") to the
# card being ready ("mmc0: new ... card at address"), in printk time, with
# the mode the card ends in and what the bring-ups cost (failures, CMD11s,
# CMD6 switches, ACMD41s: from the mmc_request_start trace event). The goal:
# later boots within 5 % of the quirk on the same kernel.
# Runtime (item 3), per fault of RUNTIME_LINES armed after bring-up on an
# SDR50 host: the reads a program makes (selftests/mmc/uhs_symptom), how
# many fail with an error, the time from the first read to the last one
# ending, the mode after, and the boot's block-layer I/O errors; unpatched
# against the series.
#
#   [CLOCK=icount|host] [RUNS=3] scripts/bench/uhs-fallback.sh
#
# CLOCK	icount (default: guest time counted in instructions, the same on
#	every run and under any host load; sleeps and sdhci's 10 s timer
#	are guest time) or host
# RUNS	measured boots per configuration (default 3)
# WARMUP	unmeasured boots per configuration first (default 0)
# PRIME	see bench_set_prime in lib.sh (default 0 for icount, 1 for host)
#
# Results go to out/bench/uhs-fallback-$CLOCK/ or BENCH_OUT (results.md,
# results.json, bringup.md, runtime.md, runtime-results.json, costs.tsv,
# runtime.tsv, boots/).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

CLOCK=${CLOCK:-icount}
bench_set_clock "$CLOCK"
bench_set_prime "$CLOCK"
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-0}
CPUS=2
OUT=${BENCH_OUT:-$BST_OUT/bench/uhs-fallback-$CLOCK}
STATS=$BST_TOP/scripts/bench/stats.py
METRICS=$BST_TOP/scripts/bench/uhs_metrics.py
for n in RUNS WARMUP; do
	[[ ${!n} =~ ^[0-9]+$ ]] || die "$n=${!n} is not a number"
done
[ "$RUNS" -ge 3 ] || die "RUNS=$RUNS: use at least 3 boots per configuration"

# Bring-up fault models: NAME, the model's fault (sdhci_pci.uhs_fault=;
# "-": none), then what the series' first boot must do: the mode it ends
# in, the modes that fail on the way (1.8V: the voltage switch; each twice,
# as a failed mode is tried once more: the DAT line's ten tries twice too;
# a refused switch, the card's answer, once),
# the CMD11s it sends. All on a host that offers SDR104, DDR50 and SDR50. "none":
# QEMU's sdhci does not implement tuning and its card is still sending the
# tuning block when the verifying read comes, so SDR104 and DDR50 fail
# there; a QEMU artifact, not a card's fault (see selftests/plan, mmc-uhs).
FAULT_LINES=(
	"none	-	SDR50	SDR104,SDR104,DDR50,DDR50	5"
	"cmd11	cmd11:all:always	HS	1.8V,1.8V	2"
	"dat	dat:all:always	HS	1.8V,1.8V	20"
	"dead18	dead18:all:always	HS	1.8V,1.8V	2"
	"switch	switch:sdr104,ddr50,sdr50,sdr25:always	HS	SDR104,DDR50,SDR50,SDR25	4"
	"crc	crc:sdr104,ddr50,sdr50,sdr25:always	HS	SDR104,SDR104,DDR50,DDR50,SDR50,SDR50,SDR25,SDR25	8"
)
KINDS="unpatched quirk squirk first later"
# Runtime faults, armed after bring-up: NAME, the fault, the reads.
RUNTIME_LINES=(
	"crc	crc:sdr50:always	16"
	"irq	irq:sdr50:always	1"
)
UHS="sdhci_pci.uhs_card=1 trace_event=mmc:mmc_request_start"
declare -A VARIANT CAPS ARGS FIRST_MODE HINT
CONFIGS=()
for line in "${FAULT_LINES[@]}"; do
	IFS=$'\t' read -r f fault mode path cmd11 <<<"$line"
	arm=
	[ "$fault" = - ] || arm="sdhci_pci.uhs_fault=$fault"
	# The guest test of each kind; symptom_fault checks the model fired.
	sym="bst.run=mmc/uhs_symptom bst.symptom=bringup bst.symptom_wait=30"
	[ "$fault" = - ] || sym+=" bst.symptom_fault=${fault%%:*}"
	FIRST_MODE[$f]=$mode
	for k in $KINDS; do
		c=$f/$k
		CONFIGS+=("$c")
		CAPS[$c]=uhs
		case $k in
		unpatched) VARIANT[$c]=uhsmodel-base ARGS[$c]="$UHS $arm $sym" ;;
		quirk)     VARIANT[$c]=uhsmodel-base
			   ARGS[$c]="$UHS $arm sdhci.debug_quirks2=4 $sym bst.symptom_card=HS"
			   [ "$fault" = - ] || ARGS[$c]+=" bst.symptom_fired=0" ;;
		squirk)    VARIANT[$c]=uhscard
			   ARGS[$c]="$UHS $arm sdhci.debug_quirks2=4 bst.run=mmc/uhs_fallback bst.uhs_mode=HS" ;;
		first)     VARIANT[$c]=uhscard
			   ARGS[$c]="$UHS $arm bst.run=mmc/uhs_fallback bst.uhs_mode=$mode bst.uhs_cmd11=$cmd11 bst.uhs_path=$path" ;;
		later)     VARIANT[$c]=uhscard
			   ARGS[$c]="$UHS $arm bst.run=mmc/uhs_fallback bst.uhs_mode=$mode bst.uhs_cmd11=$([ "$mode" = HS ] && echo 0 || echo 1)" ;;
		esac
	done
done
for line in "${RUNTIME_LINES[@]}"; do
	IFS=$'\t' read -r f fault reads <<<"$line"
	for k in unpatched series; do
		c=runtime-$f/$k
		CONFIGS+=("$c")
		CAPS[$c]=sdr50
		VARIANT[$c]=$([ $k = series ] && echo uhscard || echo uhsmodel-base)
		ARGS[$c]="$UHS bst.timeout=900 bst.run=mmc/uhs_symptom bst.symptom=${fault%%:*} bst.symptom_arm=$fault bst.symptom_reads=$reads bst.symptom_eio=0- bst.symptom_hang=400"
	done
done

need_cmd qemu-system-aarch64
VARIANTS="uhsmodel-base uhscard"
for v in $VARIANTS; do
	bench_check_built "$v"
done
bench_check_init
for t in uhs_fallback uhs_symptom; do
	[ -x "$BST_GUEST/tests/mmc/$t" ] ||
		die "$BST_GUEST/tests/mmc/$t missing: run 'scripts/build/build-guest.sh series', then rerun"
done

# shellcheck disable=SC2086 # the variant names
bench_start "$OUT" $VARIANTS
say "SD UHS-I fallback: ${#FAULT_LINES[@]} fault models at bring-up (${KINDS// /, }) and ${#RUNTIME_LINES[@]} at run time: ${#CONFIGS[@]} configurations, $RUNS boots each, interleaved, CLOCK=$CLOCK"
for v in $VARIANTS; do
	write_expect "$v" "$CPUS" >"$OUT/$v.expect"
	"$BST_TOP/scripts/guest/mkinitramfs.sh" "$v" "$OUT/$v.cpio" "$OUT/$v.expect"
done
SD_CRC=$(python3 "$BST_TOP/scripts/guest/mksdimg.py" "$OUT/sd.img") || exit

# boot CONFIG DIR: one boot; the card image is copied so that no boot sees
# another's writes. A guest test that fails stops the benchmark: the
# numbers would not be those of the behaviour the test describes.
boot() {
	local c=$1 dir=$2 v=${VARIANT[$1]}
	mkdir -p "$dir"
	cp "$OUT/sd.img" "$dir/sd.img"
	# shellcheck disable=SC2046 # words of sd_card_args, paths without blanks
	QEMU_TIMEOUT=1200 bench_boot "$v" "$OUT/$v.cpio" "$CPUS" "$dir" \
		"console=ttyAMA0 panic=-1 bst.sd_crc=$SD_CRC ${ARGS[$c]} ${HINT[$c]:-}" \
		$(sd_card_args "$dir/sd.img" "${CAPS[$c]}") "${QEMU_ARGS[@]}"
	rm -f "$dir/sd.img"
	if grep -q '^not ok' "$dir/results.log"; then
		die "$c boot in $dir: the guest test failed: $(grep -m1 '^not ok' "$dir/results.log")"
	fi
}

# The line each fault model's first boot prints for later boots, from one
# unmeasured first boot: what a user would copy to the command line.
for line in "${FAULT_LINES[@]}"; do
	f=${line%%$'\t'*}
	dir=$OUT/boots/$f-hint
	boot "$f/first" "$dir"
	HINT[$f/later]=$(tr -d '\r' <"$dir/console.log" |
		grep -o 'to start there on later boots: mmc_core\.sd_uhs_limit=[^ ]*' |
		tail -1 | sed 's/.*: //')
	[ -n "${HINT[$f/later]}" ] ||
		die "$f: the first boot printed no 'to start there on later boots: mmc_core.sd_uhs_limit=' line; see $dir/console.log"
	info "$f: first boot ends in ${FIRST_MODE[$f]}, later boots use ${HINT[$f/later]}"
done

printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"
printf 'config\trun\tms\tmode\tfailures\tcmd11\tcmd6\tacmd41\n' >"$OUT/costs.tsv"
printf 'config\trun\treads\tfailed\tseconds\tmode_before\tmode_after\tboot_io_errors\tfired\n' >"$OUT/runtime.tsv"
# measure CONFIG RUN N TOTAL: one boot (bench_rounds); a measured one is
# recorded.
measure() {
	local c=$1 i=$2 dir=$OUT/boots/${1//\//-}-$2 ms mode fails c11 c6 a41 row
	boot "$c" "$dir"
	bench_measured "$i" || return 0
	if [[ $c == runtime-* ]]; then
		row=$(python3 "$METRICS" --runtime "$dir") || exit
		printf '%s\t%s\t%s\n' "$c" "$i" "$row" >>"$OUT/runtime.tsv"
		printf '    [%2d/%d] %-24s run %d: %s\n' "$3" "$4" "$c" "$i" "$row"
		return
	fi
	read -r ms mode fails c11 c6 a41 < <(python3 "$METRICS" "$dir") || exit
	[ "$ms" = - ] || printf '%s\t%s\t%s\n' "$c" "$i" "$ms" >>"$OUT/runs.tsv"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$i" "$ms" "$mode" "$fails" "$c11" "$c6" "$a41" >>"$OUT/costs.tsv"
	printf '    [%2d/%d] %-24s run %d: card ready %7s ms after probe, %s\n' \
		"$3" "$4" "$c" "$i" "$ms" "$mode"
}
bench_rounds "$RUNS" "$WARMUP" measure "${CONFIGS[@]}"
# shellcheck disable=SC2086 # the variant names
bench_finish $VARIANTS

python3 "$METRICS" --bringup "$OUT/costs.tsv" >"$OUT/bringup.md" || exit
python3 "$METRICS" --runtime-table "$OUT/runtime.tsv" >"$OUT/runtime.md" || exit
# The runtime faults' times, in their own results file (a different metric).
cut -f1,2,5 "$OUT/runtime.tsv" >"$OUT/runtime-runs.tsv"
python3 "$STATS" "$OUT/runtime-runs.tsv" --ref runtime-crc/unpatched --unit s --digits 1 \
	--json "$OUT/runtime-results.json" --bench "$(basename "$OUT")-runtime" \
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')" --meta "clock=$CLOCK" --meta "runs=$RUNS" \
	--meta "revision=$(bench_revision)" \
	--meta "metric=seconds from the first of the reads (the fault armed after bring-up) to the last one's end, guest time" \
	--meta "reproduce=\`CLOCK=$CLOCK RUNS=$RUNS scripts/bench/uhs-fallback.sh\`" >/dev/null || exit
costs=$(python3 "$METRICS" --table "$OUT/costs.tsv")
hints=$(for line in "${FAULT_LINES[@]}"; do f=${line%%$'\t'*}; printf '`%s`: `%s`; ' "$f" "${HINT[$f/later]}"; done)
say "results ($RUNS boots each)"
python3 "$STATS" "$OUT/runs.tsv" --ref none/quirk --unit ms --digits 1 \
	--md "$OUT/results.md" --title "SD UHS-I fallback: host probe to card ready, and at run time" \
	--json "$OUT/results.json" --bench "$(basename "$OUT")" \
	--metric "printk time from \`mmc0: SDHCI controller on PCI\` to \`mmc0: new ... card at address\`, in ms, QEMU virt (TCG, CLOCK=$CLOCK). Lower is better. Configurations FAULT/KIND: the fault model of the test-only card (scripts/bench/lab/sd-uhs-model.patch, a layer between the mmc core and the host) and the kernel: unpatched, quirk (unpatched with sdhci.debug_quirks2=4), squirk (the series with it), first (the series' first boot), later (the series with the line the first boot printed). A boot whose card never came is not in this table (see the bring-up table)." \
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
	--meta "host=$(nproc) CPUs, $(qemu-system-aarch64 --version | head -1)" \
	--meta "guest=QEMU virt, cortex-a76, -smp $CPUS, sdhci-pci (spec 3.00, 1.8 V) with an 8 MiB sd-card (spec 3.01)" \
	--meta "series=$(bench_kinfo uhscard); unpatched=$(bench_kinfo uhsmodel-base)" \
	--meta "boots=$RUNS per configuration, interleaved, rotating order; $WARMUP warm-up boot(s) each not counted$(bench_prime_note configuration)" \
	--meta "load average=before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL} s" \
	--meta "clock=$CLOCK" --meta "runs=$RUNS" --meta "revision=$(bench_revision)" \
	--meta "reproduce=\`CLOCK=$CLOCK RUNS=$RUNS scripts/bench/uhs-fallback.sh\`" \
	--meta "later boots' lines=$hints" \
	--note "$(printf '## Bring-up per fault model: unpatched, the quirk, the series with the quirk, first and later\n\n%s' "$(cat "$OUT/bringup.md")")" \
	--note "$(printf '## Faults after bring-up\n\n%s' "$(cat "$OUT/runtime.md")")" \
	--note "$(printf '## What each bring-up cost\n\nMedians per boot (min-max when they differ): the failures (the card\x27s uhs_fallback), and from the mmc_request_start trace event the CMD11s sent, CMD6 bus speed switches and ACMD41s (one per initialisation attempt); the unpatched and quirk boots have only the model\x27s CMD11 count.\n\n%s' "$costs")" \
	--note "Fault models: $(for l in "${FAULT_LINES[@]}"; do printf '`%s`: `%s`; ' "${l%%$'\t'*}" "$(echo "$l" | cut -f2)"; done) at run time: $(for l in "${RUNTIME_LINES[@]}"; do printf '`%s`; ' "$(echo "$l" | cut -f2)"; done)"
echo
cat "$OUT/bringup.md"
echo
cat "$OUT/runtime.md"
info "results: ${OUT#"$BST_TOP"/}/results.md, bringup.md, runtime.md, results.json, runtime-results.json"
