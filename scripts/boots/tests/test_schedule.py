# SPDX-License-Identifier: GPL-2.0
"""schedule.sh (run-boots.sh's scheduler) with a made-up run_boot whose
boots die in setup, are killed or leave no verdict: every planned boot must
still end in the results, as a pass or as a failure naming it."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, '..', '..', 'lib.sh')
SCHEDULE = os.path.join(HERE, '..', 'schedule.sh')

# The plan line's test field says what the made-up boot does.
RUN_BOOT = r'''
run_boot() {
	local name=$1 how=$4
	echo "boot $name: $how"
	case $how in
	good)   record pass "$name: guest ran its plan and powered off" ;;
	panic)  record pass "$name: guest panicked as planned (x)" ;;
	die)    die "boot $name: cannot set up" ;;
	unset)  echo "$no_such_variable" ;;
	kill)   kill -KILL "$BASHPID" ;;
	term)   kill -TERM "$BASHPID"; sleep 1 ;;
	return) return 1 ;;
	silent) record pass "$name: some test" ;;
	esac
}
'''


def schedule(*lines, jobs=2):
    """Run schedule_boots on plan lines "NAME variant 1 HOW"; return its exit
    status, the run's rows and its output."""
    with tempfile.TemporaryDirectory() as d:
        results = os.path.join(d, 'results.tsv')
        script = (f'. "{LIB}"; . "{SCHEDULE}"; {RUN_BOOT}\n'
                  'BOOT_JOBS=' + str(jobs) + '; : >"$BST_RESULTS"; '
                  'rc=0; schedule_boots "$@" || rc=$?; echo "schedule exit $rc"')
        p = subprocess.run(['bash', '-c', script, 'schedule',
                            *[f'{n}\tv\t1\t{how}' for n, how in lines]],
                           env=dict(os.environ, BST_RESULTS=results, BST_OUT=d),
                           capture_output=True, text=True, timeout=60)
        with open(results) as f:
            rows = [line.rstrip('\n').split('\t') for line in f]
    rc = int(p.stdout.split('schedule exit ')[-1]) if 'schedule exit' in p.stdout else None
    return rc, rows, p.stdout + p.stderr


def failed(rows):
    return [r[1] for r in rows if r[0] == 'fail']


class Schedule(unittest.TestCase):
    def test_good_boots(self):
        rc, rows, _ = schedule(('b1', 'good'), ('b2', 'panic'), ('b3', 'good'))
        self.assertEqual(rc, 0)
        self.assertEqual([r[0] for r in rows], ['pass'] * 3)
        self.assertEqual([r[1].split(':')[0] for r in rows], ['b1', 'b2', 'b3'])

    def check_lost_boot(self, how, jobs=2):
        rc, rows, out = schedule(('b1', 'good'), ('b2', how), ('b3', 'good'), jobs=jobs)
        self.assertEqual(rc, 0, out)
        self.assertEqual(failed(rows), ['b2: the boot could be set up'], out)
        # b3 still reported, after b2, and b2's log printed
        self.assertEqual([r[1].split(':')[0] for r in rows], ['b1', 'b2', 'b3'], out)
        self.assertIn(f'boot b2: {how}', out)
        return out

    def test_die_in_setup_fails_that_boot_only(self):
        out = self.check_lost_boot('die')
        self.assertIn('cannot set up', out)

    def test_die_one_at_a_time(self):
        self.check_lost_boot('die', jobs=1)

    def test_unset_variable_fails_that_boot_only(self):
        out = self.check_lost_boot('unset')
        self.assertIn('no_such_variable', out)

    def test_killed_boot_fails_that_boot_only(self):
        self.check_lost_boot('kill')

    def test_terminated_boot_fails_that_boot_only(self):
        self.check_lost_boot('term')

    def test_setup_returning_failure(self):
        self.check_lost_boot('return')

    def test_boot_without_verdict_fails(self):
        rc, rows, out = schedule(('b1', 'good'), ('b2', 'silent'))
        self.assertEqual(rc, 1, out)
        self.assertIn('b2: the boot was judged', failed(rows))
        self.assertIn('boots: every planned boot reported', failed(rows))

    def test_two_boots_of_one_name_fail(self):
        rc, rows, out = schedule(('b1', 'good'), ('b1', 'good'), jobs=1)
        self.assertEqual(rc, 1, out)
        self.assertIn('boots: every planned boot reported', failed(rows))


if __name__ == '__main__':
    unittest.main()
