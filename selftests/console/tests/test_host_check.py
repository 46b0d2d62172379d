# SPDX-License-Identifier: GPL-2.0
"""Unit tests of selftests/console/host-check on small synthetic boots.

Each hole the host-check closes is shown to fail on a broken sample and to
pass on a good one. Run: python3 -m unittest discover -s selftests/console/tests
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HOST_CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'host-check')
MARKER = 'bst-console-marker: written by userspace'
BURST = 200
BURST_TEXT = 'bst-panic-burst: record %03d of %d'
PANIC = 'Kernel panic - not syncing: sysrq triggered crash'

DUMP_CMDLINE = ('console=ttyAMA0 panic=-1 bst.run=console/console_registered_once '
                'ignore_loglevel bst.console_at=init bst.dump=/tmp/bst-console')
PANIC_CMDLINE = ('console=ttyAMA0 panic=-1 bst.run=console/panic_flushes_console '
                 'ignore_loglevel printk.devkmsg=on bst.expect=panic bst.check=console')
BOOT_PANIC_CMDLINE = ('console=ttyAMA0 panic=-1 bst.run=- initcall_debug ignore_loglevel '
                      'lkdtm.cpoint_name=DIRECT lkdtm.cpoint_type=PANIC bst.expect=panic '
                      'bst.check=console')


def record(seq, text):
    """A /dev/kmsg record; its time follows from its number."""
    return '6,%d,%d,-;%s' % (seq, 1000 * seq + 17, text)


def console_line(rec):
    head, _, text = rec.partition(';')
    usec = int(head.split(',')[2])
    return '[%5d.%06d] %s' % (usec // 1000000, usec % 1000000, text)


def summary(records, **over):
    seqs = [int(r.split(',')[1]) for r in records]
    fields = dict(records=len(records), first_seq=seqs[0] if seqs else 0,
                  last_seq=seqs[-1] if seqs else 0, missing=0, overwritten=0,
                  bad=0, error=0)
    fields.update(over)
    return ' '.join('%s=%s' % kv for kv in fields.items()) + '\n'


def boot_records(n=8, first=0):
    texts = ['Booting Linux on physical CPU 0x0000000000 [0x414fd0b0]',
             'Linux version 7.2.13 (bst@host)',
             'printk: console [ttyAMA0] enabled',
             'Serial: AMBA PL011 UART driver',
             'Run /init as init process']
    texts += ['boot record %d' % i for i in range(n - len(texts))]
    return [record(first + i, t) for i, t in enumerate(texts)]


def burst_records(first):
    return [record(first + i, BURST_TEXT % (i + 1, BURST)) for i in range(BURST)]


class Boot:
    """A boot output directory: console.log, cmdline, dump/."""

    def __init__(self, test, cmdline):
        self.dir = tempfile.mkdtemp(prefix='host-check-test-')
        test.addCleanup(shutil.rmtree, self.dir)
        self.env = dict(os.environ)
        self.env.pop('BST_SYSTEM_MAP', None)
        self.write('cmdline', cmdline + '\n')

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)

    def console(self, lines):
        self.write('console.log', ''.join(l + '\r\n' for l in lines))

    def dump(self, records, summary_text=None):
        self.write('dump/kmsg', ''.join(r + '\n' for r in records))
        if summary_text is not None:
            self.write('dump/kmsg-summary', summary_text)

    def system_map(self, initcalls):
        """A System.map with these built-in initcalls, (name, level) in link
        order, for host-check's reference ($BST_SYSTEM_MAP)."""
        lines = ['ffff800080000000 T _text']
        for i, (name, level) in enumerate(initcalls):
            lines.append('%016x d __initcall__kmod_%s__%d_%d_%s%s' %
                         (0xffff800081000000 + 4 * i, 'some_mod', 100 + i, 10 * i, name, level))
        self.write('System.map', ''.join(l + '\n' for l in lines))
        self.env['BST_SYSTEM_MAP'] = os.path.join(self.dir, 'System.map')

    def check(self):
        """Run host-check: (exit code, [(ok, description)], output)."""
        p = subprocess.run([sys.executable, HOST_CHECK, self.dir], capture_output=True,
                           text=True, check=False, env=self.env)
        results = [(m.group(1) is None, m.group(2)) for m in
                   re.finditer(r'^(not )?ok \d+ (.*)$', p.stdout, re.M)]
        plan = re.search(r'^1\.\.(\d+)', p.stdout, re.M)
        return p.returncode, results, p.stdout + p.stderr, plan and int(plan.group(1))


