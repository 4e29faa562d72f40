"""ActionBlocks (actionblocks-v1) spins and kicks over HTTP, end to end:
scripted 2-player turn-clock matches in which seat 0's keys set up and
play a T-spin triple (1600 x level, 6 lines sent, the opponent's board
rising by them), a mini T-spin single followed by a back-to-back T-spin
triple (x1.5, 7 lines sent), tests 2 to 5 of both SRS kick tables, each
of the 64 pairs of a quarter turn and a test 2 to 5 (both tables, the
eight quarter turns, one short match a pair), and a garbage overflow
taking a player out.

Where the expectations come from: docs/rules/actionblocks.md. The test
carries its own small model of a piece under the keys, written from that
page's pictures and kick tables (MODEL below): before each of seat 0's
moves it reads seat 0's well and piece from the view, plays the keys on
them and says where the piece must lock, how many drop points it earns,
how many rows it clears and which kick test each rotation takes; the
daemon's view and events after the turn must agree, move by move. A kick
is only proven by where the piece ends, so every kicked rotation in the
scripts is the key right before the hard drop, and the model also checks
that no other test of the same row would have locked the piece in the
same cells with the same drop points.

Where the scripts come from: they were found offline, never here, with
the engine's search tool tests/actionblocks/ab_find.c (built on demand:
`ninja -C build tests/actionblocks/ab_find`), which builds a shape with
hard drops on seat 0's pieces alone and then searches the keys of the
wanted lock, while seat 1 plays placements that send nothing:
`ab_find tst 2 2`, `ab_find b2b 1 1` and `ab_find kicks 5 5` print the
seeds and moves below. For the 64 pairs `ab_find kicks64 1 3` draws a
shape around each kick (the earlier tests' places blocked, the wanted
one's open) and prints one match a pair (KICKS64). For the garbage
overflow the roles turn (`ab_find overflow 3 3`): seat 1 plays two
perfect clears, each sending at least 10 lines, while seat 0 builds a
tower at the walls that the rising garbage pushes over row 39.
"""
import functools

from harness import Daemon, Tap
import matches
from matches import account
from matches import get as view

t = Tap()
RULES = 'actionblocks-v1'
new_match = functools.partial(matches.new_match, rules=RULES)
move = functools.partial(matches.move, view='full')

# ---- the scripts (ab_find's output: seed, turns of [seat 0, seat 1]) ----

TST = {'seed': 2, 'tst_turn': 9, 'turns': [
    ['keys CRRRD', 'keys RRRRD'], ['keys CXD', 'keys LLLLLD'], ['keys LLLLLD', 'keys RRD'],
    ['keys CXRD', 'keys LD'], ['keys CXXLLLLLD', 'keys XXRRRRD'], ['keys XRRRRD', 'keys LD'],
    ['keys CD', 'keys XD'], ['keys RRRD', 'keys LLLLLD'],
    ['keys LLLSSSSSSSSSSSSSSSSRZD', 'keys XXLD']]}

B2B = {'seed': 1, 'mini_turn': 6, 'tst_turn': 16, 'turns': [
    ['keys D', 'keys LLLLLD'], ['keys CLLD', 'keys LD'], ['keys D', 'keys RRD'],
    ['keys RRRD', 'keys RD'], ['keys XRRRRD', 'keys XXLLLLLD'],
    ['keys LLLSSSSSSSSSSSSSSSSSSXD', 'keys XRRRD'], ['keys CRRRRD', 'keys XXLD'],
    ['keys LLLD', 'keys XXRRD'], ['keys CXLLLLLD', 'keys LLLLLD'], ['keys CXRRD', 'keys XXRRRRD'],
    ['keys LD', 'keys LLD'], ['keys RRRRD', 'keys RRD'], ['keys CLLLLLD', 'keys ZD'],
    ['keys XXRRRD', 'keys XRRRRD'], ['keys CRRD', 'keys XXLLLLLD'],
    ['keys LSSSSSSSSSSSSSSRZD', 'keys XXRRRD']]}

KICKS = {'seed': 5, 'turns': [
    ['keys LLLSSSSSSSSSSSSSSSSSSSXD', 'keys LLLLLD'], ['keys CLLZSSSSSSSSSSSSSSSSZD', 'keys D'],
    ['keys CLLXSSSSSSSSSSSSSSSXD', 'keys RRRD'], ['keys CRSSSSSSSSSSSSSSSSSZD', 'keys XXLLLLLD'],
    ['keys SSSSSSSSSSSSSSSSSZXD', 'keys RRD'], ['keys SSSSSSSSSSSSSSZD', 'keys XLD'],
    ['keys LSSSSSSSSSSSSXD', 'keys XRRRRD'], ['keys LLLSSSSSSSSSSXSXD', 'keys XXRD'],
    ['keys RRRD', 'keys XRRRD'], ['keys LLLSSSSSSSSSXZD', 'keys LLLD'],
    ['keys XSSSSSSSSSSSSXD', 'keys XLLLLLD'], ['keys LXSSSSSSSSXD', 'keys LD'],
    ['keys RRRSSSSSSSSSSSSSZRZD', 'keys RD'], ['keys ZSSSSSSSSSSSZD', 'keys XRRRRD'],
    ['keys ZRRRRRD', 'keys RD'], ['keys RRRSSSSSSSSSSZD', 'keys LLLLLD'],
    ['keys RD', 'keys ZRRRRRD'], ['keys XLD', 'keys LLLD'], ['keys XXLD', 'keys XLD'],
    ['keys RRD', 'keys XRD'], ['keys D', 'keys XRD'], ['keys RRRSSSSSSSZRSXD', 'keys XRRRD'],
    ['keys XLLLD', 'keys XXLLLLLD'], ['keys D', 'keys XLD'], ['keys LLLLLD', 'keys LLLLLD'],
    ['keys LLLSSSSSZD', 'keys LD'], ['keys XRRD', 'keys XRRRRD'], ['keys RD', 'keys XXRRD'],
    ['keys ZRRRRD', 'keys XRRRD'], ['keys RRRD', 'keys XXLD'], ['keys XXLLD', 'keys RRRRD'],
    ['keys SSSSXD', 'keys ZRRD'], ['keys XSSSSSZD', 'keys LD'], ['keys LLLD', 'keys XLLLLLD'],
    ['keys ZRRRRRD', 'keys LLLD'], ['keys LLLD', 'keys ZRRRRRD'], ['keys RRRRD', 'keys LD'],
    ['keys RRRRD', 'keys RRD'], ['keys XXD', 'keys RRD'], ['keys SXD', 'keys XLLLLLD'],
    ['keys RRXXD', 'keys XRRRD'], ['keys LD', 'keys XRRD'], ['keys XLLLLLD', 'keys LLD'],
    ['keys LZSZD', 'keys XD'], ['keys LLLXSSZD', 'keys XLLLD'], ['keys RRRXXXD', 'keys ZRRRRRD'],
    ['keys RRRRZSZD', 'keys XRRD'], ['keys RRXD', 'keys XXD']]}

