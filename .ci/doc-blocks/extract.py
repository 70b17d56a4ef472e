#!/usr/bin/env python3
"""Turns every ```swift block of the README and the DocC catalogs into a scratch package that
depends on this library, so that `swift build` proves the docs compile and `swift test` runs the
blocks that are tests.

    python3 .ci/doc-blocks/extract.py OUT [MARKDOWN...]

With no MARKDOWN, it reads README.md and every .md file under Sources/*/Documentation.docc. OUT
becomes a package with one test target per document (blocks of a document share it, as a reader
reads them in order), plus one per block marked `standalone`. A compiler error points at the
markdown line, through `#sourceLocation`.

A block is shown as written; an HTML comment on the line before its fence says how to compile it:

    <!-- doc: standalone -->   its own target: a "before" snippet, or one that redeclares a name
    <!-- doc: manifest -->     a Package.swift fragment: checked with `swift package dump-package`
    <!-- doc: darwin -->       Apple-only code (SwiftUI): compiled only where SwiftUI exists
    <!-- doc: compile -->      its tests are compiled, never run: they need what only the reader's
                               project has (a network tape recorded beside the test)
    <!-- doc: context NAME --> adds .ci/doc-blocks/context/NAME.swift to the block's target: the
                               declarations a partial block assumes and does not show

Words combine: `<!-- doc: standalone context search -->`. In a block, `…` stands for code left
out: `{ … }` compiles as `{ fatalError() }`, any other `…` as `placeholder()`, a value of any type.

Top-level declarations stay at file scope; top-level statements (`let x = …`, calls, `try …`) are
wrapped, in order, in a `@MainActor` async throwing function of their own, which nothing calls:
they are compiled, not run. `@Test` functions and `XCTestCase` classes are run by `swift test`.
"""

import json
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONTEXT = pathlib.Path(__file__).resolve().parent / "context"

ANNOTATION = re.compile(r"^\s*<!--\s*doc:\s*(.*?)\s*-->\s*$")
KNOWN_WORDS = {"standalone", "manifest", "darwin", "context", "compile"}
DECLARATION_KEYWORDS = {
    "import", "func", "struct", "class", "enum", "extension", "protocol", "actor", "typealias",
    "macro", "precedencegroup", "operator", "infix", "prefix", "postfix",
}
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "open", "final", "static",
    "nonisolated", "indirect", "mutating", "nonmutating", "override", "required", "convenience",
    "dynamic", "lazy", "weak", "unowned", "consuming", "borrowing", "distributed",
}


class DocError(Exception):
    pass


def without_test_attribute(line):
    """`line` without its `@Test` or `@Test(…)` attribute and the spaces after it: `@Test(.virtualTime(
    exploring: .pct()))` as well as `@Test(.tags(.slow))`."""
    start = line.find("@Test")
    if start < 0 or line[start + 5:start + 6].isalnum():
        return line
    end = start + 5
    if end < len(line) and line[end] == "(":
        depth = 0
        for index in range(end, len(line)):
            depth += {"(": 1, ")": -1}.get(line[index], 0)
            if depth == 0:
                end = index + 1
                break
        else:
            return line
    while end < len(line) and line[end] == " ":
        end += 1
    return line[:start] + line[end:]


def blocks_of(path):
    """Yields (first code line number, code lines, annotation words) for each ```swift block."""
    lines = path.read_text().splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if stripped.startswith("```"):
            language = stripped[3:].strip()
            indent = line[: len(line) - len(line.lstrip())]
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                raise DocError(f"{path}:{index + 1}: a code block that never closes")
            if language == "swift":
                words = []
                before = index - 1
                if before >= 0 and not lines[before].strip():
                    before -= 1
                if before >= 0:
                    match = ANNOTATION.match(lines[before])
                    if match:
                        words = match.group(1).split()
                body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[start:end]]
                yield start + 1, body, words
            index = end + 1
        else:
            index += 1


def parse_words(path, line, words):
    options = {"context": []}
    iterator = iter(words)
    for word in iterator:
        if word not in KNOWN_WORDS:
            raise DocError(
                f"{path}:{line}: unknown doc annotation word {word!r}; "
                f"use one of: {', '.join(sorted(KNOWN_WORDS))}"
            )
        if word == "context":
            name = next(iterator, None)
            if name is None or not (CONTEXT / f"{name}.swift").exists():
                raise DocError(
                    f"{path}:{line}: 'context' needs the name of a file in .ci/doc-blocks/context "
                    f"(found {name!r})"
                )
            options["context"].append(name)
        else:
            options[word] = True
    return options