class HostCheckCase(unittest.TestCase):
    def run_check(self, boot):
        rc, results, out, plan = boot.check()
        self.assertNotIn('Traceback', out, out)
        if plan is not None and plan > 0:
            self.assertEqual(plan, len(results), out)
        return rc, results, out

    def assert_all_ok(self, boot):
        rc, results, out = self.run_check(boot)
        self.assertTrue(results, out)
        self.assertTrue(all(ok for ok, _ in results), out)
        self.assertEqual(rc, 0, out)

    def assert_fails(self, boot, what):
        """The result whose description starts with @what fails, and the
        run as a whole is not green."""
        rc, results, out = self.run_check(boot)
        hits = [ok for ok, desc in results if desc.startswith(what)]
        self.assertTrue(hits, 'no result "%s":\n%s' % (what, out))
        self.assertFalse(any(hits), 'result "%s" passed:\n%s' % (what, out))
        self.assertNotEqual(rc, 0, out)
        self.assertNotEqual(rc, 4, 'a failure must not be a skip:\n' + out)
        return out


class DumpBoot(HostCheckCase):
    """console_registered_once boots: the dump against the console."""

    def good(self, records=None):
        records = records or boot_records()
        boot = Boot(self, DUMP_CMDLINE)
        boot.console([console_line(r) for r in records] + [MARKER])
        boot.dump(records, summary(records))
        return boot, records

    def test_good(self):
        boot, _ = self.good()
        self.assert_all_ok(boot)

    def test_record_missing_on_console(self):
        boot, records = self.good()
        boot.console([console_line(r) for r in records[:3] + records[4:]] + [MARKER])
        self.assert_fails(boot, 'every kernel log record is on the console')

    def test_record_twice_on_console(self):
        boot, records = self.good()
        boot.console([console_line(r) for r in records + records[2:3]] + [MARKER])
        self.assert_fails(boot, 'no record is on the console twice')

    def test_gap_in_seq(self):
        # The ring lost seq 4 while the guest read: console and dump agree
        # with each other, but "every record" would only be the rest.
        records = boot_records(8)
        records = records[:4] + records[5:]
        boot, _ = self.good(records)
        boot.dump(records, summary(records, missing=1, overwritten=1))
        self.assert_fails(boot, 'the kernel log is whole')

    def test_gap_in_seq_without_summary_saying_so(self):
        records = boot_records(8)
        records = records[:4] + records[5:]
        boot, _ = self.good(records)
        self.assert_fails(boot, 'the kernel log is whole')

    def test_ring_wrapped_before_reading(self):
        records = boot_records(8, first=37)
        boot, _ = self.good(records)
        self.assert_fails(boot, 'the kernel log is whole')

    def test_no_dump(self):
        boot, _ = self.good()
        shutil.rmtree(os.path.join(boot.dir, 'dump'))
        out = self.assert_fails(boot, 'the kernel log dump arrived')
        self.assertIn('not ok', out)
        self.assert_fails(boot, 'every kernel log record is on the console')

    def test_no_summary(self):
        boot, records = self.good()
        os.unlink(os.path.join(boot.dir, 'dump', 'kmsg-summary'))
        self.assert_fails(boot, 'the kernel log dump arrived whole')

    def test_dump_cut_on_its_way(self):
        boot, records = self.good()
        boot.dump(records[:5], summary(records))
        self.assert_fails(boot, 'the kernel log dump arrived whole')

    def test_dump_line_not_a_record(self):
        boot, records = self.good()
        boot.dump(records + ['6,8,9017'], summary(records))
        self.assert_fails(boot, 'the kernel log dump arrived whole')

    def test_marker_missing(self):
        boot, records = self.good()
        boot.console([console_line(r) for r in records])
        self.assert_fails(boot, 'what userspace wrote to /dev/ttyAMA0')

    def test_earlycon_announcement_may_be_there_twice(self):
        records = boot_records()
        boot = Boot(self, DUMP_CMDLINE + ' earlycon')
        lines = [console_line(r) for r in records]
        boot.console(lines[:3] + lines[2:] + [MARKER])
        boot.dump(records, summary(records))
        self.assert_all_ok(boot)

    def test_announcement_twice_without_earlycon(self):
        records = boot_records()
        boot = Boot(self, DUMP_CMDLINE)
        lines = [console_line(r) for r in records]
        boot.console(lines[:3] + lines[2:] + [MARKER])
        boot.dump(records, summary(records))
        self.assert_fails(boot, 'no record is on the console twice')

    def test_same_text_twice_in_one_timestamp_is_not_a_repeat(self):
        records = boot_records(6)
        records.append('6,6,%s,-;boot record 0' % records[5].split(',')[2])
        boot, _ = self.good(records)
        self.assert_all_ok(boot)

    def test_records_reversed(self):
        # Every record there once, in the wrong order: the multiset of lines
        # alone passes this.
        boot, records = self.good()
        boot.console([console_line(r) for r in reversed(records)] + [MARKER])
        out = self.assert_fails(boot, 'the records are on the console in the order of the log')
        self.assertIn('7 lines out of place', out)

    def test_two_records_swapped(self):
        boot, records = self.good()
        lines = [console_line(r) for r in records]
        lines[3], lines[5] = lines[5], lines[3]
        boot.console(lines + [MARKER])
        self.assert_fails(boot, 'the records are on the console in the order of the log')

    def test_garbled_record_line(self):
        # A record's line garbled on its way, and the record itself still
        # there in full: the garbled one is in no record.
        boot, records = self.good()
        lines = [console_line(r) for r in records]
        lines.insert(4, lines[3][:25] + 'PL0\0\0garbled')
        boot.console(lines + [MARKER])
        self.assert_fails(boot, 'no line on the console that is not a record')

    def test_line_noise_between_records(self):
        boot, records = self.good()
        lines = [console_line(r) for r in records]
        lines.insert(4, '#$%^&* line noise')
        boot.console(lines + [MARKER])
        self.assert_fails(boot, 'no line on the console that is not a record')

    def test_made_up_kernel_line(self):
        boot, records = self.good()
        lines = [console_line(r) for r in records]
        lines.insert(2, '[    0.001500] a record the kernel never logged')
        boot.console(lines + [MARKER])
        self.assert_fails(boot, 'no line on the console that is not a record')

    def test_after_the_dump_and_before_the_kernel_not_judged(self):
        # Firmware's output before the kernel's first line, and what the
        # kernel logs after the dump (later stamps), are no dumped record.
        boot, records = self.good()
        boot.console(['UEFI firmware (version 1.0)', 'EFI stub: Booting Linux Kernel...'] +
                     [console_line(r) for r in records] + [MARKER] +
                     ['[    9.000000] reboot: Power down', 'some later noise'])
        self.assert_all_ok(boot)

    def test_board_directory_without_bst_run(self):
        # Documentation's board procedure: cat /dev/kmsg, no summary, with
        # dictionary lines; checked with what it has.
        records = boot_records()
        boot = Boot(self, 'console=ttyAMA0,115200 root=/dev/mmcblk0p2')
        boot.console([console_line(r) for r in records] + [MARKER])
        boot.write('dump/kmsg', ''.join('%s\n SUBSYSTEM=platform\n' % r for r in records))
        self.assert_all_ok(boot)


