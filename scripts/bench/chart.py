#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""chart.py runs.tsv out.svg --title TITLE --unit UNIT [--label CONFIG=TEXT]...:
a horizontal bar chart of a benchmark's samples, one bar per configuration
(its median), a line from the minimum to the maximum and a dot per run;
--label adds TEXT after a configuration's value. Standard library only; the
SVG needs no fonts beyond the viewer's sans-serif.
"""
import argparse
import statistics
from xml.sax.saxutils import escape

ROW, LEFT, RIGHT, TOP, WIDTH = 34, 190, 110, 50, 900


def read(path):
    samples = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            fields = line.rstrip('\n').split('\t')
            if len(fields) != 3:
                continue
            try:
                value = float(fields[2])
            except ValueError:
                continue  # the header
            samples.setdefault(fields[0], []).append(value)
    return samples


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('tsv')
    ap.add_argument('svg')
    ap.add_argument('--title', required=True)
    ap.add_argument('--unit', default='')
    ap.add_argument('--label', action='append', default=[], metavar='CONFIG=TEXT')
    args = ap.parse_args()
    labels = dict(l.split('=', 1) for l in args.label if '=' in l)
    samples = read(args.tsv)
    if not samples:
        raise SystemExit(f'{args.tsv}: no samples')
    top = max(max(v) for v in samples.values()) * 1.05
    scale = (WIDTH - LEFT - RIGHT) / top
    height = TOP + ROW * len(samples) + 40
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           'font-family="sans-serif" font-size="13">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{LEFT}" y="24" font-size="15" font-weight="bold">{escape(args.title)}</text>']
    for i, (config, values) in enumerate(samples.items()):
        y = TOP + i * ROW
        med = statistics.median(values)
        svg.append(f'<text x="{LEFT - 8}" y="{y + 17}" text-anchor="end">{escape(config)}</text>')
        svg.append(f'<rect x="{LEFT}" y="{y + 4}" width="{med * scale:.1f}" height="{ROW - 12}" '
                   'fill="#7aa6d6"/>')
        x0, x1 = LEFT + min(values) * scale, LEFT + max(values) * scale
        svg.append(f'<line x1="{x0:.1f}" x2="{x1:.1f}" y1="{y + 13}" y2="{y + 13}" '
                   'stroke="#1f3b5c" stroke-width="2"/>')
        for v in values:
            svg.append(f'<circle cx="{LEFT + v * scale:.1f}" cy="{y + 13}" r="2.5" '
                       'fill="#1f3b5c" fill-opacity="0.6"/>')
        svg.append(f'<text x="{max(x1, LEFT + med * scale) + 8:.1f}" y="{y + 17}">'
                   f'{med:.0f} {escape(args.unit)}'
                   f'{escape("  (" + labels[config] + ")") if config in labels else ""}</text>')
    axis_y = TOP + ROW * len(samples) + 8
    svg.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{axis_y}" y2="{axis_y}" stroke="#999"/>')
    step = 10 ** (len(str(int(top))) - 1)
    t = 0
    while t <= top:
        x = LEFT + t * scale
        svg.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{axis_y}" y2="{axis_y + 5}" stroke="#999"/>')
        svg.append(f'<text x="{x:.1f}" y="{axis_y + 19}" text-anchor="middle" fill="#555">{t:g}</text>')
        t += step
    svg.append('</svg>')
    with open(args.svg, 'w', encoding='utf-8') as f:
        f.write('\n'.join(svg) + '\n')


if __name__ == '__main__':
    main()
