# SPDX-License-Identifier: GPL-2.0
"""Build a guest test program of selftests/bootstamp for the host, for the
unit tests beside this file, and read its KTAP. Needs KSRC (a kernel tree)
for kselftest.h, as the guest build does."""
import os
import re
import subprocess

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
KSRC = os.environ.get('KSRC', '')


def build(src, out, *defines):
    """gcc with the guest build's warnings; -D for each of @defines."""
    cmd = ['gcc', '-O2', '-Wall', '-Wextra', '-Werror',
           '-I' + os.path.join(KSRC, 'tools/testing/selftests'), '-I' + SRC,
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
