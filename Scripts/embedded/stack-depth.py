#!/usr/bin/env python3
"""The deepest stack a call to ROOT can use in an ARM Thumb ELF, read from its disassembly.

    stack-depth.py FILE.elf ROOT

Each function's frame is what its prologue reserves (push/stmdb of registers, vpush, sub sp);
the depth of a function is its frame plus the deepest of the functions it calls (bl, blx, and
b/b.w to the start of another function, a tail call counted as a call, which over-estimates).
Calls to functions outside FILE (the C library, the compiler's __aeabi_* helpers), which the link
leaves as branches to the next instruction, count as 0: FILE must be linked with --emit-relocs,
so that such a branch is known by its relocation against an undefined symbol. Functions are named by their symbols
(llvm-nm), not by the ARM mapping symbols ($t, $d) objdump may show in their place.
Recursion would make the depth unbounded and is reported as an error. Prints the depth in bytes
and the deepest chain of calls with each frame.
"""
import re
import subprocess
import sys


MAPPING_SYMBOL = re.compile(r"^\$[adtx](\..*)?$")


def symbol_names(path):
    """The function symbols by address. ARM mapping symbols ($t, $a, $d: where Thumb code, ARM
    code or data begin) are left out: objdump may label a function by the mapping symbol at its
    address ("<$t>") instead of its own name, which would merge every such function into one."""
    text = subprocess.run(["llvm-nm", "-n", path], check=True, capture_output=True, text=True).stdout
    names = {}
    for line in text.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and not MAPPING_SYMBOL.match(parts[2]):
            names.setdefault(int(parts[0], 16) & ~1, parts[2])
    return names


def disassemble(path):
    text = subprocess.run(["llvm-objdump", "-d", "-r", "--no-show-raw-insn", path], check=True,
                          capture_output=True, text=True).stdout
    names = symbol_names(path)
    undefined = set(subprocess.run(["llvm-nm", "-u", "--format=just-symbols", path], check=True,
                                   capture_output=True, text=True).stdout.split())
    functions, current, last_call = {}, None, None
    for line in text.splitlines():
        # A relocation the link kept (--emit-relocs) names what a branch really calls: a call to a
        # symbol the firmware-like link leaves undefined (the C library, __aeabi_* helpers) is a
        # call outside FILE, though its branch, left unresolved, points at the next instruction.
        relocation = re.match(r"^\s+[0-9a-f]+:\s+R_ARM_\S+\s+(\S+)", line)
        if relocation:
            if last_call and relocation.group(1) in undefined:
                last_call[0]["calls"].discard(last_call[1])
            last_call = None
            continue
        last_call = None
        start = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if start:
            label = start.group(2)
            if MAPPING_SYMBOL.match(label):
                address = int(start.group(1), 16)
                if address in names:
                    label = names[address]
                elif label.startswith("$d"):
                    current = None  # data (a literal pool): not instructions of any function
                    continue
                elif current is None:
                    continue
                else:
                    continue  # code again after a literal pool, in the same function
            current = label
            functions.setdefault(current, {"frame": 0, "calls": set()})
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
        call = re.match(r"^(?:bl|blx|b|b\.w)\s+0x([0-9a-f]+)\s+<([^>+]+)>", instruction)
        if call:
            callee = names.get(int(call.group(1), 16), call.group(2))
            last_call = (function, callee)
            if callee != current and not MAPPING_SYMBOL.match(callee):
                function["calls"].add(callee)
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