def depth_changes(line, state):
    """Scans one line, updating state (bracket depth, open block comment, open multi-line string,
    #if depth), skipping strings and comments. Returns the code of the line with `…` replaced."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if state["block_comment"]:
            close = line.find("*/", i)
            opened = line.find("/*", i)
            if opened != -1 and (close == -1 or opened < close):
                state["block_comment"] += 1
                out.append(line[i:opened + 2])
                i = opened + 2
                continue
            if close == -1:
                out.append(line[i:])
                break
            state["block_comment"] -= 1
            out.append(line[i:close + 2])
            i = close + 2
            continue
        if state["string"]:
            close = line.find(state["string"], i)
            if close == -1:
                out.append(line[i:])
                break
            out.append(line[i:close + len(state["string"])])
            i = close + len(state["string"])
            state["string"] = None
            continue
        ch = line[i]
        if line.startswith("//", i):
            out.append(line[i:])
            break
        if line.startswith("/*", i):
            state["block_comment"] = 1
            out.append("/*")
            i += 2
            continue
        raw = re.match(r'(#+)"', line[i:])
        if raw:
            hashes = raw.group(1)
            multi = line.startswith('"""', i + len(hashes))
            opener = hashes + ('"""' if multi else '"')
            closer = ('"""' if multi else '"') + hashes
            close = line.find(closer, i + len(opener))
            if close == -1:
                state["string"] = closer
                out.append(line[i:])
                break
            out.append(line[i:close + len(closer)])
            i = close + len(closer)
            continue
        if line.startswith('"""', i):
            close = line.find('"""', i + 3)
            if close == -1:
                state["string"] = '"""'
                out.append(line[i:])
                break
            out.append(line[i:close + 3])
            i = close + 3
            continue
        if ch == '"':
            j = i + 1
            interpolation = 0
            while j < n:
                if line[j] == "\\" and j + 1 < n and line[j + 1] == "(":
                    interpolation += 1
                    j += 2
                    continue
                if interpolation and line[j] == "(":
                    interpolation += 1
                elif interpolation and line[j] == ")":
                    interpolation -= 1
                elif line[j] == "\\":
                    j += 2
                    continue
                elif line[j] == '"' and not interpolation:
                    break
                j += 1
            out.append(line[i:j + 1])
            i = j + 1
            continue
        if ch in "([{":
            state["depth"] += 1
        elif ch in ")]}":
            state["depth"] -= 1
        if ch == "…":
            before = "".join(out).rstrip()
            after = line[i + 1:].lstrip()
            out.append("fatalError()" if before.endswith("{") and after.startswith("}") else "placeholder()")
            i += 1
            continue
        out.append(ch)
        i += 1
    code = "".join(out)
    directive = code.strip()
    if directive.startswith("#if"):
        state["if_depth"] += 1
    elif directive.startswith("#endif"):
        state["if_depth"] -= 1
    return code


CONTINUATION = re.compile(r"^\s*(\.|\)|\]|\}|else\b|catch\b|where\b|&&|\|\||\?\?|[-+*/%<>=!?:]|as\b|is\b)")


def items_of(body):
    """Splits a block into top-level items: [(first line index, lines)]. Comments and attribute
    lines belong to the item after them."""
    state = {"depth": 0, "block_comment": 0, "string": None, "if_depth": 0}
    items = []
    current = []
    current_start = None
    pending = []  # comments and attributes waiting for their item
    for number, raw_line in enumerate(body):
        top_level = state["depth"] == 0 and not state["string"] and not state["block_comment"] and state["if_depth"] == 0
        code = depth_changes(raw_line, state)
        stripped = raw_line.strip()
        starts_new = top_level and stripped and not CONTINUATION.match(raw_line) and current and current_closed
        if starts_new:
            items.append((current_start, current))
            current, current_start = [], None
        if top_level and not current and (not stripped or stripped.startswith("//") or re.fullmatch(r"(@\w+(\(.*\))?\s*)+", stripped)):
            if stripped or pending:
                pending.append((number, code))
            current_closed = True
            continue
        if not current:
            current_start = pending[0][0] if pending else number
            current = [c for _, c in pending]
            pending = []
        current.append(code)
        current_closed = state["depth"] == 0 and not state["string"] and not state["block_comment"] and state["if_depth"] == 0
    if current:
        items.append((current_start, current))
    if pending:
        items.append((pending[0][0], [c for _, c in pending]))
    return items


def without_attributes(text):
    """`text` without the attributes it starts with (`@MainActor`, `@Test(.environment { … })`)."""
    while True:
        match = re.match(r"@\w+", text)
        if not match:
            return text
        rest = text[match.end():]
        if rest.startswith("("):
            depth = 0
            for index, ch in enumerate(rest):
                depth += ch == "("
                depth -= ch == ")"
                if depth == 0:
                    rest = rest[index + 1:]
                    break
        text = rest.lstrip()


