#!/usr/bin/env python3
"""The deepest stack a call to ROOT can use in an ARM Thumb ELF, read from its disassembly.

    stack-depth.py FILE.elf ROOT

Each function's frame is what its prologue reserves (push/stmdb of registers, vpush, sub sp);
the depth of a function is its frame plus the deepest of the functions it calls (bl, blx, and
b/b.w to the start of another function, a tail call counted as a call, which over-estimates).
Calls to functions outside FILE (the C library, the compiler's __aeabi_* helpers) count as 0.
Recursion would make the depth unbounded and is reported as an error. Prints the depth in bytes
and the deepest chain of calls with each frame.
"""
import re
import subprocess
import sys


def disassemble(path):
    text = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", path], check=True,
                          capture_output=True, text=True).stdout
    functions, current = {}, None
    for line in text.splitlines():
        start = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if start:
            current = start.group(1)
            functions[current] = {"frame": 0, "calls": set()}
            continue
        if current is None or ":" not in line:
            continue
        instruction = line.split(":", 1)[1].strip()
        function = functions[current]
        registers = re.match(r"^(?:push(?:\.w)?|stmdb(?:\.w)?\s+sp!,)\s*\{([^}]*)\}", instruction)
        if registers:
            function["frame"] += 4 * len([r for r in registers.group(1).split(",") if r.strip()])
        vector = re.match(r"^vpush\s*\{([^}]*)\}", instruction)
        if vector:
            function["frame"] += 8 * len([r for r in vector.group(1).split(",") if r.strip()])
        reserve = re.match(r"^sub(?:w|\.w|s)?\s+sp,\s*(?:sp,\s*)?#(0x[0-9a-f]+|\d+)", instruction)
        if reserve:
            function["frame"] += int(reserve.group(1), 0)
        call = re.match(r"^(?:bl|blx|b|b\.w)\s+0x[0-9a-f]+\s+<([^>+]+)>", instruction)
        if call and call.group(1) != current:
            function["calls"].add(call.group(1))
    return functions


def deepest(functions, root):
    memo, active = {}, set()

    def depth(name):
        if name not in functions:
            return 0, [name]
        if name in memo:
            return memo[name]
        if name in active:
            sys.exit(f"recursion through {name}: the stack depth is unbounded")
        active.add(name)
        below, chain = 0, []
        for callee in functions[name]["calls"]:
            callee_depth, callee_chain = depth(callee)
            if callee_depth > below:
                below, chain = callee_depth, callee_chain
        active.discard(name)
        memo[name] = (functions[name]["frame"] + below, [name] + chain)
        return memo[name]

    return depth(root)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    functions = disassemble(sys.argv[1])
    if sys.argv[2] not in functions:
        sys.exit(f"{sys.argv[2]} is not in {sys.argv[1]}")
    total, chain = deepest(functions, sys.argv[2])
    print(f"{sys.argv[2]}: at most {total} bytes of stack")
    for name in chain:
        frame = functions[name]["frame"] if name in functions else 0
        print(f"  {frame:5d}  {name}")


if __name__ == "__main__":
    main()
