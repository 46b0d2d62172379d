#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""side_by_side.py: the host half of scripts/bench/side-by-side.sh (issue 30).

  side_by_side.py shows CONFIG RUN DIR    what the boot's tool shows of bst_attr:
                                          DIR/shows.json, and its times as
                                          "CONFIG:ITEM<TAB>RUN<TAB>ms" rows
  side_by_side.py export DMESG            a kernel log as a journal export
                                          stream (systemd-journal-remote's input)
  side_by_side.py tools OUT CONFIG...     what each tool printed, in words
                                          (run 1), into OUT/results.json
  side_by_side.py table RESULTS SHOWN [--rst]
                                          the table (Markdown, or an RST list-table)
  side_by_side.py publish OUT             copy OUT's results.json and shown.json to
                                          scripts/bench/results/, put the table into
                                          README.md and Documentation/admin-guide/
                                          bootstamp.rst and its numbers' claims
                                          into scripts/bench/results/claims.tsv

The test-only driver bst_attr (selftests/bootstamp/modules/bst_attr.c)
defers its probe once, then sleeps 50 ms in bst_attr_sleep, spins 20 ms
and waits 30 ms on a completion in bst_attr_wait, and logs its own
account of the three (bst_attr.log): the truth each tool is held to.
Only numbers a tool printed go into the table, each a median over the
boots with a claim behind it (scripts/gates/docs-numbers.py).
"""
import json
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
BOOTREPORT = os.path.join(TOP, 'scripts', 'report', 'bootreport')
RESULTS = os.path.join('scripts', 'bench', 'results')
DOCS = ('README.md', os.path.join('Documentation', 'admin-guide', 'bootstamp.rst'))

DMESG_RE = re.compile(r'^<(\d+)>\[\s*(\d+\.\d+)\] (.*)$')
TRUTH_RE = re.compile(r'try (\d+): pid (\d+) sleep_us (\d+) sleep_cpu_us (\d+) spin_us (\d+) '
                      r'wait_us (\d+) woken_us (\d+) woken_cpu_us (\d+) cpu_us (\d+)')
INITCALL_RE = re.compile(r'initcall (bst_attr_init)\S* \[bst_attr\] returned (-?\d+) after (\d+) usecs')
PROBE_RE = re.compile(r'probe of bst-attr returned (-?\d+) after (\d+) usecs')
LINE_RE = re.compile(r'^\s*probe bst-attr \[bst-attr\](?: try (\d+))? ([\d.]+) ms: on-CPU ([\d.]+), '
                     r'runnable ([\d.]+), blocked ([\d.]+)(?: \((.*)\))?$')
DEFER_RE = re.compile(r'^\s*deferred probe bst-attr \[bst-attr\]: (\d+) tries, deferred (\d+) '
                      r'times?: (.*)$')
TRY_RE = re.compile(r'try (\d+) ([\d.]+) ms \(([^,]+), pid (\d+)\)')
STACK_RE = re.compile(r'^\s*(.*)-(\d+)\s+\[\d+\].*: <stack trace>$')
SITES = {'sleep': 'msleep in bst_attr_sleep', 'wait': 'wait_for_completion in bst_attr_wait'}


def read(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read()
    except OSError:
        return None


def dmesg_lines(text):
    """(level, seconds, message) of a "<L>[time] text" log."""
    out = []
    for line in (text or '').splitlines():
        m = DMESG_RE.match(line)
        if m:
            out.append((int(m.group(1)), float(m.group(2)), m.group(3)))
    return out


def truth(dump):
    m = TRUTH_RE.search((read(os.path.join(dump, 'bst_attr.log')) or '') +
                        (read(os.path.join(dump, 'dmesg')) or ''))
    if not m:
        return None
    v = [int(x) for x in m.groups()]
    return {'try': v[0], 'pid': v[1], 'sleep': v[2] / 1e3, 'spin': v[4] / 1e3,
            'wait': v[5] / 1e3, 'woken': v[6] / 1e3, 'cpu': v[8] / 1e3}


def shows_initcall_debug(d, dump):
    """initcall_debug's lines for bst_attr, and what bootgraph.pl drew."""
    log = dmesg_lines(read(os.path.join(dump, 'dmesg')))
    nums, text = {}, {}
    lines = [msg for _, _, msg in log if INITCALL_RE.search(msg) or PROBE_RE.search(msg)]
    text['lines'] = lines
    for msg in lines:
        m = INITCALL_RE.search(msg)
        if m:
            nums['init'] = int(m.group(3)) / 1e3
    probes = [PROBE_RE.search(m) for m in lines if PROBE_RE.search(m)]
    text['probes'] = [(int(p.group(1)), int(p.group(2))) for p in probes]
    for i, p in enumerate(probes, 1):
        nums['try%d' % i] = int(p.group(2)) / 1e3
    # bootgraph.pl stops at "Freeing unused kernel memory" (before /init).
    svg = read(os.path.join(d, 'bootgraph.svg')) or ''
    freeing = [t for _, t, msg in log if 'Freeing unused kernel memory' in msg]
    calling = [t for _, t, msg in log if msg.startswith('calling  bst_attr_init')]
    text['bootgraph'] = {
        'svg_bytes': len(svg),
        'bars': svg.count('<rect'),
        'names_bst_attr': 'bst_attr' in svg,
        'stops_before_bst_attr': bool(freeing and calling and freeing[0] < calling[0]),
    }
    return nums, text


def shows_ftrace(dump, pid):
    """The raw trace, as a user greps it: how many of the stacks recorded
    at a switch (the stacktrace trigger) name each of the driver's sites,
    and of which tasks."""
    trace = read(os.path.join(dump, 'sched.trace')) or ''
    events = sum(1 for line in trace.splitlines() if ': sched_' in line)
    stacks, cur = [], None
    for line in trace.splitlines():
        m = STACK_RE.match(line)
        if m:
            cur = {'comm': m.group(1), 'pid': int(m.group(2)), 'frames': []}
            stacks.append(cur)
        elif cur is not None and line.lstrip().startswith('=> '):
            cur['frames'].append(re.split(r'[+ ]', line.strip()[3:])[0])
        else:
            cur = None
    text = {'events': events, 'stacks': len(stacks),
            'clock': (read(os.path.join(dump, 'trace_clock')) or '').strip()}
    for part, fn in (('sleep', 'bst_attr_sleep'), ('wait', 'bst_attr_wait')):
        hits = [st for st in stacks if fn in st['frames']]
        text[part] = {'switch_outs': len(hits), 'pids': sorted({st['pid'] for st in hits}),
                      'comms': sorted({st['comm'] for st in hits}),
                      'of_the_probe_task': sum(1 for st in hits if st['pid'] == pid)}
    return {}, text


def shows_bootstamp(d, dump, tries):
    """bootreport's lines for bst_attr and host-check's verdict."""
    p = subprocess.run([sys.executable, BOOTREPORT, dump, '--top', '100000'],
                       capture_output=True, text=True, check=False)
    nums, text = {}, {'bootreport_rc': p.returncode}
    got = None
    for line in p.stdout.splitlines():
        m = LINE_RE.match(line)
        # "try N" only where the device has several probe rows: the retry's.
        if m and (m.group(1) is None or int(m.group(1)) == tries):
            got = m
        m = DEFER_RE.match(line)
        if m:
            text['deferred'] = line.strip()
            bound = re.search(r'bound ([\d.]+) ms after the first try began', line)
            if bound:
                nums['bound'] = float(bound.group(1))
            for i, dur, ret, _ in TRY_RE.findall(m.group(3)):
                nums['try%s' % i] = float(dur)
                text.setdefault('tries', []).append(ret)
    if got:
        text['line'] = got.group(0).strip()
        nums.update({'probe': float(got.group(2)), 'on-cpu': float(got.group(3)),
                     'runnable': float(got.group(4)), 'blocked': float(got.group(5))})
        for part in (got.group(6) or '').split('; '):
            m = re.match(r'^(.*?)(?: \[[^\]]+\])? ([\d.]+)(?: x\d+)?$', part)
            for key, site in SITES.items():
                if m and m.group(1) == site:
                    nums[key + '-site'] = float(m.group(2))
        text['sites'] = [s for s in SITES.values() if s in (got.group(6) or '')]
    hc = read(os.path.join(d, 'host-check.log')) or ''
    text['host_check'] = {'ok': len(re.findall(r'^ok ', hc, re.M)),
                          'not_ok': len(re.findall(r'^not ok ', hc, re.M))}
    return nums, text


def cmd_shows(config, run, d):
    dump = os.path.join(d, 'dump')
    t = truth(dump)
    nums, text = {}, {}
    if config == 'initcall_debug':
        nums, text = shows_initcall_debug(d, dump)
    elif config == 'ftrace':
        nums, text = shows_ftrace(dump, t['pid'] if t else -1)
    elif config == 'bootstamp':
        nums, text = shows_bootstamp(d, dump, t['try'] if t else 0)
        if t:
            for k in ('sleep', 'spin', 'wait', 'woken', 'cpu'):
                print('driver:%s\t%s\t%.3f' % (k, run, t[k]))
    # What the kernel log says of bst-attr without any tool (the driver's dev_info).
    text['log_lines'] = [msg for _, _, msg in dmesg_lines(read(os.path.join(dump, 'dmesg')))
                         if 'bst-attr' in msg or 'bst_attr' in msg]
    text['truth'] = t
    with open(os.path.join(d, 'shows.json'), 'w', encoding='utf-8') as f:
        json.dump({'config': config, 'run': run, 'numbers': nums, 'text': text}, f, indent=1)
    for k, v in nums.items():
        print('%s:%s\t%s\t%.3f' % (config, k, run, v))


def cmd_export(path):
    """The kernel log as journal export records (_TRANSPORT=kernel), with
    the printk time as the monotonic time, as journald would store it."""
    boot = '0123456789abcdef0123456789abcdef'
    for level, t, msg in dmesg_lines(read(path)):
        us = int(round(t * 1e6))
        sys.stdout.write('__REALTIME_TIMESTAMP=%d\n__MONOTONIC_TIMESTAMP=%d\n_BOOT_ID=%s\n'
                         '_TRANSPORT=kernel\nSYSLOG_IDENTIFIER=kernel\nPRIORITY=%d\n'
                         'MESSAGE=%s\n\n' % (us + 1, us, boot, level & 7, msg))


def cmd_tools(out, configs):
    """Run 1's words of each tool (all runs' in boots/*/shows.json), and the
    systemd-analyze facts, into results.json under "tools"."""
    tools = {}
    for c in configs:
        s = json.loads(read(os.path.join(out, 'boots', c + '-1', 'shows.json')))
        tools[c] = s['text']
    help_text = read(os.path.join(out, 'systemd-analyze-help.txt')) or ''
    journal = read(os.path.join(out, 'boots', 'plain-1', 'journal.txt'))
    tools['systemd-analyze'] = {
        'time_here': (read(os.path.join(out, 'systemd-analyze-time.txt')) or '').strip(),
        'reads_a_journal_file': bool(re.search(r'--(file|directory)\b', help_text)),
        'version': (help_text.splitlines() or [''])[0],
        'journal_imported': journal is not None,
        'journal_bst_attr_lines': [l for l in (journal or '').splitlines() if 'bst-attr' in l],
    }
    path = os.path.join(out, 'results.json')
    r = json.loads(read(path))
    r['tools'] = tools
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(r, f, indent=1)
        f.write('\n')


def table(res, shown, rst=False):
    """The rows and the claims of their numbers: (rows, claims), claims as
    (TEXT with {}, "BENCH CONFIG FIELD")."""
    tools = res.get('tools', {})
    cost = res['configs']
    sh = shown['configs']
    claims = []

    def code(s):
        return '``%s``' % s if rst else '`%s`' % s

    label = ['']

    def num(key, before, after=' ms', digits=1, bench=None, field='median'):
        """A median of shown.json (or FIELD of results.json) and its claim,
        anchored at the row's label (label[0])."""
        src, name = (cost, res['benchmark']) if bench == 'cost' else (sh, shown['benchmark'])
        c = src.get(key)
        if c is None:
            return '(not shown)'
        if '/' in field:
            op, other = field.split('/')
            v = c['median'] / src[other]['median'] if op == 'ratio' else c['median'] - src[other]['median']
        else:
            v = c[field]
        claims.append(('%s ... %s{}%s' % (label[0], before, after),
                       '%s %s %s' % (name, key.replace(' ', '%20'), field)))
        return before + '%.*f' % (digits, v) + after

    def costcell(c):
        return '%s (%s against %s)' % (
            num(c, 'ratio ', '', 3, 'cost', 'ratio'),
            num(c, '/init at ', ' ms', 1, 'cost'),
            num('plain', "plain's ", ' ms', 1, 'cost'))

    label[0] = 'initcall_debug + bootgraph.pl'
    t = tools.get('initcall_debug', {})
    bg = t.get('bootgraph', {})
    probes = t.get('probes', [])
    # As the kernel prints them (really_probe_debug() says "returned 517").
    tries = ', '.join(num('initcall_debug:try%d' % i, code('returned %d' % ret) + ' after ', ' ms', 2)
                      for i, (ret, _) in enumerate(probes, 1))
    whole = num('initcall_debug:try%d' % len(probes), 'one line for the whole try: ') if probes else 'no line'
    rows = [[
        label[0],
        'no: %s; bootgraph.pl draws %s (it stops at "Freeing unused kernel memory", before /init)' % (
            whole, 'bst_attr' if bg.get('names_bst_attr') else 'nothing of bst_attr'),
        'no', 'no',
        '%d lines %s: %s' % (
            len(probes), code('probe of bst-attr'), tries) if probes else 'no',
        costcell('initcall_debug'),
        'command line %s; root (dmesg)' % code('initcall_debug log_buf_len=1M'),
    ]]
    sa = tools.get('systemd-analyze', {})
    rows.append([
        'systemd-analyze (guest\'s kernel log imported into a journal)',
        'no: its %s, %s, %s and %s ask the running systemd (PID 1) over D-Bus; '
        'none of its commands reads a journal file%s; the imported journal holds the kernel log, '
        'which without initcall_debug has only the driver\'s own lines (%s and its account)' % (
            code('time'), code('blame'), code('critical-chain'), code('plot'),
            '' if not sa.get('reads_a_journal_file') else ' (this version has --file)',
            code('try 1: deferred')),
        'no', 'no', 'no', 'none (no boot of its own: the guest has no systemd)',
        'systemd as PID 1 and D-Bus on the target (a boot with them splits only firmware, '
        'loader, kernel, initrd and userspace)',
    ])
    f = tools.get('ftrace', {})
    sl, wt = f.get('sleep', {}), f.get('wait', {})
    label[0] = 'boot-time ftrace (sched_switch with a stack, sched_waking)'
    rows.append([
        label[0],
        'raw events only: %s with %s on the stack; the time by hand '
        '(switch-out to next switch-in of that pid)' % (plural(sl.get('switch_outs', 0), 'stack'),
                                                         code('bst_attr_sleep')),
        'no: no event while a task runs, and no event where the probe starts or ends',
        'raw events only: %s with %s on the stack, the wakeup by hand' % (
            plural(wt.get('switch_outs', 0), 'stack'), code('bst_attr_wait')),
        'no: no probe event, no return value',
        costcell('ftrace'),
        'command line %s; root and tracefs' % code(
            'trace_event=sched:sched_switch,sched:sched_waking trace_trigger=sched_switch.stacktrace '
            'trace_buf_size=1M'),
    ])
    b = tools.get('bootstamp', {})
    hc = b.get('host_check', {})
    label[0] = 'bootstamp (bootreport)'
    rows.append([
        label[0],
        num('bootstamp:sleep-site', 'blocked ', ' ms in ' + code(SITES['sleep'])),
        num('bootstamp:on-cpu', 'on-CPU ', ' ms of the probe'),
        num('bootstamp:wait-site', 'blocked ', ' ms in ' + code(SITES['wait'])) + '; ' +
        num('bootstamp:runnable', 'runnable ', ' ms after the wakeups'),
        '%d tries: %s; %s' % (len(b.get('tries', [])), ', '.join(
            num('bootstamp:try%d' % i, 'try %d ' % i, ' ms (%s)' % ret)
            for i, ret in enumerate(b.get('tries', []), 1)),
            num('bootstamp:bound', 'bound ', ' ms after the first try began')),
        costcell('bootstamp') + '; every row boots the series kernel, whose recorder (with '
        'PID 1\'s scheduler events) is measured apart by make bench-bootstamp',
        'the module (its own scheduler events of each probe\'s task; kretprobes for probes); '
        'the series (a rebuild) for the built-in initcalls before it loads; no command line; '
        'root and debugfs',
    ])
    label[0] = 'the driver\'s own account (the truth)'
    truth_row = [
        label[0],
        num('driver:sleep', 'slept ', ' ms'), num('driver:spin', 'spun ', ' ms'),
        num('driver:wait', 'waited ', ' ms up to complete()'), 'deferred once', '-', '-']
    head = ['', 'the 50 ms sleep and its site', 'the 20 ms spin', 'the 30 ms wait and its site',
            'the deferral (tries, cost)', 'entry->/init cost (icount)', 'needs']
    verdict = 'host-check on the bootstamp boots: %d ok, %d not ok (run 1)' % (hc.get('ok', 0), hc.get('not_ok', 0))
    return head, rows + [truth_row], claims, verdict


def plural(n, word):
    return '%d %s%s' % (n, word, '' if n == 1 else 's')


def render(head, rows, rst):
    if rst:
        out = ['.. list-table::', '   :header-rows: 1', '']
        for r in [head] + rows:
            out.append('   * - ' + (r[0] or 'tool'))
            out += ['     - ' + c for c in r[1:]]
        return out
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    out += ['| ' + ' | '.join(c.replace('|', '\\|') for c in r) + ' |' for r in rows]
    return out


def cmd_table(res_path, shown_path, rst):
    res, shown = json.loads(read(res_path)), json.loads(read(shown_path))
    head, rows, _, verdict = table(res, shown, rst)
    print('\n'.join(render(head, rows, rst)))
    print()
    print(verdict)


BEGIN, END = 'side-by-side table: begin', 'side-by-side table: end'


def cmd_publish(out):
    res = json.loads(read(os.path.join(out, 'results.json')))
    shown = json.loads(read(os.path.join(out, 'shown.json')))
    for src, r in (('results.json', res), ('shown.json', shown)):
        shutil.copyfile(os.path.join(out, src), os.path.join(TOP, RESULTS, r['benchmark'] + '.json'))
    claims_path = os.path.join(TOP, RESULTS, 'claims.tsv')
    keep = [l for l in read(claims_path).splitlines()
            if not re.search(r'\t(%s|%s) ' % (re.escape(res['benchmark']), re.escape(shown['benchmark'])), l)]
    for doc in DOCS:
        rst = doc.endswith('.rst')
        head, rows, claims, _ = table(res, shown, rst)
        text = read(os.path.join(TOP, doc))
        mark = ('.. %s' if rst else '<!-- %s -->')
        b, e = text.find(mark % BEGIN), text.find(mark % END)
        if b < 0 or e < b:
            sys.exit('%s: no "%s" ... "%s" markers' % (doc, mark % BEGIN, mark % END))
        b += len(mark % BEGIN)
        text = text[:b] + '\n\n' + '\n'.join(render(head, rows, rst)) + '\n\n' + text[e:]
        with open(os.path.join(TOP, doc), 'w', encoding='utf-8') as f:
            f.write(text)
        keep += ['%s\t%s\t%s' % (doc, t, k) for t, k in claims]
    with open(claims_path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(keep) + '\n')


def main(argv):
    if len(argv) >= 4 and argv[0] == 'shows':
        cmd_shows(argv[1], argv[2], argv[3])
    elif len(argv) == 2 and argv[0] == 'export':
        cmd_export(argv[1])
    elif len(argv) >= 2 and argv[0] == 'tools':
        cmd_tools(argv[1], argv[2:])
    elif len(argv) in (3, 4) and argv[0] == 'table':
        cmd_table(argv[1], argv[2], '--rst' in argv[3:])
    elif len(argv) == 2 and argv[0] == 'publish':
        cmd_publish(argv[1])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
