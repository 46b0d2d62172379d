# SPDX-License-Identifier: GPL-2.0
"""sd.h's trace reader (sd_trace_cmds()) compiled for this machine and run
on trace files made to break it (needs KSRC for kselftest.h, as in make
check, and a C compiler)."""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SD_H = os.path.join(HERE, '..', 'sd.h')
KSRC = os.environ.get('KSRC')

# Counts the commands of mmc0 in the file SD_TRACE names; prints
# "ok CMD11S SWITCHES" or "unreadable".
DRIVER = r'''
#include "%s"

int main(void)
{
	struct sd_card c = { .host = "mmc0" };
	struct sd_cmds t;

	if (!sd_trace_cmds(&c, &t)) {
		printf("unreadable\n");
		return 1;
	}
	printf("ok %%d %%s\n", t.cmd11, t.switches);
	return 0;
}
'''

HEADER = '''\
# tracer: nop
#
# entries-in-buffer/entries-written: %d/%d   #P:2
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
'''


def event(op, arg, blocks=0):
    return ('     kworker/1:1-40      [001] ..... 1.234567: mmc_request_start: mmc0: start '
            'struct mmc_request[00000000a1b2c3d4]: cmd_opcode=%d cmd_arg=0x%x cmd_flags=0x15 '
            'cmd_retries=0 stop_opcode=0 stop_arg=0x0 stop_flags=0x0 stop_retries=0 '
            'sbc_opcode=0 sbc_arg=0x0 sbc_flags=0x0 sbc_retires=0 blocks=%d block_size=64 '
            'blk_addr=0 data_flags=0x200 tag=0 can_retune=0 doing_retune=0 retune_now=0 '
            'need_retune=0 hold_retune=1 retune_period=0\n' % (op, arg, blocks))


EVENTS = [event(11, 0), event(6, 0x80fffff3, 1), event(6, 0x80fffff2, 1)]


def trace(events=EVENTS, written=None, lost=''):
    held = len(events)
    return HEADER % (held, held if written is None else written) + lost + ''.join(events)


@unittest.skipUnless(KSRC and shutil.which('gcc'), 'needs KSRC (kselftest.h) and a C compiler')
class SdTrace(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.trace = os.path.join(cls.dir, 'trace')
        src = os.path.join(cls.dir, 'driver.c')
        cls.exe = os.path.join(cls.dir, 'driver')
        with open(src, 'w') as f:
            f.write(DRIVER % os.path.abspath(SD_H))
        subprocess.run(['gcc', '-O2', '-Wall', '-Werror', '-DSD_TRACE="%s"' % cls.trace,
                        '-I', os.path.join(KSRC, 'tools', 'testing', 'selftests'),
                        '-o', cls.exe, src], check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def run_on(self, text):
        with open(self.trace, 'w') as f:
            f.write(text)
        p = subprocess.run([self.exe], capture_output=True, text=True)
        return p.returncode, p.stdout

    def test_whole_trace_is_counted(self):
        rc, out = self.run_on(trace())
        self.assertEqual((rc, out.splitlines()[-1]), (0, 'ok 1 3,2'), out)

    def test_empty_whole_trace_counts_nothing(self):
        rc, out = self.run_on(trace([]))
        self.assertEqual((rc, out.splitlines()[-1]), (0, 'ok 0 '), out)

    # H13: a ring that lost events must not read as "no CMD11 sent".
    def test_overwritten_events_fail(self):
        rc, out = self.run_on(trace(EVENTS[1:], written=3))
        self.assertEqual(rc, 1, out)
        self.assertIn('lost 1 of 3 events', out)

    def test_lost_events_marker_fails(self):
        rc, out = self.run_on(trace(EVENTS[1:], lost='CPU:1 [LOST 7 EVENTS]\n'))
        self.assertEqual(rc, 1, out)
        self.assertIn('[LOST 7 EVENTS]', out)

    def test_lost_events_marker_without_count_fails(self):
        rc, out = self.run_on(trace(EVENTS[1:], lost='CPU:0 [LOST EVENTS]\n'))
        self.assertEqual(rc, 1, out)

    def test_no_header_fails(self):
        rc, out = self.run_on(''.join(EVENTS[1:]))
        self.assertEqual(rc, 1, out)
        self.assertIn('no entries-in-buffer', out)


if __name__ == '__main__':
    unittest.main()
