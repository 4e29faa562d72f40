#!/usr/bin/env python3
"""Copies the charting library the pages draw their plots with (uPlot,
MIT) from the npm package locked in tests/web/package-lock.json into web/,
as a module the pages import and its stylesheet:

    npm ci --prefix tests/web && python3 web/vendor.py

web/uplot.js is the package's dist/uPlot.iife.min.js with one line added,
`export default uPlot;`, so that it is an ES module like the other files
(embed.py hashes its name); web/uplot.css is dist/uPlot.min.css. Both are
committed, so that building the daemon needs no npm; test_web.py checks
them against the locked package, byte for byte but that line.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIST = os.path.join(HERE, '..', 'tests', 'web', 'node_modules', 'uplot', 'dist')
EXPORT = '\nexport default uPlot;\n'


def module_text(iife):
    return iife.rstrip('\n') + EXPORT


def main():
    try:
        with open(os.path.join(DIST, 'uPlot.iife.min.js'), encoding='utf-8') as f:
            js = f.read()
        with open(os.path.join(DIST, 'uPlot.min.css'), encoding='utf-8') as f:
            css = f.read()
    except OSError as e:
        sys.exit('vendor.py: %s (run npm ci --prefix tests/web first)' % e)
    with open(os.path.join(HERE, 'uplot.js'), 'w', encoding='utf-8') as f:
        f.write(module_text(js))
    with open(os.path.join(HERE, 'uplot.css'), 'w', encoding='utf-8') as f:
        f.write(css)
    cp = os.path.join(DIST, '..', 'LICENSE')
    with open(cp, encoding='utf-8') as f, open(os.path.join(HERE, 'uplot.LICENSE'), 'w', encoding='utf-8') as g:
        g.write(f.read())


if __name__ == '__main__':
    main()
