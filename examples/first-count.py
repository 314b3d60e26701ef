# SPDX-License-Identifier: GPL-2.0
"""Your first count: how many instructions does a Python loop take?

    python3 first-count.py [N]

Run it as a member of the armpmu group (`id` lists your groups), on a
board where the armpmu module is loaded (`pmuctl load`, as root). On the
lab's emulated boards: tools/pmu-vm --python --icount --add
examples/first-count.py -- su lab -c 'python3 first-count.py'.
"""
import sys
from itertools import repeat

import pmudev


def loop(n):
    for _ in repeat(None, n):
        pass


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    print("This core:", pmudev.info()["core"])

    # 1. Count a block: user-mode instructions and cycles.
    with pmudev.count("instructions:u", "cycles:u") as c:
        loop(n)
    print("loop(%d): %d instructions, %d cycles%s" %
          (n, c["instructions:u"], c["cycles:u"], "" if c.complete else " (not exact!)"))

    # 2. Per iteration: the difference of two sizes takes out what is
    #    counted once (calling loop, the with statement's own work).
    with pmudev.count("instructions:u") as small:
        loop(n // 2)
    per = (c["instructions:u"] - small["instructions:u"]) / (n - n // 2)
    print("about %.1f instructions per iteration: each line of Python is many "
          "machine instructions of the interpreter" % per)

    # 3. A function counted at every call, the measurement's cost taken out.
    @pmudev.measure("instructions:u")
    def square_all(k):
        return [x * x for x in range(k)]
    square_all(1000)
    square_all(2000)
    print("square_all: %d calls, %s in all, the last %s" %
          (square_all.calls, square_all.counts, square_all.last))

    # 4. A misspelt event: the library says what you may have meant.
    try:
        pmudev.count("instructoins")
    except pmudev.EventError as e:
        print("as expected:", e.strerror)

    # 5. Events as pmuctl stat -e takes them: a list, and a group in
    #    braces counted together (:u after the brace for each member).
    with pmudev.count("cycles:u,{instructions,r08}:u") as g:
        loop(n)
    print("one string, three events (r08 is INST_RETIRED by number):", g.values())

    # 6. What an event means, and what trips students up, as data.
    e = pmudev.explain("INST_RETIRED")
    print("INST_RETIRED:", e["description"])
    print("its first pitfall:", e["pitfalls"][0])


if __name__ == "__main__":
    main()