class Registration(HostCheckCase):
    """bst.console_at=init with initcall_debug: registered from pl011's
    console_initcall, not merely before pl011_init (an arch_initcall)."""

    def records(self, register_in='console'):
        texts = ['Booting Linux on physical CPU 0x0000000000 [0x414fd0b0]',
                 'Linux version 7.2.13 (bst@host)']
        levels = [('console', ['pl011_fw_console_init']), ('early', ['early_a']),
                  ('core', ['core_a']), ('postcore', ['postcore_a', 'pl011_postcore_init']),
                  ('arch', ['pl011_init'])]
        for level, calls in levels:
            texts.append('entering initcall level: %s' % level)
            for f in calls:
                texts.append('calling  %s+0x0/0x1a4 @ %d' % (f, level != 'console'))
                if f == register_in:
                    texts.append('printk: console [ttyAMA0] enabled')
                if f == 'pl011_init':
                    texts.append('Serial: AMBA PL011 UART driver')
                texts.append('initcall %s+0x0/0x1a4 returned 0 after 3 usecs' % f)
        texts.append('Run /init as init process')
        return [record(i, t) for i, t in enumerate(texts)]

    def boot(self, records):
        boot = Boot(self, DUMP_CMDLINE + ' initcall_debug')
        boot.console([console_line(r) for r in records] + [MARKER])
        boot.dump(records, summary(records))
        return boot

    def test_console_initcall(self):
        self.assert_all_ok(self.boot(self.records('pl011_fw_console_init')))

    def test_postcore_initcall(self):
        # Before pl011_init, as the guest's test asks, but not at console_init.
        out = self.assert_fails(self.boot(self.records('pl011_postcore_init')),
                                'registered from pl011\'s console_initcall')
        self.assertIn('in initcall level postcore', out)

    def test_another_console_initcall(self):
        out = self.assert_fails(self.boot(self.records('early_a')),
                                'registered from pl011\'s console_initcall')
        self.assertIn('not in the console initcall level', out)

    def test_after_the_initcall_returned(self):
        records = self.records('none')
        i = next(i for i, r in enumerate(records) if 'initcall pl011_fw_console_init' in r)
        texts = [r.partition(';')[2] for r in records]
        texts.insert(i + 1, 'printk: console [ttyAMA0] enabled')
        records = [record(j, t) for j, t in enumerate(texts)]
        self.assert_fails(self.boot(records), 'registered from pl011\'s console_initcall')

    def test_not_registered(self):
        self.assert_fails(self.boot(self.records('none')),
                          'registered from pl011\'s console_initcall')

    def test_only_with_initcall_debug_and_console_at_init(self):
        records = self.records('pl011_postcore_init')
        for cmdline in (DUMP_CMDLINE, DUMP_CMDLINE.replace('console_at=init', 'console_at=probe') +
                        ' initcall_debug'):
            boot = Boot(self, cmdline)
            boot.console([console_line(r) for r in records] + [MARKER])
            boot.dump(records, summary(records))
            rc, results, out = self.run_check(boot)
            self.assertFalse([d for _, d in results if d.startswith('registered from')], out)


