#!/usr/bin/env python3
"""Checks the examples of README.md and Docs/*.md against the binary; run by Scripts/check-docs.sh
(see its header).

The documents are README.md and then Docs/*.md in name order; every rule below applies to each of
them, and a message names the document and line ("Docs/CLI.md:120"). What is checked:

- Every line starting with "$ " in a fenced code block (not ```swift or ```c) is an example: the
  command is the rest of the line (and the next lines while a line ends with a backslash), up to a
  "#" comment outside quotes; its expected output is every following line of the block up to the
  next "$ " line or the end of the block. The command runs with `bash -c` in WORKDIR, stdout and
  stderr together, and its output must equal the expected lines, except that
    - "…" in an expected line matches any text within the line, and a line that is only "…"
      (indented or not) matches any number of whole lines: the README's "omitted here";
    - under `<!-- check: timings -->` on the line before the block, a number followed by a unit
      of time (s, ms, µs, ns) matches any number: build and export times;
    - under `<!-- check: shape -->` (benchmarks), what is measured matches any number: a number
      followed by a unit of time (s, ms, µs, ns, also ns/lookup), a rate (M lookups/s, M/s), a
      ratio (1.4×, "ratio 1.04") or memory in KiB, MiB or GiB (resident pages, RSS: the kernel
      decides). Every other number must be as shown: sizes in bytes, feature and point counts,
      runs, how many were found;
    - under `<!-- check: skip (REASON) -->`, the block's examples are not run and are counted as
      skipped for REASON;
    - under `<!-- check: needs-data (REASON) -->`, the block needs files that a clone does not hold
      (the datasets of ../shared/data): it runs as any other block, except with --fresh-clone,
      where its examples are skipped for "needs the datasets: REASON".
  A block may have several markers, one per line, directly above it (needs-data with timings
  or shape).
- Examples whose command is `gmap build … -o MAP` run first, in document order, so that examples
  anywhere can use its map; their output is compared where they stand.
- Examples that run `Examples/swift/.build/release/NAME` are skipped unless --examples gives the
  directory of the built Examples/swift executables (WORKDIR/Examples/swift/.build/release is then
  a link to it).
- Every ```swift block must be preceded by `<!-- check: file PATH -->` and equal the file PATH
  (relative to the repository), and every Examples/swift/Sources/*/main.swift must be shown in
  some document. --update-swift copies the files into their blocks instead of checking.
- With --fresh-clone (Scripts/check-docs.sh --fresh-clone), WORKDIR is the root of a copy of the
  repository as a clone has it, with nothing beside it (no ../shared), and --documents names
  README.md alone: its examples run there, as a reader of the README runs them.
- Every link to a heading, `[text](#anchor)` or `[text](Other.md#anchor)` between the documents,
  must name a heading that exists (GitHub's anchors: lower case, punctuation dropped, spaces as
  hyphens), and every relative link to a file must name a file of the repository.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import time

EXAMPLES_PREFIX = "Examples/swift/.build/release/"
MARKER = re.compile(r"^<!--\s*check:\s*(?P<kind>[a-z-]+)\s*(?P<rest>.*?)\s*-->\s*$")
NUMBER = r"\d+(?:\.\d+)?"
TIMED_NUMBER = re.compile(r"(\d+(?:\.\d+)?)(\s?(?:s|ms|µs|ns))(?![A-Za-z])")
# What a benchmark measures (the number alone is matched; the unit around it must be as shown):
# a time, a rate, a ratio, or memory as the kernel gives it. Any other number is compared exactly.
_WHOLE = r"(?<![\d.])\d+(?:\.\d+)?(?!\.?\d)"
MEASURED_NUMBER = re.compile(
    _WHOLE + r"(?=\s?(?:s|ms|µs|ns)(?![A-Za-z]))"                        # 0.55 s, 16.2 µs, 19.0 ns/lookup
    + r"|" + _WHOLE + r"(?=\s?(?:[kKMG]\s?)?(?:[A-Za-z]+)?/s(?![A-Za-z]))"  # 52.5 M lookups/s, 51.7 M/s
    + r"|" + _WHOLE + r"(?=×)"                                           # 1.4×
    + r"|(?<=ratio )" + _WHOLE                                           # ratio 1.04
    + r"|" + _WHOLE + r"(?=\s?(?:KiB|MiB|GiB)(?![A-Za-z]))")              # 388 KiB resident, RSS


class Example:
    def __init__(self, line, command, expected, mode, skip, needs_data=None):
        self.document = ""          # the document, relative to the repository
        self.line = line            # the "$ " line's number in the document
        self.command = command      # the command as bash runs it
        self.expected = expected    # list of expected lines
        self.mode = mode            # "exact", "timings" or "shape"
        self.skip = skip            # None, or the reason the block is not run
        self.needs_data = needs_data  # None, or what the block needs that a clone does not hold
        self.output = None          # the output, once run
        self.status = None          # the exit status, once run
        self.seconds = 0.0


def strip_comment(command):
    """The command without a trailing `# comment` (a # outside quotes, after whitespace)."""
    quote = None
    escaped = False
    for index, char in enumerate(command):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or command[index - 1] in " \t"):
            return command[:index].rstrip()
    return command.rstrip()


