"""Independent reader for arcaded's agent-check puzzles.

A puzzle is a short arithmetic word problem (add, subtract, multiply, exact
divide) whose numbers are English words and whose letters are scrambled:
random case, doubled letters, stray symbols inside and between words.

The reader works from the language only:

1. Normalise: keep letters, digits, spaces and sentence punctuation; drop
   every other symbol; lowercase; "squeeze" each word (collapse runs of the
   same letter), which undoes the doubling. Reference words are squeezed the
   same way, so "three" and "thhreee" both read as "thre".
2. Read the numbers: runs of number words ("one hundred and forty seven"),
   digits, or a few multiplier words ("twice", "dozen").
3. Split the statement from the question ("how many ..."), and decide the
   operation from the wording:
   - division: sharing/equal-groups words ("equally", "among", "split",
     "divided", "equal rows"), a rate asked for ("... in each row?", "...
     each minute?", "per"), or a question counting groups that the statement
     only names as containers ("packs N bolts into boxes that hold M bolts
     each, how many boxes");
   - multiplication: a rate or group size given in the statement ("each",
     "every", "per", "times", "in each row") and a total asked;
   - subtraction: taking-away words ("away", "drops", "loses", "left",
     "still", "fewer", "than" ...);
   - addition otherwise ("more", "finds", "and then", "in total", "now").

solve(text) returns the whole-number answer or raises ValueError.
"""

import re

__all__ = ["solve", "normalise", "squeeze"]


def squeeze(word):
    """Collapse runs of one letter: 'thhreeee' -> 'thre'."""
    return re.sub(r"([a-z])\1+", r"\1", word)


_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
    "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000}

# Squeezed spellings -> (kind, value).
_NUMWORDS = {}
for _w, _v in _UNITS.items():
    _NUMWORDS[squeeze(_w)] = ("unit", _v)
for _w, _v in _TENS.items():
    _NUMWORDS[squeeze(_w)] = ("tens", _v)
for _w, _v in _SCALES.items():
    _NUMWORDS[squeeze(_w)] = ("scale", _v)
_NUMWORDS[squeeze("dozen")] = ("unit", 12)

# Multiplier words that stand for a number on their own.
_MULTIPLIERS = {squeeze("twice"): 2, squeeze("double"): 2,
                squeeze("triple"): 3, squeeze("thrice"): 3}


def _sq_set(words):
    return {squeeze(w) for w in words.split()}


# Operation cue words (squeezed forms are compared).
_DIV_ANY = _sq_set(
    "equal equally evenly among amongst share shares shared sharing split "
    "splits divide divides divided")
_RATE_ASKED = _sq_set("each per every")
_RATE_GIVEN = _sq_set("each every per times twice double triple thrice")
_CONTAINER_VERBS = _sq_set("hold holds fit fits into")
_SUB = _sq_set(
    "away drop drops dropped lose loses lost left leave leaves remain remains "
    "remaining still eat eats ate sell sells sold spend spends spent fewer "
    "less minus take takes took break breaks broke gives give gave pop pops "
    "popped escape escapes escaped fly flies flew melt melts than")
_ADD = _sq_set(
    "more finds find found total all altogether then now join joins joined "
    "gets get got plus add adds added collects collected buys bought in")

_AND = squeeze("and")
_A = {"a", "an"}


def normalise(text):
    """Lowercase, keep letters/digits/punctuation, squeeze letter runs.

    Returns a list of tokens; punctuation marks ',', '.', '?', '!', ';', ':'
    are their own tokens.
    """
    if not isinstance(text, str):
        raise ValueError("puzzle text must be a string")
    t = text.lower().replace("-", " ")
    # Any character that is neither a letter, a digit, whitespace nor
    # sentence punctuation is noise: drop it (it sits inside or between
    # words, never in place of a space).
    t = re.sub(r"[^a-z0-9\s,.?!;:]", "", t)
    t = re.sub(r"([,.?!;:])", r" \1 ", t)
    tokens = []
    for tok in t.split():
        if tok.isalpha():
            tokens.append(squeeze(tok))
        else:
            tokens.append(tok)
    return tokens


def _segment_number(tok):
    """Split a glued token like 'thirtyfive' into number words, or None."""
    best = None

    def rec(rest, acc):
        nonlocal best
        if best is not None:
            return
        if not rest:
            best = list(acc)
            return
        for n in range(len(rest), 1, -1):
            head = rest[:n]
            if head in _NUMWORDS or head == _AND:
                acc.append(head)
                rec(rest[n:], acc)
                acc.pop()
                if best is not None:
                    return

    rec(tok, [])
    return best


def _expand(tokens):
    out = []
    for tok in tokens:
        if tok.isalpha() and tok not in _NUMWORDS and len(tok) > 5:
            seg = _segment_number(tok)
            if seg and any(s in _NUMWORDS for s in seg):
                out.extend(seg)
                continue
        out.append(tok)
    return out