# One match for each pair of a quarter turn and a test 2-5 (`ab_find kicks64
# 1 3`): seat 0's last move takes the kick it is named for, by the rotation
# right before its hard drop.
KICKS64 = [
    {'table': 'JLSTZ', 'from': 0, 'to': 1, 'test': 2, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CLLD', 'keys LD'], ['keys RRRD', 'keys RRD'], ['keys CXRRRRD', 'keys RD'],
        ['keys D', 'keys XXLLLLLD'], ['keys LSSSSSSSSSSSSSSSSXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 0, 'to': 1, 'test': 3, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRD', 'keys RRD'], ['keys XXD', 'keys RD'],
        ['keys RRRD', 'keys XXLLLLLD'], ['keys SSSSSSSSSSSSSSSSXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 0, 'to': 1, 'test': 4, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys LLLLLD', 'keys RRD'], ['keys RD', 'keys RD'],
        ['keys CXD', 'keys XXLLLLLD'], ['keys RRRD', 'keys XRRRD'], ['keys XXRRD', 'keys XXLD'],
        ['keys RRRRD', 'keys XXRRD'], ['keys CRD', 'keys LLLLLD'],
        ['keys LLSSSSSSSSSSSSSSSSXD', 'keys XXRRRRD']]},
    {'table': 'JLSTZ', 'from': 0, 'to': 1, 'test': 5, 'seed': 1, 'turns': [['keys CRRRRD', 'keys LLLLLD'],
        ['keys XLD', 'keys LD'], ['keys RD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys XLLLLLD', 'keys XXLLLLLD'], ['keys CLLLLLD', 'keys XRRRD'], ['keys XRRRD', 'keys XXLD'],
        ['keys RD', 'keys XXRRD'], ['keys XXRRD', 'keys LLLLLD'], ['keys CZRRRRRD', 'keys XXRRRRD'],
        ['keys LSSSSSSSSSSSSSSSSLXD', 'keys LLD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 0, 'test': 2, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRD', 'keys RRD'], ['keys XXD', 'keys RD'],
        ['keys RRRD', 'keys XXLLLLLD'], ['keys LLLXLZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 0, 'test': 3, 'seed': 1, 'turns': [['keys RD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys LD', 'keys RRD'], ['keys XXLD', 'keys RD'],
        ['keys CRRRRD', 'keys XXLLLLLD'], ['keys LLSSSSSSSSSSSSSSSSXLSSZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 0, 'test': 4, 'seed': 1, 'turns': [['keys RRD', 'keys LLLLLD'],
        ['keys CD', 'keys LD'], ['keys CLLD', 'keys RRD'], ['keys XXLD', 'keys RD'],
        ['keys CXLLLLLD', 'keys XXLLLLLD'], ['keys RRRRXSSSSSSSSSSSSSSSSSSZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 0, 'test': 5, 'seed': 1, 'turns': [['keys LLD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRD', 'keys RRD'], ['keys XXRRRD', 'keys RD'],
        ['keys CXD', 'keys XXLLLLLD'], ['keys LLSSSSSSSSSSSSSSSSSXLSZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 2, 'test': 2, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRD', 'keys RRD'], ['keys XXD', 'keys RD'],
        ['keys RRRD', 'keys XXLLLLLD'], ['keys LLLXLXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 2, 'test': 3, 'seed': 1, 'turns': [['keys RRD', 'keys LLLLLD'],
        ['keys CD', 'keys LD'], ['keys LD', 'keys RRD'], ['keys ZRRRRRD', 'keys RD'],
        ['keys RD', 'keys XXLLLLLD'], ['keys LLSSSSSSSSSSSSSSSSXLSXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 2, 'test': 4, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CRRRD', 'keys LD'], ['keys LLLLLD', 'keys RRD'], ['keys SSSSSSSSSSSSSSSSSXXD', 'keys RD']]},
    {'table': 'JLSTZ', 'from': 1, 'to': 2, 'test': 5, 'seed': 1, 'turns': [['keys RRD', 'keys LLLLLD'],
        ['keys CD', 'keys LD'], ['keys CLLD', 'keys RRD'], ['keys XXLD', 'keys RD'],
        ['keys CXRRRRD', 'keys XXLLLLLD'], ['keys LLSSSSSSSSSSSSSSSSXLSXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 1, 'test': 2, 'seed': 1, 'turns': [['keys RD', 'keys LLLLLD'],
        ['keys CLD', 'keys LD'], ['keys CLXXSSSSSSSSSSSSSSSSSZD', 'keys RRD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 1, 'test': 3, 'seed': 1, 'turns': [['keys RRD', 'keys LLLLLD'],
        ['keys CLLD', 'keys LD'], ['keys XRRRRD', 'keys RRD'], ['keys ZRD', 'keys RD'],
        ['keys CRRRRD', 'keys XXLLLLLD'], ['keys XXRRD', 'keys XRRRD'], ['keys ZD', 'keys XXLD'],
        ['keys CRD', 'keys XXRRD'], ['keys XLD', 'keys LLLLLD'], ['keys RRRRD', 'keys XXRRRRD'],
        ['keys RRD', 'keys LLD'], ['keys LXXSSSSSSSSSSSSSZD', 'keys RRD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 1, 'test': 4, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CXLLLLLD', 'keys LD'], ['keys LLLLLD', 'keys RRD'], ['keys RD', 'keys RD'],
        ['keys XRD', 'keys XXLLLLLD'], ['keys LXSSSSSSSSSSSSSSSSXLZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 1, 'test': 5, 'seed': 1, 'turns': [['keys CRRRRD', 'keys LLLLLD'],
        ['keys XLD', 'keys LD'], ['keys RD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys XLLLLLD', 'keys XXLLLLLD'], ['keys CLLLLLD', 'keys XRRRD'], ['keys XRRRD', 'keys XXLD'],
        ['keys RD', 'keys XXRRD'], ['keys XXRRD', 'keys LLLLLD'], ['keys CZRRRRRD', 'keys XXRRRRD'],
        ['keys CXRRRRD', 'keys LLD'], ['keys ZSSSSSSSSSSSSSSZSSLZD', 'keys RRD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 3, 'test': 2, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CXLLLLLD', 'keys LD'], ['keys LLLXXSSSSSSSSSSSSSSSSXD', 'keys RRD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 3, 'test': 3, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CRRRD', 'keys LD'], ['keys CRRRD', 'keys RRD'], ['keys LLLLLD', 'keys RD'],
        ['keys XRRRRD', 'keys XXLLLLLD'], ['keys RD', 'keys XRRRD'], ['keys CRRD', 'keys XXLD'],
        ['keys CXXRRRRD', 'keys XXRRD'], ['keys LZSSSSSSSSSSSSSSSSZSSXD', 'keys LLLLLD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 3, 'test': 4, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CXD', 'keys LD'], ['keys CXRD', 'keys RRD'], ['keys XXD', 'keys RD'],
        ['keys XRRD', 'keys XXLLLLLD'], ['keys LLZSSSSSSSSSSSSSSSSZRXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 2, 'to': 3, 'test': 5, 'seed': 1, 'turns': [['keys CXD', 'keys LLLLLD'],
        ['keys ZLLLLLD', 'keys LD'], ['keys D', 'keys RRD'], ['keys LLZSSSSSSSSSSSSSSZSSRXD', 'keys RD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 2, 'test': 2, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CXLLLLLD', 'keys LD'], ['keys CXLLLD', 'keys RRD'], ['keys RRD', 'keys RD'],
        ['keys LD', 'keys XXLLLLLD'], ['keys RRRRZRZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 2, 'test': 3, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CXRD', 'keys LD'], ['keys XRRD', 'keys RRD'], ['keys LD', 'keys RD'],
        ['keys CXLLD', 'keys XXLLLLLD'], ['keys RRRSSSSSSSSSSSSSSSZRSSZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 2, 'test': 4, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CXLLLLLD', 'keys LD'], ['keys CSSSSSSSSSSSSSSSSSZZD', 'keys RRD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 2, 'test': 5, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CXRD', 'keys LD'], ['keys RRRD', 'keys RRD'], ['keys LLLLLD', 'keys RD'],
        ['keys CLLD', 'keys XXLLLLLD'], ['keys RRRSSSSSSSSSSSSSSSSSZRSZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 0, 'test': 2, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CLLD', 'keys LD'], ['keys XLLLLLD', 'keys RRD'], ['keys RRRD', 'keys RD'],
        ['keys D', 'keys XXLLLLLD'], ['keys RRRRZRXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 0, 'test': 3, 'seed': 1, 'turns': [['keys CRRD', 'keys LLLLLD'],
        ['keys LD', 'keys LD'], ['keys CLLLLLD', 'keys RRD'], ['keys CLLD', 'keys RD'],
        ['keys CXXD', 'keys XXLLLLLD'], ['keys RRRSSSSSSSSSSSSSSSSSZRSXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 0, 'test': 4, 'seed': 1, 'turns': [['keys LLD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRD', 'keys RRD'], ['keys XXRRRD', 'keys RD'],
        ['keys CXD', 'keys XXLLLLLD'], ['keys LLLZSSSSSSSSSSSSSSSSSSXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 3, 'to': 0, 'test': 5, 'seed': 1, 'turns': [['keys RRD', 'keys LLLLLD'],
        ['keys CD', 'keys LD'], ['keys CLLD', 'keys RRD'], ['keys XXLD', 'keys RD'],
        ['keys CXLLLLLD', 'keys XXLLLLLD'], ['keys RRRSSSSSSSSSSSSSSSSSZRSXD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 0, 'to': 3, 'test': 2, 'seed': 1, 'turns': [['keys RRRRD', 'keys LLLLLD'],
        ['keys CRRD', 'keys LD'], ['keys XD', 'keys RRD'], ['keys LLLLLD', 'keys RD'],
        ['keys RRRD', 'keys XXLLLLLD'], ['keys LLSSSSSSSSSSSSSSSSSSZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 0, 'to': 3, 'test': 3, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRD', 'keys RRD'], ['keys XXD', 'keys RD'],
        ['keys RRRD', 'keys XXLLLLLD'], ['keys SSSSSSSSSSSSSSSSZD', 'keys XRRRD']]},
    {'table': 'JLSTZ', 'from': 0, 'to': 3, 'test': 4, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CZLLD', 'keys LD'], ['keys LD', 'keys RRD'], ['keys CLLLSSSSSSSSSSSSSSSSZD', 'keys RD']]},
    {'table': 'JLSTZ', 'from': 0, 'to': 3, 'test': 5, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys D', 'keys LD'], ['keys ZD', 'keys RRD'], ['keys CLLLLLD', 'keys RD'],
        ['keys CLLLSSSSSSSSSSSSSSSSRZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 0, 'to': 1, 'test': 2, 'seed': 1, 'turns': [['keys LLLD', 'keys LLLLLD'],
        ['keys CRRD', 'keys LD'], ['keys CD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys SSSSSSSSSSSSSSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 0, 'to': 1, 'test': 3, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CLLLLLD', 'keys LD'], ['keys RRRD', 'keys RRD'], ['keys XXRRRD', 'keys RD'],
        ['keys RRRSSSSSSSSSSSSSSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 0, 'to': 1, 'test': 4, 'seed': 1, 'turns': [['keys LD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRD', 'keys RRD'], ['keys XLLD', 'keys RD'],
        ['keys XLLLLLD', 'keys XXLLLLLD'], ['keys XXRD', 'keys XRRRD'], ['keys CXRRRRD', 'keys XXLD'],
        ['keys LLLLLD', 'keys XXRRD'], ['keys CXXRRRD', 'keys LLLLLD'], ['keys CRRRD', 'keys XXRRRRD'],
        ['keys CRRRD', 'keys LLD'], ['keys ZRRRRRD', 'keys RRD'], ['keys LSSSSSSSSSSSSSSSSLXD', 'keys ZD']]},
    {'table': 'I', 'from': 0, 'to': 1, 'test': 5, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRRRD', 'keys RRD'], ['keys XRRD', 'keys RD'],
        ['keys RSSSSSSSSSSSSSSSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 0, 'test': 2, 'seed': 1, 'turns': [['keys LLLD', 'keys LLLLLD'],
        ['keys CRRD', 'keys LD'], ['keys CD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys LLLXLZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 0, 'test': 3, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CRD', 'keys LD'], ['keys CLD', 'keys RRD'], ['keys XXLLLLLD', 'keys RD'],
        ['keys RRRXRZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 0, 'test': 4, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CXLLLD', 'keys LD'], ['keys CXLLD', 'keys RRD'], ['keys RRRD', 'keys RD'],
        ['keys LLLSSSSSSSSSSSSSSSXSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 0, 'test': 5, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys LD', 'keys LD'], ['keys XRRRRD', 'keys RRD'], ['keys CXXD', 'keys RD'],
        ['keys SSSSSSSSSSSSSSSXRSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 2, 'test': 2, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CLD', 'keys LD'], ['keys LLD', 'keys RRD'], ['keys RRD', 'keys RD'],
        ['keys RRRXRXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 2, 'test': 3, 'seed': 1, 'turns': [['keys RRRRD', 'keys LLLLLD'],
        ['keys CRRD', 'keys LD'], ['keys CD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys LLLXLXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 2, 'test': 4, 'seed': 1, 'turns': [['keys RD', 'keys LLLLLD'],
        ['keys CLD', 'keys LD'], ['keys CLLLLLD', 'keys RRD'], ['keys XXLLD', 'keys RD'],
        ['keys RSSSSSSSSSSSSSSSSXSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 1, 'to': 2, 'test': 5, 'seed': 1, 'turns': [['keys CXLD', 'keys LLLLLD'],
        ['keys RRD', 'keys LD'], ['keys RD', 'keys RRD'], ['keys ZRRRRRD', 'keys RD'],
        ['keys LLSSSSSSSSSSSSSSSXLSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 2, 'to': 1, 'test': 2, 'seed': 2, 'turns': [['keys RRRRD', 'keys RRRRD'],
        ['keys RD', 'keys LLLLLD'], ['keys RRRRD', 'keys RRD'], ['keys RRD', 'keys LD'],
        ['keys CRRD', 'keys XXRRRRD'], ['keys LLLLLD', 'keys LD'], ['keys RRRRD', 'keys XD'],
        ['keys CXXRRRD', 'keys LLLLLD'], ['keys CXXRRRRD', 'keys XXLD'],
        ['keys ZSSSSSSSSSSSSSZSSSSZD', 'keys XRRD']]},
    {'table': 'I', 'from': 2, 'to': 1, 'test': 3, 'seed': 1, 'turns': [['keys RD', 'keys LLLLLD'],
        ['keys CLD', 'keys LD'], ['keys RRRRD', 'keys RRD'], ['keys XXRRRRD', 'keys RD'],
        ['keys XXSSSSSSSSSSSSSSSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 2, 'to': 1, 'test': 4, 'seed': 1, 'turns': [['keys CXRD', 'keys LLLLLD'],
        ['keys ZLLLLLD', 'keys LD'], ['keys RD', 'keys RRD'], ['keys ZLD', 'keys RD'],
        ['keys LSSSSSSSSSSSSSXLSXZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 2, 'to': 1, 'test': 5, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRRRD', 'keys RRD'], ['keys XRRD', 'keys RD'],
        ['keys RRRXXSSSSSSSSSSSSSSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 2, 'to': 3, 'test': 2, 'seed': 1, 'turns': [['keys RD', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys RRRD', 'keys RRD'], ['keys LLLLLD', 'keys RD'],
        ['keys RRXXSSSSSSSSSSSSSSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 2, 'to': 3, 'test': 3, 'seed': 3, 'turns': [['keys CRRRD', 'keys RRRRD'],
        ['keys RRRD', 'keys LLLLLD'], ['keys LLD', 'keys LD'], ['keys CXD', 'keys RD'],
        ['keys ZRRRRRD', 'keys RRRRD'], ['keys XXRD', 'keys XXLLD'], ['keys RRRRD', 'keys XRRD'],
        ['keys XXSSSSSSSSSSSSSSXD', 'keys XXLD']]},
    {'table': 'I', 'from': 2, 'to': 3, 'test': 4, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRRRD', 'keys RRD'], ['keys XRRD', 'keys RD'],
        ['keys RRRXXSSSSSSSSSSSSSSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 2, 'to': 3, 'test': 5, 'seed': 1, 'turns': [['keys RRD', 'keys LLLLLD'],
        ['keys CXLLD', 'keys LD'], ['keys CXLD', 'keys RRD'], ['keys XRD', 'keys RD'],
        ['keys XLLLLLD', 'keys XXLLLLLD'], ['keys LLLLLD', 'keys XRRRD'], ['keys CLD', 'keys XXLD'],
        ['keys RRRRD', 'keys XXRRD'], ['keys ZRRRRRD', 'keys LLLLLD'], ['keys CXLLLLLD', 'keys XXRRRRD'],
        ['keys CLLD', 'keys LLD'], ['keys ZD', 'keys RRD'], ['keys SSSSSSSSSSZRSSSSZLLLXD', 'keys ZD']]},
    {'table': 'I', 'from': 3, 'to': 2, 'test': 2, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CLD', 'keys LD'], ['keys LLD', 'keys RRD'], ['keys XXLLD', 'keys RD'],
        ['keys RRRZRZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 3, 'to': 2, 'test': 3, 'seed': 1, 'turns': [['keys RRRRD', 'keys LLLLLD'],
        ['keys CRRD', 'keys LD'], ['keys CD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys LLLZLZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 3, 'to': 2, 'test': 4, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys LD', 'keys LD'], ['keys CRD', 'keys RRD'], ['keys XXLLLLLD', 'keys RD'],
        ['keys RSSSSSSSSSSSSSSSZSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 3, 'to': 2, 'test': 5, 'seed': 1, 'turns': [['keys LLD', 'keys LLLLLD'],
        ['keys CRRRD', 'keys LD'], ['keys CRD', 'keys RRD'], ['keys XLLLD', 'keys RD'],
        ['keys LLLSSSSSSSSSSSSSSSZSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 3, 'to': 0, 'test': 2, 'seed': 1, 'turns': [['keys LLLD', 'keys LLLLLD'],
        ['keys CRRD', 'keys LD'], ['keys CD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys LLLZLXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 3, 'to': 0, 'test': 3, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CRD', 'keys LD'], ['keys CLD', 'keys RRD'], ['keys XXLLLLLD', 'keys RD'],
        ['keys RRRZRXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 3, 'to': 0, 'test': 4, 'seed': 1, 'turns': [['keys RD', 'keys LLLLLD'],
        ['keys D', 'keys LD'], ['keys XXLLD', 'keys RRD'], ['keys CRRRRD', 'keys RD'],
        ['keys LLLSSSSSSSSSSSSSSSZSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 3, 'to': 0, 'test': 5, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CRD', 'keys LD'], ['keys CRD', 'keys RRD'], ['keys XLD', 'keys RD'],
        ['keys RSSSSSSSSSSSSSSSZSSXD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 0, 'to': 3, 'test': 2, 'seed': 1, 'turns': [['keys LLLD', 'keys LLLLLD'],
        ['keys CRRD', 'keys LD'], ['keys CD', 'keys RRD'], ['keys XXRD', 'keys RD'],
        ['keys SSSSSSSSSSSSSSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 0, 'to': 3, 'test': 3, 'seed': 1, 'turns': [['keys LLLLLD', 'keys LLLLLD'],
        ['keys CRRRD', 'keys LD'], ['keys CRD', 'keys RRD'], ['keys XXRRD', 'keys RD'],
        ['keys RRSSSSSSSSSSSSSSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 0, 'to': 3, 'test': 4, 'seed': 1, 'turns': [['keys D', 'keys LLLLLD'],
        ['keys CRRRRD', 'keys LD'], ['keys CRRRRD', 'keys RRD'], ['keys XRRD', 'keys RD'],
        ['keys RSSSSSSSSSSSSSSSSZD', 'keys XXLLLLLD']]},
    {'table': 'I', 'from': 0, 'to': 3, 'test': 5, 'seed': 1, 'turns': [['keys LLD', 'keys LLLLLD'],
        ['keys XLLLLLD', 'keys LD'], ['keys XXLLLLLD', 'keys RRD'], ['keys LD', 'keys RD'],
        ['keys CXSSSSSSSSSSSSSSSSZLLZD', 'keys XXLLLLLD']]},
]

OVERFLOW = {'seed': 3, 'turns': [
    ['keys XLLLLLD', 'keys CZRRRD'], ['keys XLLLLLD', 'keys XRD'], ['keys XLLLLLD', 'keys LLD'],
    ['keys XLLLLD', 'keys CD'], ['keys LLLLLD', 'keys XXLLLLLD'], ['keys XLLLLLD', 'keys ZRRRRRD'],
    ['keys XLLLLLD', 'keys XRRRRD'], ['keys RRRRD', 'keys RD'], ['keys XLLLLLD', 'keys CLLD'],
    ['keys RRRRD', 'keys LLLLLD'], ['keys RRRD', 'keys RD'], ['keys RRRRD', 'keys LLLLLD'],
    ['keys RRRRD', 'keys XLLD'], ['keys D', 'keys CD'], ['keys XLLLLLD', 'keys XLLLLLD'],
    ['keys D', 'keys CLLD'], ['keys LLLLLD', 'keys XXRRRRD'], ['keys XXRRRRD', 'keys RD'],
    ['keys RD', 'keys RRRRD'], ['keys XRRD', 'keys CXXRRRRD'], ['keys XXLLLLLD', 'keys LLLLLD']]}

# ---- MODEL: a piece under the keys, from the rules page ----

# The spawn state of each piece in its box, top row first ("Pieces").
SHAPES = {
    'I': ('....', '####', '....', '....'),
    'O': ('##', '##'),
    'T': ('.#.', '###', '...'),
    'S': ('.##', '##.', '...'),
    'Z': ('##.', '.##', '...'),
    'J': ('#..', '###', '...'),
    'L': ('..#', '###', '...'),
}

# The eight quarter turns: 0->R, R->0, R->2, 2->R, 2->L, L->2, L->0, 0->L.
QUARTER_TURNS = [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2), (3, 0), (0, 3)]

# "Rotation: the Super Rotation System": (from, to) -> the five tests, y up.
JLSTZ = {
    (0, 1): [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    (1, 0): [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    (1, 2): [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    (2, 1): [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    (2, 3): [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
    (3, 2): [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    (3, 0): [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    (0, 3): [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
}
ITABLE = {
    (0, 1): [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    (1, 0): [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    (1, 2): [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
    (2, 1): [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    (2, 3): [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    (3, 2): [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    (3, 0): [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    (0, 3): [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
}


def minos(letter, rot):
    """(dx, dy) of the piece's cells in state rot, dy counted down from the
    box's top row: the spawn box turned a quarter clockwise rot times."""
    rows = SHAPES[letter]
    n = len(rows)
    for _ in range(rot):
        rows = [''.join(rows[n - 1 - c][r] for c in range(n)) for r in range(n)]
    return [(c, r) for r in range(n) for c in range(n) if rows[r][c] == '#']


def cells_of(letter, x, y, rot):
    return [(x + dx, y - dy) for dx, dy in minos(letter, rot)]


def fits(well, letter, x, y, rot):
    return all(0 <= cx < 10 and 0 <= cy < 40 and (cx, cy) not in well
               for cx, cy in cells_of(letter, x, y, rot))


def kick_table(letter):
    return ('I', ITABLE) if letter == 'I' else ('JLSTZ', JLSTZ)


def spawn(well, letter):
    x, y = (4 if letter == 'O' else 3), 21
    if fits(well, letter, x, y - 1, 0):
        y -= 1
    return [letter, x, y, 0]


def drop_to_ground(well, letter, x, y, rot):
    while fits(well, letter, x, y - 1, rot):
        y -= 1
    return y


def play_keys(well, piece, hold, preview, keys):
    """Seat 0's keys on its well: where the piece locks, drop points, rows
    cleared, the well after, and each rotation's kick (table, from, to,
    test 1..5, the key's index, the piece before it)."""
    letter, x, y, rot = piece
    lowest, resets, held = y, 0, False
    drop, rotations, locked_at, fallen = 0, [], None, 0
    for i, k in enumerate(keys):
        grounded = not fits(well, letter, x, y - 1, rot)
        moved = False
        if k in 'LR':
            nx = x + (1 if k == 'R' else -1)
            if fits(well, letter, nx, y, rot):
                x, moved = nx, True
        elif k in 'XZ' and letter != 'O':
            to = (rot + (1 if k == 'X' else 3)) % 4
            name, table = kick_table(letter)
            for n, (dx, dy) in enumerate(table[(rot, to)]):
                if fits(well, letter, x + dx, y + dy, to):
                    rotations.append((name, rot, to, n + 1, i, (letter, x, y, rot)))
                    x, y, rot, moved = x + dx, y + dy, to, True
                    break
        elif k in 'XZ':
            rot, moved = (rot + (1 if k == 'X' else 3)) % 4, True
        elif k == 'S':
            if fits(well, letter, x, y - 1, rot):
                y -= 1
                drop += 1
                if y < lowest:
                    lowest, resets = y, 0
            continue
        elif k == 'D':
            ny = drop_to_ground(well, letter, x, y, rot)
            drop += 2 * (y - ny)
            fallen, y, locked_at = y - ny, ny, i
            break
        elif k == 'C' and not held:
            held = True
            nxt = hold or preview[0]
            hold = letter
            letter, x, y, rot = spawn(well, nxt)
            lowest, resets = y, 0
            continue
        if moved:
            if grounded:
                resets += 1
            if y < lowest:
                lowest, resets = y, 0
            if resets >= 15 and not fits(well, letter, x, y - 1, rot):
                locked_at = i
                break
    assert locked_at == len(keys) - 1, 'the scripts lock on their last key'
    placed = cells_of(letter, x, y, rot)
    after = set(well) | set(placed)
    full = [r for r in range(40) if all((c, r) in after for c in range(10))]
    kept = sorted({r for _, r in after} - set(full))
    after = {(c, kept.index(r)) for c, r in after if r in kept}
    return {'letter': letter, 'cells': placed, 'drop': drop, 'lines': len(full), 'well': after,
            'rotations': rotations, 'fallen': fallen, 'nkeys': len(keys)}


def kick_proven(well, rotation, model):
    """Whether a lock right after a rotation by test n (then D) is one no
    other test of its row gives: every other test that fits locks the
    piece in other cells or after another fall."""
    name, frm, to, n, _, (letter, x, y, _) = rotation
    table = ITABLE if name == 'I' else JLSTZ
    for m, (dx, dy) in enumerate(table[(frm, to)]):
        if m + 1 == n or not fits(well, letter, x + dx, y + dy, to):
            continue
        ny = drop_to_ground(well, letter, x + dx, y + dy, to)
        if sorted(cells_of(letter, x + dx, ny, to)) == sorted(model['cells']) and \
                y + dy - ny == model['fallen']:
            return False
    return True


# ---- reading the daemon's views ----

def well_of(seat):
    """The set of filled cells of a seat's view: board (y 19 first) and
    buffer (its highest row first, down to y 20)."""
    cells = set()
    for i, row in enumerate(seat['board']):
        cells |= {(x, 19 - i) for x, ch in enumerate(row) if ch != '.'}
    top = 20 + len(seat['buffer']) - 1
    for i, row in enumerate(seat['buffer']):
        cells |= {(x, top - i) for x, ch in enumerate(row) if ch != '.'}
    return cells


def play_script(d, keys, script, name, report=True):
    """Plays the script over HTTP, modelling every move of seat 0; answers
    the per-turn records (model, events, views) for the checks. With report
    false the caller reports the agreement (each record's 'agree')."""
    mid, _ = new_match(d, keys, seed=script['seed'])
    records, agree = [], []
    for turn, (m0, m1) in enumerate(script['turns'], 1):
        before = view(d, mid, keys[0])
        s0 = before['seats'][0]
        p = s0['piece']
        model = play_keys(well_of(s0), [p['letter'], p['x'], p['y'], p['rotation']], s0['hold'],
                          s0['next'], m0.split()[1])
        a = move(d, mid, keys[0], turn, m0)
        b = move(d, mid, keys[1], turn, m1)
        assert a.status == 200 and b.status == 200 and b.json['resolved'], (a, b)
        after = view(d, mid, keys[0])
        ev = b.json['match']['last_turn']['players'][0]
        same = (ev['locked'] and ev['piece'] == model['letter'] and ev['drop_points'] == model['drop'] and
                ev['lines'] == model['lines'] and ev['risen_lines'] == 0 and
                well_of(after['seats'][0]) == model['well'])
        if not same:
            t.diag('%s turn %d (%s): events %s, model drop %d lines %d' % (
                name, turn, m0, ev, model['drop'], model['lines']))
        agree.append(same)
        records.append({'turn': turn, 'model': model, 'ev': ev, 'before': before, 'after': after,
                        'well_before': well_of(s0), 'agree': same})
    if report:
        t.ok(all(agree), '%s: each of seat 0\'s %d moves locked where the keys take it by the rules '
             '(cells, drop points, rows cleared)' % (name, len(agree)))
    return mid, records


def kicks_of(records, per_turn=False):
    """(table, test), or (table, from, to, test) with per_turn, -> (record,
    rotation) of the first move whose rotation right before its hard drop
    took that kick test (2 to 5)."""
    seen = {}
    for r in records:
        m = r['model']
        if not m['rotations']:
            continue
        rot = m['rotations'][-1]
        key = rot[:4] if per_turn else (rot[0], rot[3])
        if rot[4] == m['nkeys'] - 2 and rot[3] > 1 and key not in seen:
            seen[key] = (r, rot)
    return seen


def spin_checks(d, keys, mid, records, script, b2b):
    r = records[script['tst_turn'] - 1]
    ev, lvl = r['ev'], r['before']['seats'][0]['level']
    want_points = (2400 if b2b else 1600) * lvl
    want_attack = 7 if b2b else 6
    tst_rot = r['model']['rotations'][-1][:4]
    t.ok(ev['spin'] == 'full' and ev['lines'] == 3 and ev['back_to_back'] is b2b and ev['combo'] == 0,
         'turn %d: seat 0\'s T locks a full spin clearing 3 rows%s, combo 0 (its rotation %s %d->%d took '
         'test %d)' % (r['turn'], ', back to back' if b2b else '', tst_rot[0], tst_rot[1], tst_rot[2],
                       tst_rot[3]))
    t.eq(ev['points'], want_points, 'the T-spin triple scores %s x level %d = %d' % (
        '1600 x 1.5' if b2b else '1600', lvl, want_points))
    t.eq(r['after']['seats'][0]['score'] - r['before']['seats'][0]['score'], want_points + ev['drop_points'],
         'and the score grows by those points and the move\'s drop points')
    t.ok(ev['attack'] == want_attack and ev['sent'] == want_attack and ev['cancelled'] == 0 and
         ev['target'] == 1,
         'it sends %d lines%s to seat 1 (attack %s, sent %s)' % (
             want_attack, ' (6, +1 back to back)' if b2b else '', ev['attack'], ev['sent']))
    opp, opp0 = r['after']['seats'][1], r['before']['seats'][1]
    t.ok(opp['pending'] == opp0['pending'] + want_attack and
         r['after']['seats'][0]['lines_sent'] - r['before']['seats'][0]['lines_sent'] == want_attack and
         opp['lines_received'] - opp0['lines_received'] == want_attack,
         'seat 1\'s queue holds them (pending %d) and the view counts them sent and received' % opp['pending'])
    # One more turn: seat 1's lock clears nothing, so its queue rises.
    turn = len(script['turns']) + 1
    a = move(d, mid, keys[0], turn, 'keys D')
    b = move(d, mid, keys[1], turn, 'keys D')
    ev1 = b.json['match']['last_turn']['players'][1]
    board = b.json['match']['seats'][1]['board']
    bottom = board[20 - want_attack:]
    holes = {row.index('.') for row in bottom if row.count('.') == 1}
    t.ok(a.status == 200 and b.status == 200 and ev1['lines'] == 0 and ev1['risen_lines'] == want_attack and
         all(set(row) == {'G', '.'} and row.count('.') == 1 for row in bottom) and len(holes) == 1 and
         b.json['match']['seats'][1]['pending'] == 0,
         'next turn seat 1 locks without a clear and its board rises by %d grey rows sharing one hole '
         '(%s)' % (want_attack, bottom))


def overflow(d, keys):
    mid, _ = new_match(d, keys, seed=OVERFLOW['seed'])
    sent, last = [], None
    for turn, (m0, m1) in enumerate(OVERFLOW['turns'], 1):
        before = view(d, mid, keys[0])
        a = move(d, mid, keys[0], turn, m0)
        b = move(d, mid, keys[1], turn, m1)
        assert a.status == 200 and b.status == 200 and b.json['resolved'], (a, b)
        evs = b.json['match']['last_turn']['players']
        if evs[1].get('perfect_clear'):
            sent.append((turn, evs[1]['sent']))
        last = (before, evs, b.json['match'])
    before, evs, m = last
    s0 = before['seats'][0]
    p = s0['piece']
    model = play_keys(well_of(s0), [p['letter'], p['x'], p['y'], p['rotation']], s0['hold'], s0['next'],
                      OVERFLOW['turns'][-1][0].split()[1])
    top = max(y for _, y in model['well'])
    t.ok(len(sent) == 2 and all(n >= 10 for _, n in sent),
         'overflow (seed %d): seat 1 sends two perfect clears to seat 0 (turn, lines: %s)' % (
             OVERFLOW['seed'], sent))
    t.ok(evs[0]['lines'] == 0 and evs[0]['risen_lines'] == s0['pending'] and top + s0['pending'] > 39,
         'turn %d: seat 0 locks without a clear, so its queue of %d lines rises under a well whose '
         'highest cell is on row %d: a cell goes above row 39' % (m['turn'], s0['pending'], top))
    t.ok(evs[0]['eliminated'] and evs[0]['end_reason'] == 'overflow' and m['status'] == 'finished' and
         m['end'] == 'last_standing' and m['seats'][0]['end_reason'] == 'overflow' and
         not m['seats'][0]['alive'] and [s['place'] for s in m['seats']] == [2, 1],
         'and it is out by garbage overflow (end_reason %s), place 2; seat 1 wins (%s)' % (
             evs[0]['end_reason'], m['end']))


def main():
    d = Daemon()
    try:
        keys = [account(d, 'abspin0'), account(d, 'abspin1')]
        covered, turns = {}, {}

        mid, recs = play_script(d, keys, TST, 'T-spin triple (seed 2)')
        spin_checks(d, keys, mid, recs, TST, False)
        covered.update({k: v for k, v in kicks_of(recs).items() if k not in covered})
        turns.update({k: v for k, v in kicks_of(recs, True).items() if k not in turns})

        mid, recs = play_script(d, keys, B2B, 'mini spin, then back to back (seed 1)')
        r = recs[B2B['mini_turn'] - 1]
        ev, lvl = r['ev'], r['before']['seats'][0]['level']
        rot = r['model']['rotations'][-1][:4]
        t.ok(ev['spin'] == 'mini' and ev['lines'] == 1 and ev['points'] == 200 * lvl and ev['attack'] == 0 and
             ev['back_to_back'] is False and r['after']['seats'][0]['back_to_back'] is True,
             'turn %d: a mini T-spin single (its rotation %s %d->%d took test %d, the corners on the side it '
             'points to not both filled) scores 200 x level %d, sends nothing, and makes the next difficult '
             'clear back to back' % (r['turn'], rot[0], rot[1], rot[2], rot[3], lvl))
        t.ok(all(x['ev']['lines'] == 0 for x in recs[B2B['mini_turn']:B2B['tst_turn'] - 1]),
             'no clear between the mini spin and the triple: back to back stands, the combo starts over')
        spin_checks(d, keys, mid, recs, B2B, True)
        covered.update({k: v for k, v in kicks_of(recs).items() if k not in covered})
        turns.update({k: v for k, v in kicks_of(recs, True).items() if k not in turns})

        mid, recs = play_script(d, keys, KICKS, 'kicks (seed 5)')
        covered.update({k: v for k, v in kicks_of(recs).items() if k not in covered})
        turns.update({k: v for k, v in kicks_of(recs, True).items() if k not in turns})
        for name in ('JLSTZ', 'I'):
            for n in (2, 3, 4, 5):
                got = covered.get((name, n))
                if got is None:
                    t.ok(False, '%s table, test %d: taken by some rotation right before a hard drop' % (name, n))
                    continue
                r, rot = got
                m = r['model']
                lock = sorted(m['cells'])
                t.ok(r['agree'] and kick_proven(r['well_before'], rot, m),
                     '%s table, test %d: turn %d, the %s turning %d->%d from x %d y %d takes it (%s '
                     'blocked) and locks on %s after falling %d, where no other test would put it; the '
                     'daemon\'s well agrees' % (name, n, r['turn'], rot[5][0], rot[1], rot[2], rot[5][1],
                                                 rot[5][2], 'test 1' if n == 2 else 'tests 1-%d' % (n - 1), lock,
                                                 m['fallen']))

        # One match a pair: every move agrees with the model, and the last
        # one's rotation right before its hard drop takes the named kick.
        agree, wrong, moves = True, [], 0
        for script in KICKS64:
            pair = (script['table'], script['from'], script['to'], script['test'])
            _, recs = play_script(d, keys, script, '%s %d->%d test %d (seed %d)' % (pair + (script['seed'],)),
                                  report=False)
            agree = agree and all(r['agree'] for r in recs)
            moves += len(recs)
            last = recs[-1]['model']
            if not (last['rotations'] and last['rotations'][-1][:4] == pair and
                    last['rotations'][-1][4] == last['nkeys'] - 2):
                wrong.append('%s %d->%d test %d' % pair)
            turns.update({k: v for k, v in kicks_of(recs, True).items() if k not in turns})
        t.ok(agree, 'the %d one-kick matches: each of seat 0\'s %d moves locked where the keys take it by '
             'the rules (cells, drop points, rows cleared)' % (len(KICKS64), moves))
        t.ok(not wrong, 'and each one\'s last move turns its piece by the kick the match is named for, '
             'right before the hard drop%s' % (': not so for ' + ', '.join(wrong) if wrong else ''))

        everything = [(name, frm, to, n) for name in ('JLSTZ', 'I') for frm, to in QUARTER_TURNS
                      for n in (2, 3, 4, 5)]
        proven = [k for k in everything if k in turns and turns[k][0]['agree'] and
                  kick_proven(turns[k][0]['well_before'], turns[k][1], turns[k][0]['model'])]
        missing = ['%s %d->%d test %d' % k for k in everything if k not in proven]
        t.ok(len(everything) == 64 and not missing,
             'each of the 64 pairs of a quarter turn and a kick test 2-5 (JLSTZ and I; 0->R R->0 R->2 2->R '
             '2->L L->2 L->0 0->L; tests 2-5) is taken right before a hard drop, and each lock tells its '
             'test apart: %d proven%s' % (len(proven), ', missing ' + ', '.join(missing) if missing else ''))

        overflow(d, keys)
    finally:
        d.stop()
        d.cleanup()
    t.done()


main()