def is_declaration(lines):
    for line in lines:
        text = line.strip()
        if not text or text.startswith("//"):
            continue
        text = without_attributes(text)
        if not text:
            continue
        if text.startswith("#if") or text.startswith("#sourceLocation"):
            return True
        words = re.findall(r"[A-Za-z_]+", text)
        while words and words[0] in MODIFIERS:
            words.pop(0)
        return bool(words) and words[0] in DECLARATION_KEYWORDS
    return True


def swift_for_block(markdown, first_line, body, number):
    """The Swift file of one block: declarations at file scope, statements in a function."""
    relative = os.path.relpath(markdown, ROOT)
    declarations, statements = [], []
    for start, lines in items_of(body):
        located = [f'#sourceLocation(file: "{relative}", line: {first_line + start})'] + lines
        (declarations if is_declaration(lines) else statements).append(located)
    out = []
    for item in declarations:
        out += item
    if statements:
        out.append(f"@MainActor func statementsOfBlock{number}() async throws {{")
        for item in statements:
            out += item
        out.append("}")
    return out


PRELUDE = """\
// Generated by .ci/doc-blocks/extract.py from {source}. Do not edit.
import Effects
import EffectsTestSupport
import Foundation
import Testing
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

"""

SUPPORT = """\
// Generated by .ci/doc-blocks/extract.py. What a `…` in a doc block stands for.
func placeholder<T>() -> T { fatalError("code left out of a doc block") }
"""


def target_name(markdown):
    stem = re.sub(r"[^A-Za-z0-9]", "", pathlib.Path(markdown).stem)
    module = ""
    parts = pathlib.Path(os.path.relpath(markdown, ROOT)).parts
    if parts[0] == "Sources":
        module = parts[1]
    return f"Doc{module}{stem}"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    out = pathlib.Path(sys.argv[1]).resolve()
    if len(sys.argv) > 2:
        documents = [pathlib.Path(p).resolve() for p in sys.argv[2:]]
    else:
        documents = [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/Documentation.docc/**/*.md"))

    targets = {}  # name -> list of (file name, lines)
    manifests = []
    count = 0
    for markdown in documents:
        document_target = target_name(markdown)
        for first_line, body, words in blocks_of(markdown):
            options = parse_words(markdown, first_line - 1, words)
            count += 1
            if options.get("manifest"):
                manifests.append({"source": f"{os.path.relpath(markdown, ROOT)}:{first_line}", "body": body})
                continue
            name = f"{document_target}Line{first_line}" if options.get("standalone") else document_target
            lines = swift_for_block(markdown, first_line, body, count)
            if options.get("compile"):
                # `@Test` or `@Test(…)` (its parentheses balanced, however deep) dropped: a
                # function, not a test.
                lines = [without_test_attribute(line) for line in lines]
            if options.get("darwin"):
                lines = ["#if canImport(SwiftUI)"] + lines + ["#endif"]
            files = targets.setdefault(name, [])
            files.append((f"Line{first_line}.swift", [PRELUDE.format(source=os.path.relpath(markdown, ROOT))] + lines))
            for context in options["context"]:
                file = f"Context{context}.swift"
                if file not in (f for f, _ in files):
                    files.append((file, [(CONTEXT / f"{context}.swift").read_text()]))

    if out.exists():
        for old in (out / "Tests").glob("*") if (out / "Tests").exists() else []:
            for f in old.glob("*.swift"):
                f.unlink()
    for name, files in targets.items():
        directory = out / "Tests" / name
        directory.mkdir(parents=True, exist_ok=True)
        for f in directory.glob("*.swift"):
            f.unlink()
        for file, parts in files:
            (directory / file).write_text("\n".join(parts) + "\n")
        (directory / "Placeholder.swift").write_text(SUPPORT)
    for stale in (out / "Tests").iterdir():
        if stale.name not in targets:
            for f in stale.glob("*"):
                f.unlink()
            stale.rmdir()

    identity = ROOT.name.lower()
    test_targets = ",\n".join(
        f'    .testTarget(name: "{name}", dependencies: [.product(name: "Effects", package: "{identity}"), '
        f'.product(name: "EffectsTestSupport", package: "{identity}")])'
        for name in sorted(targets)
    )
    (out / "Package.swift").write_text(
        f"""// swift-tools-version: 6.2
// Generated by .ci/doc-blocks/extract.py. Do not edit.
import PackageDescription

let package = Package(
  name: "DocBlocks",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  dependencies: [.package(path: {json.dumps(str(ROOT))})],
  targets: [
{test_targets}
  ],
  swiftLanguageModes: [.v6]
)
"""
    )
    (out / "manifests.json").write_text(json.dumps(manifests, indent=2))
    print(f"{count} swift blocks from {len(documents)} documents: {len(targets)} targets, {len(manifests)} manifest fragments")


if __name__ == "__main__":
    try:
        main()
    except DocError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
