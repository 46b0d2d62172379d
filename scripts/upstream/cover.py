#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cover letter of patches/ and b4 0.12's cover commit, both ways.

patches/SERIES/0000-cover-letter.patch is a mail: Subject "[PATCH RFC v2 0/5] title",
the text, then "---", shortlog, diffstat and "change-id: ...". b4 keeps the
same cover as an empty commit whose message ends with a JSON tracking block.

  cover.py commit-message COVER     the b4 cover commit message for COVER
  cover.py from-b4 B4COVER          B4COVER (b4 prep -p output) as the repo
                                    keeps it: no date or message id
  cover.py identity COVER           what a round trip must keep
"""
import email
import email.policy
import json
import re
import sys

TRACKING = '--- b4-submit-tracking ---'


def parse(path):
    with open(path, 'rb') as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    m = re.match(r'\[([^]]*)\]\s*(.*)', str(msg['Subject']), re.S)
    if not m:
        sys.exit(f'{path}: the Subject has no [PATCH ...] prefix')
    words = m.group(1).split()
    if not words or words[0] != 'PATCH':
        sys.exit(f'{path}: the Subject prefix does not start with PATCH')
    revision, prefixes = 1, []
    for w in words[1:]:
        if re.fullmatch(r'v\d+', w):
            revision = int(w[1:])
        elif not re.fullmatch(r'\d+/\d+', w):
            prefixes.append(w)
    body = msg.get_content()
    text, sep, below = body.partition('\n---\n')
    if not sep:
        sys.exit(f'{path}: no "---" line after the cover text')
    cid = re.search(r'^change-id: (\S+)$', below, re.M)
    if not cid:
        sys.exit(f'{path}: no "change-id:" line below the "---" '
                 '(b4 needs it to find earlier revisions)')
    title = ' '.join(m.group(2).split())
    return msg, title, text.strip('\n'), prefixes, revision, cid.group(1)


def commit_message(path):
    _, title, text, prefixes, revision, cid = parse(path)
    tracking = {'series': {'revision': revision, 'change-id': cid,
                           'base-branch': None, 'prefixes': prefixes}}
    return (f'{title}\n\n{text}\n\n{TRACKING}\n'
            '# This section is used internally by b4 prep for tracking purposes.\n'
            f'{json.dumps(tracking, indent=2)}\n')


def from_b4(path):
    out = []
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out.append('From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001')
    for line in lines[1:]:
        if re.match(r'(Date|Message-Id): ', line):
            continue
        out.append(line)
    return '\n'.join(out)


def identity(path):
    _, title, text, prefixes, revision, cid = parse(path)
    return (f'prefixes: {" ".join(prefixes)}\n'
            f'revision: {revision}\nchange-id: {cid}\ntitle: {title}\n\n{text}\n')


def main():
    cmds = {'commit-message': commit_message, 'from-b4': from_b4, 'identity': identity}
    if len(sys.argv) != 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    sys.stdout.write(cmds[sys.argv[1]](sys.argv[2]))


if __name__ == '__main__':
    main()