def uart_writes(*writes):
    """QEMU's pl011_write trace lines: (offset, value) or a string of
    characters written to the data register."""
    out = []
    for w in writes:
        for reg, val in ([(0, ord(c)) for c in w] if isinstance(w, str) else [w]):
            out.append('pl011_write addr 0x%08x value 0x%08x\n' % (reg, val))
    return ''.join(out)


def uart_setup(baud, lcrh=0x70, cr=0x301, latch=True):
    """The writes that set the PL011 to @baud (24 MHz clock): IBRD, FBRD,
    then LCR_H, which latches them, then CR."""
    quot = (24000000 * 4 + baud // 2) // baud
    return [(0x24, quot >> 6), (0x28, quot & 63)] + ([(0x2c, lcrh)] if latch else []) + \
        [(0x30, cr)]


class UartTrace(HostCheckCase):
    """bst.uart_trace=1: the line settings of every character from QEMU's
    trace of the PL011's register writes (console-options: firmware at
    38400, console=ttyAMA0,115200n8)."""

    CMDLINE = DUMP_CMDLINE + ' bst.uart_fw=38400 bst.uart_expect=115200 bst.uart_trace=1'

    def boot(self, trace, cmdline=CMDLINE):
        records = boot_records()
        boot = Boot(self, cmdline)
        boot.console([console_line(r) for r in records] + [MARKER])
        boot.dump(records, summary(records))
        if trace is not None:
            boot.write('uart-trace.log', trace)
        return boot

    FIRMWARE = uart_setup(38400)
    EARLY = '[    0.000000] Booting Linux on physical CPU 0x0\r\n'
    LATER = '[    0.500000] Serial: AMBA PL011 UART driver\r\n'

    def test_115200_from_the_first_character(self):
        trace = uart_writes(*self.FIRMWARE, *uart_setup(115200), self.EARLY,
                            *uart_setup(115200), self.LATER)
        self.assert_all_ok(self.boot(trace))

    def test_first_characters_at_the_firmware_rate(self):
        # The early console printed at 38400 until the probe or the open
        # set the options: console.log in QEMU is the same.
        trace = uart_writes(*self.FIRMWARE, self.EARLY, *uart_setup(115200), self.LATER)
        out = self.assert_fails(self.boot(trace), 'the console\'s first character went out at')
        self.assertIn('(38400 baud)', out)
        self.assert_fails(self.boot(trace), 'every character the PL011 sent went out at')

    def test_divisors_not_latched(self):
        # New divisors without the LCR_H write that makes them take effect.
        trace = uart_writes(*self.FIRMWARE, *uart_setup(115200, latch=False), self.EARLY)
        self.assert_fails(self.boot(trace), 'the console\'s first character went out at')

    def test_rate_changed_later(self):
        trace = uart_writes(*self.FIRMWARE, *uart_setup(115200), self.EARLY,
                            *uart_setup(9600), self.LATER)
        out = self.assert_fails(self.boot(trace), 'every character the PL011 sent went out at')
        self.assertIn('(9600 baud)', out)

    def test_parity_and_seven_bits(self):
        trace = uart_writes(*self.FIRMWARE, *uart_setup(115200, lcrh=0x52), self.EARLY)
        self.assert_fails(self.boot(trace), 'the console\'s first character went out at')

    def test_uart_disabled(self):
        trace = uart_writes(*self.FIRMWARE, *uart_setup(115200), self.EARLY, (0x30, 0),
                            self.LATER)
        self.assert_fails(self.boot(trace), 'every character the PL011 sent went out at')

    def test_no_trace(self):
        self.assert_fails(self.boot(None), 'the console\'s first character went out at')
        self.assert_fails(self.boot(uart_writes(*self.FIRMWARE)),
                          'every character the PL011 sent went out at')

    def test_no_expected_rate(self):
        trace = uart_writes(*self.FIRMWARE, *uart_setup(115200), self.EARLY)
        self.assert_fails(self.boot(trace, self.CMDLINE.replace(' bst.uart_expect=115200', '')),
                          'the console\'s first character went out at')

    def test_only_with_bst_uart_trace(self):
        trace = uart_writes(*self.FIRMWARE, self.EARLY)
        rc, results, out = self.run_check(
            self.boot(trace, self.CMDLINE.replace(' bst.uart_trace=1', '')))
        self.assertFalse([d for _, d in results if 'went out at' in d], out)


class PanicBoot(HostCheckCase):
    """console-panic: panic_flushes_console's burst, then sysrq-c."""

    def sample(self):
        records = boot_records(8)
        records += burst_records(len(records))
        console = [console_line(r) for r in records] + [MARKER]
        after = ['[    9.000001] sysrq: Trigger a crash',
                 '[    9.000002] ' + PANIC,
                 '[    9.000003] CPU: 1 UID: 0 PID: 77 Comm: panic_flushes_c',
                 '[    9.000004] ---[ end Kernel panic - not syncing: sysrq triggered crash ]---']
        return records, console, after

    def boot(self, console, after, records=None):
        boot = Boot(self, PANIC_CMDLINE)
        boot.console(console + after)
        if records is not None:
            boot.dump(records, summary(records))
        return boot

    def test_good(self):
        records, console, after = self.sample()
        self.assert_all_ok(self.boot(console, after, records))

    def test_no_dump_still_checks_the_burst(self):
        records, console, after = self.sample()
        boot = self.boot(console, after)
        rc, results, out = self.run_check(boot)
        burst = [ok for ok, d in results if d.startswith('each of the %d burst' % BURST)]
        self.assertEqual(burst, [True], out)
        self.assertTrue(any(d.startswith('the panic is on the console') and ok
                            for ok, d in results), out)
        # The boot was set up to hand the log over: its absence fails.
        self.assert_fails(boot, 'the kernel log dump arrived')

    def test_burst_record_missing(self):
        records, console, after = self.sample()
        console = [l for l in console if not l.endswith(BURST_TEXT % (137, BURST))]
        out = self.assert_fails(self.boot(console, after), 'each of the %d burst' % BURST)
        self.assertIn('not on the console: ' + BURST_TEXT % (137, BURST), out)
        self.assert_fails(self.boot(console, after, records),
                          'every kernel log record is on the console before the panic')

    def test_burst_record_twice(self):
        records, console, after = self.sample()
        i = console.index(console_line(records[8 + 41]))
        console = console[:i + 1] + console[i:]
        out = self.assert_fails(self.boot(console, after, records),
                                'each of the %d burst' % BURST)
        self.assertIn('2 times', out)

    def test_burst_record_garbled_into_another_line(self):
        records, console, after = self.sample()
        i = console.index(console_line(records[8 + 9]))
        console[i + 1] += BURST_TEXT % (10, BURST)
        self.assert_fails(self.boot(console, after), 'each of the %d burst' % BURST)

    def test_burst_record_after_the_panic(self):
        records, console, after = self.sample()
        late = console_line(records[-1])
        console.remove(late)
        after = after[:2] + [late] + after[2:]
        self.assert_fails(self.boot(console, after), 'each of the %d burst' % BURST)
        self.assert_fails(self.boot(console, after, records),
                          'every kernel log record is on the console before the panic')

    def test_no_panic(self):
        records, console, after = self.sample()
        self.assert_fails(self.boot(console, after[:1], records), 'the panic is on the console')
        self.assert_fails(self.boot(console, after[:1], records), 'each of the %d burst' % BURST)

    def test_gap_in_seq(self):
        records, console, after = self.sample()
        records = records[:3] + records[4:]
        console = [console_line(r) for r in records] + [MARKER]
        self.assert_fails(self.boot(console, after, records), 'the kernel log is whole')

    def test_replayed_record_is_not_a_repeat(self):
        # The panic took the console over part way through a record and
        # printed it again after nbcon's notice.
        records, console, after = self.sample()
        last = console_line(records[-1])
        i = console.index(last)
        console[i:i + 1] = [last[:20], '** replaying previous printk message **', last]
        self.assert_all_ok(self.boot(console, after, records))

    def test_replayed_on_the_same_line(self):
        # The interrupted copy and the notice share a line, as when the
        # takeover comes mid-line.
        records, console, after = self.sample()
        last = console_line(records[-1])
        i = console.index(last)
        console[i:i + 1] = [last[:20] + '** replaying previous printk message **', last]
        self.assert_all_ok(self.boot(console, after, records))

    def test_notice_repeated_is_not_a_replay(self):
        # A printer that restarts a record from its beginning on every
        # piece (the con-piece-replayed mutant): the start of the record,
        # then the notice cut and repeated, all on one line. This was
        # taken out as a replay and passed.
        records, console, after = self.sample()
        first = console_line(records[0])
        i = console.index(first)
        console[i:i] = [first[:15] + '** replaying pre' * 40 +
                        '** replaying previous printk message **']
        self.assert_fails(self.boot(console, after, records), 'no line on the console that is not a record')


class BurstInStep(unittest.TestCase):
    """host-check and panic_flushes_console.c must agree on the burst."""

    def test_same_count_and_text(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, '..', 'panic_flushes_console.c')) as f:
            c = f.read()
        with open(HOST_CHECK) as f:
            py = f.read()
        c_burst = re.search(r'#define BURST\s+(\d+)', c).group(1)
        c_fmt = re.search(r'#define BURST_FMT\s+"(.*)\\n"', c).group(1)
        self.assertEqual(re.search(r'^BURST = (\d+)', py, re.M).group(1), c_burst)
        self.assertEqual(re.search(r"^BURST_TEXT = '(.*)'", py, re.M).group(1), c_fmt)
        self.assertEqual((int(c_burst), c_fmt), (BURST, BURST_TEXT))