def parse(readme_lines):
    """The examples and the Swift blocks (line, path or None, content lines) of a document, plus problems."""
    examples, swift_blocks, problems = [], [], []
    index = 0
    while index < len(readme_lines):
        line = readme_lines[index]
        fence = re.match(r"^```(\S*)\s*$", line)
        if not fence:
            index += 1
            continue
        language = fence.group(1)
        # The markers: the marker lines right above the fence (after any blank lines).
        markers = []
        previous = index - 1
        while previous >= 0 and readme_lines[previous].strip() == "":
            previous -= 1
        while previous >= 0 and readme_lines[previous].lstrip().startswith("<!-- check"):
            found = MARKER.match(readme_lines[previous].strip())
            if found:
                markers.insert(0, (found.group("kind"), found.group("rest"), previous + 1))
            else:
                problems.append((previous + 1, f"cannot read the marker {readme_lines[previous].strip()!r}"))
            previous -= 1
        marker = markers[-1] if markers else None
        end = index + 1
        while end < len(readme_lines) and not readme_lines[end].startswith("```"):
            end += 1
        body = readme_lines[index + 1:end]
        start_line = index + 2  # the document's line number of body[0]
        if language == "swift":
            path = marker[1] if marker and marker[0] == "file" else None
            swift_blocks.append((index + 1, path, body))
        elif language != "c":
            mode, skip, needs_data = "exact", None, None
            for kind, rest, marker_line in markers:
                if kind in ("timings", "shape"):
                    if mode != "exact":
                        problems.append((marker_line, f"a block is compared one way: {mode} or {kind}, not both"))
                    mode = kind
                elif kind in ("skip", "needs-data"):
                    reason = re.match(r"^\((.+)\)$", rest)
                    if not reason:
                        problems.append((marker_line, f"a {kind} marker needs a reason: <!-- check: {kind} (why) -->"))
                    text = reason.group(1) if reason else "no reason given"
                    if kind == "skip":
                        skip = text
                    else:
                        needs_data = text
                else:
                    problems.append((marker_line, f"unknown marker kind {kind!r} (timings, shape, skip, needs-data, file)"))
            position = 0
            current = None
            while position < len(body):
                text = body[position]
                if text.startswith("$ "):
                    number = start_line + position
                    command = text[2:]
                    while command.rstrip().endswith("\\") and position + 1 < len(body):
                        position += 1
                        command = command.rstrip()[:-1].rstrip() + " " + body[position].strip()
                    current = Example(number, strip_comment(command), [], mode, skip, needs_data)
                    examples.append(current)
                elif current is not None:
                    current.expected.append(text)
                elif any(l.startswith("$ ") for l in body):
                    problems.append((start_line + position, "text before the first \"$ \" line of a block with examples"))
                position += 1
        index = end + 1
    return examples, swift_blocks, problems


def pattern_for(expected, mode):
    """A regular expression matching the output that `expected` stands for (lines joined with \\n, each ended by \\n)."""
    parts = []
    for line in expected:
        if line.strip() == "…":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = []
        for chunk_index, chunk in enumerate(line.split("…")):
            if chunk_index:
                pieces.append(r"[^\n]*?")
            if mode == "shape":
                last = 0
                for found in MEASURED_NUMBER.finditer(chunk):
                    pieces.append(re.escape(chunk[last:found.start()]) + NUMBER)
                    last = found.end()
                pieces.append(re.escape(chunk[last:]))
            elif mode == "timings":
                last = 0
                for found in TIMED_NUMBER.finditer(chunk):
                    pieces.append(re.escape(chunk[last:found.start()]) + NUMBER + re.escape(found.group(2)))
                    last = found.end()
                pieces.append(re.escape(chunk[last:]))
            else:
                pieces.append(re.escape(chunk))
        parts.append("".join(pieces) + r"\n")
    return re.compile("".join(parts))