def _read_numbers(tokens):
    """Find numbers. Returns a list of (value, start, end) token spans."""
    found = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.isdigit():
            found.append((int(tok), i, i + 1))
            i += 1
            continue
        if tok in _MULTIPLIERS:
            found.append((_MULTIPLIERS[tok], i, i + 1))
            i += 1
            continue
        # "a hundred", "a dozen"
        starts_with_a = (tok in _A and i + 1 < n
                         and tokens[i + 1] in _NUMWORDS
                         and _NUMWORDS[tokens[i + 1]][0] == "scale")
        if tok not in _NUMWORDS and not starts_with_a:
            i += 1
            continue
        start = i
        total = 0
        current = 0
        last = None  # kind of the last number word consumed
        if starts_with_a:
            current = 1
            last = "unit"
            i += 1
        while i < n:
            w = tokens[i]
            if w == _AND and last == "scale" and i + 1 < n \
                    and tokens[i + 1] in _NUMWORDS \
                    and _NUMWORDS[tokens[i + 1]][0] != "scale":
                i += 1
                continue
            if w not in _NUMWORDS:
                break
            kind, val = _NUMWORDS[w]
            if kind == "scale":
                if last is None:
                    current = 1
                if current == 0:
                    break
                if val == 100:
                    current *= 100
                else:
                    total += current * val
                    current = 0
            elif kind == "tens":
                if last in ("unit", "tens") or current % 100 != 0:
                    break  # "twenty thirty": a new number starts
                current += val
            else:  # unit
                if last == "unit" or (last == "tens" and val >= 10):
                    break
                if current % 10 != 0 and last is not None:
                    break
                current += val
            last = kind
            i += 1
        found.append((total + current, start, i))
    return found


def _stem(word):
    if word.endswith("es") and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and len(word) > 3:
        return word[:-1]
    return word


_SKIP_ADJ = _sq_set("more of the shiny big small little red blue green "
                    "old new whole")


def _noun_after(tokens, end, limit=3):
    """The first content word after a number (skipping a few fillers)."""
    for j in range(end, min(len(tokens), end + limit)):
        w = tokens[j]
        if not w.isalpha():
            return None
        if w in _SKIP_ADJ:
            continue
        return _stem(w)
    return None


def solve(text):
    tokens = _expand(normalise(text))
    if not tokens:
        raise ValueError("empty puzzle")

    # Question: from the last "how" ("how many", "how much") to the end.
    sq_how = squeeze("how")
    q_start = None
    for idx in range(len(tokens) - 1, -1, -1):
        if tokens[idx] == sq_how:
            q_start = idx
            break
    if q_start is None:
        # Fall back to the last clause.
        commas = [k for k, t in enumerate(tokens) if t in (",", ".", ";")]
        q_start = commas[-1] + 1 if commas else 0
    statement = tokens[:q_start]
    question = tokens[q_start:]

    numbers = _read_numbers(tokens)
    if len(numbers) < 2:
        raise ValueError("found %d numbers, need 2" % len(numbers))
    if len(numbers) > 2:
        # Prefer real number words over a stray pronoun "one".
        real = [x for x in numbers
                if not (x[0] == 1 and x[2] - x[1] == 1)]
        if len(real) == 2:
            numbers = real
        else:
            raise ValueError("found %d numbers, expected 2" % len(numbers))
    (a, a_s, a_e), (b, b_s, b_e) = numbers

    st_words = set(w for w in statement if w.isalpha())
    q_words = [w for w in question if w.isalpha()]
    q_set = set(q_words)
    all_words = st_words | q_set

    # The thing the question counts: the word after "many"/"much".
    asked = None
    for k, w in enumerate(q_words):
        if w in (squeeze("many"), squeeze("much")) and k + 1 < len(q_words):
            asked = _stem(q_words[k + 1])
            break
    counted = {_noun_after(tokens, a_e), _noun_after(tokens, b_e)}
    counted.discard(None)

    number_in_question = a_s >= q_start or b_s >= q_start

    def divide():
        big, small = (a, b) if a >= b else (b, a)
        if small == 0 or big % small:
            raise ValueError("division %d / %d is not exact" % (a, b))
        return big // small

    # --- Division -----------------------------------------------------
    # Sharing or equal groups, or a rate asked for ("each minute?").
    is_div = False
    if all_words & _DIV_ANY:
        is_div = True
    elif q_set & _RATE_ASKED and not number_in_question:
        is_div = True
    elif (asked and asked not in counted
          and st_words & _CONTAINER_VERBS and st_words & _RATE_GIVEN):
        # "packs N bolts into boxes that hold M bolts each, how many boxes"
        is_div = True
    if is_div:
        return divide()

    # --- Multiplication ------------------------------------------------
    if st_words & _RATE_GIVEN or (number_in_question and
                                  all_words & _RATE_GIVEN):
        return a * b

    # --- Subtraction -----------------------------------------------------
    if all_words & _SUB:
        if squeeze("than") in q_set:
            return abs(a - b)
        if a < b:
            raise ValueError("subtraction would go negative: %d - %d"
                             % (a, b))
        return a - b

    # --- Addition ----------------------------------------------------------
    if all_words & _ADD:
        return a + b

    raise ValueError("cannot tell the operation")


if __name__ == "__main__":
    # python3 tests/e2e/puzzle_solver.py "<puzzle text>"  prints the answer.
    import sys
    print(solve(" ".join(sys.argv[1:])))