# The kernel's built-in initcalls as a System.map lists them, for the
# boots that check their console against it: (name, level).
INITCALLS = [('pl011_fw_console_init', 'con'), ('early_a', 'early'), ('early_b', 'early'),
             ('core_a', '1'), ('postcore_a', '2'), ('test_early_hang_init', '3'),
             ('arch_b', '3'), ('a_init', '6'), ('b_init', '6'), ('c_init', '6'),
             ('lkdtm_module_init', '6'), ('d_init', '6'), ('late_a', '7s')]


def initcall_lines(upto, t0=100, drop=()):
    """initcall_debug's lines for the initcalls before @upto, and its
    "calling" line; those named in @drop lose both lines."""
    lines = []
    for i, (f, _) in enumerate(INITCALLS):
        if f in drop:
            continue
        lines.append('[    0.%06d] calling  %s+0x0/0x40 @ 1' % (t0 + 2 * i, f))
        if f == upto:
            break
        lines.append('[    0.%06d] initcall %s+0x0/0x40 returned 0 after 1 usecs'
                     % (t0 + 2 * i + 1, f))
    return lines


class BootPanic(HostCheckCase):
    """console-boot-panic: LKDTM panics at its initcall, no userspace."""

    def console(self, drop=()):
        return (['[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x414fd0b0]'] +
                initcall_lines('lkdtm_module_init', drop=drop) +
                ['[    0.300001] lkdtm: Performing direct entry PANIC',
                 '[    0.300002] Kernel panic - not syncing: dumptest'])

    def boot(self, lines):
        boot = Boot(self, BOOT_PANIC_CMDLINE)
        boot.system_map(INITCALLS)
        boot.console(lines)
        return boot

    def test_good_without_dump(self):
        self.assert_all_ok(self.boot(self.console()))

    def test_initcall_return_missing(self):
        lines = [l for l in self.console() if 'initcall b_init+' not in l]
        self.assert_fails(self.boot(lines), 'every initcall before the panic is on the console')

    def test_initcall_pair_missing(self):
        # Both lines of an initcall gone: nothing is left open.
        out = self.assert_fails(self.boot(self.console(drop=('b_init',))),
                                'every initcall of the kernel up to lkdtm_module_init')
        self.assertIn('console c_init, kernel b_init', out)

    def test_middle_records_missing(self):
        lines = self.console()
        self.assert_fails(self.boot(lines[:5] + lines[11:]),
                          'every initcall of the kernel up to lkdtm_module_init')

    def test_initcalls_reversed(self):
        lines = self.console()
        self.assert_fails(self.boot(lines[:1] + lines[1:-3][::-1] + lines[-3:]),
                          'every initcall of the kernel up to lkdtm_module_init')

    def test_initcall_line_garbled(self):
        lines = self.console()
        i = next(i for i, l in enumerate(lines) if 'calling  c_init+' in l)
        lines[i] = lines[i].replace('c_init', 'c_i\x00\x00t')
        self.assert_fails(self.boot(lines), 'every initcall of the kernel up to lkdtm_module_init')

    def test_no_reference(self):
        boot = Boot(self, BOOT_PANIC_CMDLINE)
        boot.console(self.console())
        out = self.assert_fails(boot, 'every initcall of the kernel up to lkdtm_module_init')
        self.assertIn('no reference', out)

    def test_no_panic(self):
        self.assert_fails(self.boot(self.console()[:-1]), 'the panic is on the console')