def output_lines(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def matches(example):
    actual = output_lines(example.output)
    return pattern_for(example.expected, example.mode).fullmatch("".join(l + "\n" for l in actual)) is not None


def run(example, workdir, environment):
    started = time.monotonic()
    completed = subprocess.run(["bash", "-c", example.command], cwd=workdir, env=environment,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1200)
    example.seconds = time.monotonic() - started
    example.output = completed.stdout.decode("utf-8", errors="replace")
    example.status = completed.returncode


def is_build(example):
    return re.match(r"^gmap build\b.*\s-o\s+\S+\.gmap\b", example.command) is not None


def documents(repo, only=None):
    """README.md, then Docs/*.md in name order, as paths relative to the repository (or those of only)."""
    if only:
        return list(only)
    names = ["README.md"]
    docs = os.path.join(repo, "Docs")
    if os.path.isdir(docs):
        names += [os.path.join("Docs", name) for name in sorted(os.listdir(docs)) if name.endswith(".md")]
    return names


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation other than - and _ dropped, spaces as -."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(lines):
    """The anchors of a document's headings (outside code blocks), with GitHub's -1, -2 for repeats."""
    found, seen, fence = set(), {}, False
    for line in lines:
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"^#{1,6} ", line):
            base = anchor(line.split(" ", 1)[1])
            count = seen.get(base, 0)
            found.add(base if count == 0 else f"{base}-{count}")
            seen[base] = count + 1
    return found


CONTENTS_START, CONTENTS_END = "<!-- contents -->", "<!-- /contents -->"


def contents(lines):
    """The contents list of a document: one line per "## " heading (outside code blocks), linked."""
    result, fence = [], False
    for line in lines:
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("## "):
            title = line[3:].strip()
            result.append(f"- [{title.replace('[', '').replace(']', '')}](#{anchor(title)})")
    return result


def contents_problems(texts, update):
    """(document, line, message) for each document under Docs/ whose contents list is missing or stale;
    with update, the lists are rewritten instead."""
    problems = []
    for name, lines in texts.items():
        if not name.startswith("Docs" + os.sep):
            continue
        if CONTENTS_START not in lines or CONTENTS_END not in lines:
            problems.append((name, 1, f"no contents list ({CONTENTS_START} … {CONTENTS_END} after the title)"))
            continue
        start, end = lines.index(CONTENTS_START), lines.index(CONTENTS_END)
        wanted = contents(lines)
        if lines[start + 1:end] != wanted:
            if update:
                lines[start + 1:end] = wanted
            else:
                problems.append((name, start + 1, "the contents list differs from the headings (Scripts/check-docs.sh --update-swift rewrites it)"))
    return problems


LINK = re.compile(r"\]\(([^)\s]+)\)")


