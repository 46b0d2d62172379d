#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""recipients.py MAIL: the addresses a mail goes to (From, To and Cc), one
per line, lower case. get_maintainer.py output given on stdin with "-"
instead: the address of each line."""
import email
import email.policy
import email.utils
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if sys.argv[1] == '-':
        pairs = email.utils.getaddresses(line.strip() for line in sys.stdin if line.strip())
    else:
        with open(sys.argv[1], 'rb') as f:
            msg = email.message_from_binary_file(f, policy=email.policy.compat32)
        pairs = email.utils.getaddresses(msg.get_all('From', []) + msg.get_all('To', []) +
                                         msg.get_all('Cc', []))
    for addr in sorted({a.lower() for _, a in pairs if a}):
        print(addr)


if __name__ == '__main__':
    main()