HANG_CMDLINE = ('console=ttyAMA0 panic=-1 bst.run=- test_early_hang bst.expect=hang '
                'bst.hang_wait=20 bst.check=console')
HANG = 'test_early_hang: hanging in an arch_initcall'
HANG_MARKER = 'test_early_hang: raw UART write, not printk: hanging now'


class HangBoot(HostCheckCase):
    """A boot hung on purpose before the printer threads start."""

    def lines(self, extra=(), drop=()):
        texts = ['Booting Linux on physical CPU 0x0000000000 [0x414fd0b0]',
                 'Linux version 7.2.13 (bst@host)'] + list(extra)
        return ([console_line(record(i, t)) for i, t in enumerate(texts)] +
                initcall_lines('test_early_hang_init', drop=drop) +
                ['[    0.200000] ' + HANG, '', HANG_MARKER])

    def boot(self, options, lines):
        boot = Boot(self, HANG_CMDLINE + ' ' + options)
        boot.system_map(INITCALLS)
        boot.console(lines)
        return boot

    SHOWN = 'printk.boot_async=0 initcall_debug bst.hang_console=shown'
    EARLYCON = 'earlycon initcall_debug bst.hang_console=shown'

    def test_shown(self):
        self.assert_all_ok(self.boot(self.SHOWN, self.lines()))

    def test_shown_without_the_hang(self):
        lines = [l for l in self.lines() if not l.endswith(HANG)]
        self.assert_fails(self.boot(self.SHOWN, lines), 'the hang\'s last words are on the console')

    def test_shown_without_the_start(self):
        self.assert_fails(self.boot(self.SHOWN, self.lines()[1:]),
                          'the console starts at the kernel\'s first line')

    def test_shown_middle_records_missing(self):
        lines = self.lines()
        self.assert_fails(self.boot(self.SHOWN, lines[:4] + lines[8:]),
                          'every initcall of the kernel up to test_early_hang_init')

    def test_shown_initcall_pair_missing(self):
        self.assert_fails(self.boot(self.SHOWN, self.lines(drop=('core_a',))),
                          'every initcall of the kernel up to test_early_hang_init')

    def test_shown_reversed(self):
        lines = self.lines()
        self.assert_fails(self.boot(self.SHOWN, lines[:2] + lines[2:-3][::-1] + lines[-3:]),
                          'every initcall of the kernel up to test_early_hang_init')

    def test_shown_without_initcall_debug(self):
        self.assert_fails(self.boot('printk.boot_async=0 bst.hang_console=shown', self.lines()),
                          'every initcall up to the hang is on the console')

    def test_shown_without_the_marker(self):
        self.assert_fails(self.boot(self.SHOWN, self.lines()[:-1]),
                          'the hang announced itself on the UART outside printk')

    def test_earlycon_handover_announced_twice(self):
        lines = self.lines(['printk: console [ttyAMA0] enabled'])
        self.assert_all_ok(self.boot(self.EARLYCON, lines[:3] + lines[2:]))

    def test_earlycon_end_announced_twice(self):
        lines = self.lines(['printk: legacy bootconsole [pl11] disabled'])
        self.assert_all_ok(self.boot(self.EARLYCON, lines[:3] + lines[2:]))

    def test_other_line_twice(self):
        lines = self.lines()
        self.assert_fails(self.boot(self.EARLYCON, lines[:2] + lines[1:]),
                          'no line on the console twice')

    def test_announcement_twice_without_earlycon(self):
        lines = self.lines(['printk: console [ttyAMA0] enabled'])
        self.assert_fails(self.boot(self.SHOWN, lines[:3] + lines[2:]),
                          'no line on the console twice')

    TIMEOUT = 'initcall_debug bst.hang_console=timeout'
    NOTICE = ('[   15.700310] printk: printer threads not started 15s after the console '
              'registered: printing the boot log now')

    def with_notice(self):
        lines = self.lines()
        return lines[:-2] + [self.NOTICE] + lines[-2:]

    def test_timeout(self):
        self.assert_all_ok(self.boot(self.TIMEOUT, self.with_notice()))

    def test_timeout_without_its_notice(self):
        # Records printed as they came (the wait off): not what the boot is for.
        self.assert_fails(self.boot(self.TIMEOUT, self.lines()),
                          'the records waited for the printer threads until')

    def test_timeout_notice_before_the_hang(self):
        lines = self.lines()
        self.assert_fails(self.boot(self.TIMEOUT, lines[:1] + [self.NOTICE] + lines[1:]),
                          'the records waited for the printer threads until')

    def test_shown_but_held_until_the_timeout(self):
        # earlycon must turn the wait off: a notice says the records waited.
        self.assert_fails(self.boot(self.EARLYCON, self.with_notice()),
                          'no record waited for the printer threads')

    def test_held(self):
        self.assert_all_ok(self.boot('bst.hang_console=held', ['', HANG_MARKER]))

    def test_held_empty_console(self):
        # A boot that hangs before anything (a deadlock in the console's own
        # registration) leaves no marker: not the planned hang.
        self.assert_fails(self.boot('bst.hang_console=held', []),
                          'the hang announced itself on the UART outside printk')

    def test_held_marker_garbled(self):
        self.assert_fails(self.boot('bst.hang_console=held', [HANG_MARKER[:20] + '\x00\x00']),
                          'the hang announced itself on the UART outside printk')

    def test_held_but_printed(self):
        self.assert_fails(self.boot('bst.hang_console=held', self.lines()),
                          'no kernel record reached the console')

    def test_no_expectation(self):
        self.assert_fails(self.boot('', self.lines()), 'bst.hang_console= says what to expect')