def link_problems(repo, texts):
    """(document, line, message) for each link to a missing heading or file."""
    problems = []
    heading_anchors = {name: anchors(lines) for name, lines in texts.items()}
    for name, lines in texts.items():
        fence = False
        for number, line in enumerate(lines, 1):
            if line.startswith("```"):
                fence = not fence
                continue
            if fence:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue  # https:, mailto:
                path, _, fragment = target.partition("#")
                document = os.path.normpath(os.path.join(os.path.dirname(name), path)) if path else name
                if path and not os.path.exists(os.path.join(repo, document)):
                    problems.append((name, number, f"the link {target!r} names a file that does not exist"))
                elif fragment and document in heading_anchors and fragment not in heading_anchors[document]:
                    problems.append((name, number, f"the link {target!r} names no heading of {document}"))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--workdir", help="where the examples run; without it only the Swift blocks and links are checked")
    parser.add_argument("--bin", help="the directory of the gmap binary, put first on PATH")
    parser.add_argument("--examples", help="the directory of the built Examples/swift executables")
    parser.add_argument("--skip-all", help="skip every example for this reason (the Swift blocks are still compared)")
    parser.add_argument("--update-swift", action="store_true", help="copy the Examples/swift files into their blocks")
    parser.add_argument("--documents", nargs="+", help="only these documents (relative to the repository)")
    parser.add_argument("--fresh-clone", action="store_true",
                        help="WORKDIR is a clone's root with no ../shared: skip the blocks marked needs-data, saying why")
    arguments = parser.parse_args()

    texts, examples, swift_blocks, problems = {}, [], [], []
    for name in documents(arguments.repo, arguments.documents):
        with open(os.path.join(arguments.repo, name), encoding="utf-8") as file:
            texts[name] = file.read().split("\n")
        found, blocks, troubles = parse(texts[name])
        for example in found:
            example.document = name
        examples += found
        swift_blocks += [(name, line, path, body) for line, path, body in blocks]
        problems += [(name, line, message) for line, message in troubles]

    if arguments.update_swift:
        # Copies each Examples/swift file into its ```swift block (the block after its marker),
        # then rewrites the contents lists (which moves the lines below them).
        copied = 0
        for name in texts:
            lines = texts[name]
            for document, line, path, body in reversed([b for b in swift_blocks if b[0] == name]):
                if path is None:
                    print(f"{name}:{line}: a ```swift block without <!-- check: file … -->, left as it is")
                    continue
                with open(os.path.join(arguments.repo, path), encoding="utf-8") as file:
                    content = output_lines(file.read())
                lines[line:line + len(body)] = content
                copied += 1
        contents_problems(texts, update=True)
        for name, lines in texts.items():
            with open(os.path.join(arguments.repo, name), "w", encoding="utf-8") as file:
                file.write("\n".join(lines))
        print(f"{copied} Swift blocks copied from their files")
        return 0

    problems += link_problems(arguments.repo, texts) + contents_problems(texts, update=False)
    failed = 0
    extra_failures = len(problems)
    for name, line, message in problems:
        print(f"FAIL {name}:{line}: {message}")
        failed += 1

    # The Swift blocks against Examples/swift.
    swift_passed = 0
    shown = set()
    for name, line, path, body in swift_blocks:
        where = f"{name}:{line}"
        if path is None:
            print(f"FAIL {where}: a ```swift block without <!-- check: file Examples/swift/… --> before it "
                  "(every Swift snippet must be a file of Examples/swift, which CI compiles)")
            failed += 1
            continue
        shown.add(os.path.normpath(path))
        try:
            with open(os.path.join(arguments.repo, path), encoding="utf-8") as file:
                content = file.read()
        except OSError as error:
            print(f"FAIL {where}: {path}: {error.strerror}")
            failed += 1
            continue
        expected = output_lines(content)
        if body == expected:
            print(f"ok   {where} ```swift block = {path}")
            swift_passed += 1
        else:
            print(f"FAIL {where}: the ```swift block differs from {path}:")
            for diff_line in difflib.unified_diff(expected, body, path, where, lineterm=""):
                print("     " + diff_line)
            failed += 1
    sources = os.path.join(arguments.repo, "Examples", "swift", "Sources")
    if os.path.isdir(sources) and not arguments.documents:
        for target in sorted(os.listdir(sources)):
            path = os.path.normpath(os.path.join("Examples", "swift", "Sources", target, "main.swift"))
            if os.path.exists(os.path.join(arguments.repo, path)) and path not in shown:
                print(f"FAIL {path} is not shown in any document (add it as a ```swift block with <!-- check: file {path} -->)")
                failed += 1
                extra_failures += 1

    skipped = {}
    def skip(example, reason):
        skipped[reason] = skipped.get(reason, 0) + 1
        print(f"skip {example.document}:{example.line} {example.command}  ({reason})")

    passed = 0
    if arguments.skip_all or not arguments.workdir:
        reason = arguments.skip_all or "no working folder given"
        for example in examples:
            skipped[reason] = skipped.get(reason, 0) + 1
    else:
        environment = dict(os.environ)
        environment.pop("GMAP_MAP", None)
        if arguments.fresh_clone:
            environment.pop("GMAP_SHARED_DATA", None)
            for example in examples:
                if example.skip is None and example.needs_data is not None:
                    example.skip = f"needs the datasets: {example.needs_data}"
        environment["PATH"] = arguments.bin + os.pathsep + environment.get("PATH", "")
        def runnable(example):
            return example.skip is None and (arguments.examples or not example.command.startswith(EXAMPLES_PREFIX))
        # Builds first, in document order: examples anywhere may use their maps.
        for example in examples:
            if runnable(example) and is_build(example):
                run(example, arguments.workdir, environment)
        for example in examples:
            where = f"{example.document}:{example.line}"
            if example.skip is not None:
                skip(example, example.skip)
                continue
            if not runnable(example):
                skip(example, "Examples/swift is not built (pass --examples DIR)")
                continue
            if example.output is None:
                run(example, arguments.workdir, environment)
            if matches(example):
                passed += 1
                timing = f" ({example.seconds:.1f} s)" if example.seconds >= 1 else ""
                print(f"ok   {where} {example.command}{timing}")
            else:
                failed += 1
                note = {"exact": "", "timings": " (times compared by shape)", "shape": " (measured numbers compared by shape; sizes and counts exactly)"}[example.mode]
                print(f"FAIL {where} {example.command}  (exit status {example.status}){note}")
                for diff_line in difflib.unified_diff(example.expected, output_lines(example.output),
                                                      f"{where} (shown)", "actual output", lineterm=""):
                    print("     " + diff_line)

    # Problems of the documents themselves (a bad marker, a broken link, a file not shown) count as failed examples too.
    total = len(examples) + len(swift_blocks) + extra_failures
    skipped_count = sum(skipped.values())
    reasons = "; ".join(f"{count}: {reason}" for reason, count in skipped.items())
    print(f"{total} examples in {len(texts)} documents: {passed + swift_passed} passed, {skipped_count} skipped"
          + (f" ({reasons})" if reasons else "") + f", {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
