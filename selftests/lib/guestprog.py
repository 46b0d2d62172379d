# SPDX-License-Identifier: GPL-2.0
"""Build a guest test program of selftests/ for the host, for the unit
tests of selftests/*/tests, and read its KTAP. Needs KSRC (a kernel tree)
for kselftest.h, as the guest build (scripts/build/build-guest.sh) does.
A test directory imports it with selftests/lib on sys.path."""
import os
import re
import subprocess

KSRC = os.environ.get('KSRC', '')


def build(src, out, *defines):
    """gcc with the guest build's warnings; -D for each of @defines. A
    program's own headers are found beside @src."""
    cmd = ['gcc', '-O2', '-Wall', '-Wextra', '-Werror',
           '-I' + os.path.join(KSRC, 'tools/testing/selftests'),
           *['-D' + d for d in defines], '-o', out, src, '-lpthread']
    subprocess.run(cmd, check=True)


def results(out):
    """{description: True/False} of the KTAP result lines."""
    res = {}
    for line in out.splitlines():
        m = re.match(r'(not )?ok \d+ (.*)', line)
        if m:
            res[m.group(2)] = not m.group(1)
    return res