class MarkerInStep(unittest.TestCase):
    """host-check and early-hang.patch must agree on the raw marker."""

    def test_same_marker(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, '..', '..', '..', 'scripts', 'bench', 'lab',
                               'early-hang.patch')) as f:
            patch = f.read()
        with open(HOST_CHECK) as f:
            py = f.read()
        self.assertEqual(re.search(r"^HANG_MARKER = '(.*)'", py, re.M).group(1), HANG_MARKER)
        self.assertIn('"\\r\\n%s\\r\\n"' % HANG_MARKER, patch)


class NothingToCheck(HostCheckCase):
    def test_skip_only_without_any_setup(self):
        boot = Boot(self, 'console=ttyAMA0 panic=-1 bst.run=boot/booted_kernel bst.check=console')
        boot.console(['[    0.000000] Booting Linux'])
        rc, results, out = self.run_check(boot)
        self.assertEqual(rc, 4, out)
        self.assertIn('# SKIP', out)

    def test_missing_console_log_fails(self):
        boot = Boot(self, DUMP_CMDLINE)
        rc, results, out = self.run_check(boot)
        self.assertEqual([ok for ok, _ in results], [False], out)
        self.assertNotIn(rc, (0, 4), out)


class FloodBoot(HostCheckCase):
    """bst.uart_flood=N without a dump (console-flood-debug): each record of
    the flood on the console once, and no "printk messages dropped"."""

    CMDLINE = 'bst.uart_baud=0 bst.uart_flood=5 ignore_loglevel bst.check=console'

    def boot(self, numbers, extra=()):
        b = Boot(self, self.CMDLINE)
        b.console(['[    0.000000] Booting Linux on physical CPU 0x0'] + list(extra) +
                  ['[    1.%06d] bst-uart: flood record %d of 5' % (i, i) for i in numbers])
        return b

    def test_good(self):
        self.assert_all_ok(self.boot(range(1, 6)))

    def test_record_lost(self):
        self.assert_fails(self.boot([1, 2, 4, 5]), 'every record of the flood is on the console')

    def test_record_twice(self):
        self.assert_fails(self.boot([1, 2, 3, 3, 4, 5]), 'no record of the flood is on the console twice')

    def empty_write_boot(self, tail):
        b = Boot(self, self.CMDLINE + ' amba_pl011.test_empty_writes=1')
        b.console(['[    1.%06d] bst-uart: flood record %d of 5' % (i, i) for i in range(1, 6)] +
                  list(tail))
        return b

    GOES_ON = '[    2.000000] bst-empty-write: the console goes on'

    def test_empty_write_console_goes_on(self):
        self.assert_all_ok(self.empty_write_boot(['** 1 printk messages dropped **', self.GOES_ON]))

    def test_empty_write_console_stuck(self):
        self.assert_fails(self.empty_write_boot([]),
                          'the console goes on after a record its driver never writes')

    def test_empty_write_not_counted(self):
        # The given-up record counted as written: no notice at all.
        self.assert_fails(self.empty_write_boot([self.GOES_ON]),
                          'the record its driver never writes is counted')

    def test_empty_write_counted_elsewhere(self):
        self.assert_fails(self.empty_write_boot(['** 1 printk messages dropped **',
                                                 '[    1.900000] bst-uart: other', self.GOES_ON]),
                          'the record its driver never writes is counted')

    def test_empty_write_counted_wrong(self):
        self.assert_fails(self.empty_write_boot(['** 2 printk messages dropped **', self.GOES_ON]),
                          'the record its driver never writes is counted')

    def test_empty_write_and_other_notice(self):
        self.assert_fails(self.empty_write_boot(['** 3 printk messages dropped **',
                                                 '[    1.900000] bst-uart: other',
                                                 '** 1 printk messages dropped **', self.GOES_ON]),
                          'the record its driver never writes is counted')

    def test_dropped_notice(self):
        self.assert_fails(self.boot(range(1, 6), ['[    0.500000] ** 3 printk messages dropped **']),
                          'no "printk messages dropped" notice')


if __name__ == '__main__':
    unittest.main()
