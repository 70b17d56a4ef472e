#!/usr/bin/env python3
"""`Effects` ships inside users' apps: it may use only public, documented toolchain API.

Fails when a Swift file of `Sources/Effects` declares or reaches into the runtime's private side:
  - a symbol bound by name (`@_silgen_name`, `@_extern`, `dlsym`, `dlopen`);
  - a read of memory by its layout (`load(fromByteOffset:)`, `storeBytes(…toByteOffset:)`,
    `unsafeBitCast`, `MemoryLayout…offset(of:)`);
  - any underscored attribute (`@_…`), underscored module (`import _…`), or underscored call
    (`_typeByName(…)`, `x._withUnsafeGuaranteedRef(…)`): not documented, so not promised.
Comments are not code and are skipped; so are string literals.
Test support may use what it must, behind its one door to the runtime (`RuntimeDoor`, in
`Sources/EffectsTestSupport/Runtime/`): `--door` fails when a file of test support outside that
folder (and `Platform/`, which binds the C library's functions) binds a symbol, reads memory by
layout, bitcasts, or imports an SPI (`RealSleeps.swift` alone imports `_Concurrency`'s, since an
import is per file; the door's table lists it).

  python3 .ci/public-api/check.py               # checks Sources/Effects
  python3 .ci/public-api/check.py --door        # checks Sources/EffectsTestSupport
  python3 .ci/public-api/check.py --self-test   # proves each rule fails on a probe file
"""
import pathlib
import re
import shutil
import sys
import tempfile

RULES = [
    (re.compile(r"@_silgen_name|@_extern|@_cdecl"), "declares a runtime symbol by name"),
    (re.compile(r"\bdl(sym|open|vsym)\b"), "looks a symbol up at run time"),
    (
        re.compile(
            r"\b(load|loadUnaligned)\s*\(\s*(fromByteOffset|as)\b|toByteOffset\s*:"
            r"|\b(assumingMemoryBound|withMemoryRebound|bindMemory)\b|\.offset\s*\(\s*of\s*:"
        ),
        "reads or writes memory by its layout",
    ),
    (re.compile(r"\bunsafeBitCast\b"), "reinterprets a value's bits (unsafeBitCast)"),
    (re.compile(r"\bMemoryLayout\b[^\n]*\.offset\s*\(\s*of"), "reads a stored property's offset"),
    (re.compile(r"@_[A-Za-z]"), "uses an underscored attribute (undocumented, unpromised)"),
    (re.compile(r"\bimport\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?_[A-Za-z]|@_spi\s*\("), "imports an underscored module or SPI"),
    (re.compile(r"(?<![A-Za-z0-9_@$])_[A-Za-z][A-Za-z0-9_]*"), "uses an underscored function, member or type"),
]

DOOR_RULES = RULES[:5] + [
    (re.compile(r"(?<![A-Za-z0-9_@$])_[A-Za-z][A-Za-z0-9_]*\s*[({]|\._[A-Za-z]|=\s*_[A-Za-z]"), "uses an underscored function or member"),
    (re.compile(r"\._withUnsafeGuaranteedRef|\bsymbol\s*\(\s*named"), "reaches into memory or the runtime"),
    (re.compile(r"@_spi\s*\("), "imports an SPI"),
]
DOOR_FOLDERS = ("Runtime", "Platform")
DOOR_SPI_FILES = ("VirtualTime/Engine/RealSleeps.swift",)

PROBES = {
    "@_silgen_name": '@_silgen_name("swift_task_localValueGet") func probe(_ key: UnsafeRawPointer) -> UnsafeRawPointer?\n',
    "dlsym": 'let probe = dlsym(nil, "swift_task_getCurrent")\n',
    "load(fromByteOffset:)": "func probe(_ p: UnsafeRawPointer) -> UInt32 { p.load(fromByteOffset: 32, as: UInt32.self) }\n",
    "unsafeBitCast": "let probe = unsafeBitCast(Duration.zero, to: (UInt64, Int64).self)\n",
    "MemoryLayout offset": "let probe = MemoryLayout<Probe>.offset(of: \\.x)\n",
    "underscored attribute": "@_spi(Experimental) public func probe() {}\n",
    "underscored call": 'let probe = _typeByName("EffectsTestSupport.TestIssueReporter")\n',
    "underscored member": "func probe(_ o: Unmanaged<AnyObject>) { o._withUnsafeGuaranteedRef { _ in } }\n",
    "load(as:)": "func probe(_ p: UnsafeRawPointer) -> UInt { p.load(as: UInt.self) }\n",
    "loadUnaligned": "func probe(_ p: UnsafeRawPointer) -> UInt { p.loadUnaligned(fromByteOffset: 3, as: UInt.self) }\n",
    "load over two lines": "func probe(_ p: UnsafeRawPointer) -> UInt { p.load(\n  fromByteOffset: 3, as: UInt.self) }\n",
    "assumingMemoryBound": "func probe(_ p: UnsafeRawPointer) -> UInt { p.assumingMemoryBound(to: UInt.self).pointee }\n",
    "withMemoryRebound": "func probe(_ p: UnsafePointer<UInt8>) { p.withMemoryRebound(to: UInt.self, capacity: 1) { _ in } }\n",
    "in an interpolation": 'let probe = "\\(unsafeBitCast(1, to: UInt.self))"\n',
    "after a raw string": 'let probe = #"a"b"#; let p2 = unsafeBitCast(1, to: UInt.self)\n',
    "after a nested comment": "/* a /* b */ c */ let probe = unsafeBitCast(1, to: UInt.self)\n",
    "backticked": "let probe = `unsafeBitCast`(1, to: UInt.self)\n",
    "a reference, not a call": "let probe: (String) -> Any.Type? = _typeByName\n",
    "dlsym by reference": "import func Glibc.dlsym\n",
    "an underscored module's type": "import struct _Concurrency.UnownedJob\n",
    "an underscored type": "let probe: _OptionalNilComparisonType = nil\n",
    "an offset through a typealias": "let probe = ProbeLayout.offset(of: \\.x)\n",
    "after a raw triple string": 'let probe = #"""\n  """\n  """#; @_silgen_name("getpid") func pid() -> Int32\n',
    "after a regex literal": "let probe = #/a/*b/#; let p2 = unsafeBitCast(1, to: UInt.self)\n",
    "@_cdecl": '@_cdecl("probe") public func probe() {}\n',
}


def strip(source: str) -> str:
    """The text the rules read: `source` without its `//` comment lines (doc comments included) and
    without backticks. Everything else is read — string literals, block comments, the rest of a
    line after code — so that no literal or comment, however written, can hide code from the rules:
    a forbidden name in a string is reported too (say it another way)."""
    lines = []
    for line in source.split("\n"):
        lines.append("" if line.lstrip().startswith("//") else line.replace("`", ""))
    return "\n".join(lines)


def findings(root: pathlib.Path, rules=RULES, allowed=lambda path, why: False) -> list[str]:
    """Each line of a Swift file under `root` where a rule matches (a match may span lines: the
    line is where it starts), once per line."""
    found = []
    for path in sorted(root.rglob("*.swift")):
        code = strip(path.read_text())
        lines = code.splitlines()
        hits = {}
        for pattern, why in rules:
            if allowed(path.relative_to(root).as_posix(), why):
                continue
            for match in pattern.finditer(code):
                number = code.count("\n", 0, match.start()) + 1
                hits.setdefault(number, why)
        for number, why in sorted(hits.items()):
            found.append(f"{path}:{number}: {why}: {lines[number - 1].strip()[:160]}")
    return found


def door_findings(root: pathlib.Path) -> list[str]:
    def allowed(relative: str, why: str) -> bool:
        return relative.split("/")[0] in DOOR_FOLDERS or (why == "imports an SPI" and relative in DOOR_SPI_FILES)

    return findings(root, DOOR_RULES, allowed)


def self_test(root: pathlib.Path) -> int:
    failures = 0
    if findings(root):
        print("self-test: the sources must pass before probes mean anything", file=sys.stderr)
        return 1
    for name, probe in PROBES.items():
        with tempfile.TemporaryDirectory() as scratch:
            copy = pathlib.Path(scratch) / "Effects"
            shutil.copytree(root, copy)
            (copy / "Probe.swift").write_text("/// A comment naming @_silgen_name is fine.\n" + probe)
            hits = [f for f in findings(copy) if "Probe.swift" in f]
            if not hits:
                print(f"self-test: the probe '{name}' was not caught: {hits}", file=sys.stderr)
                failures += 1
    # A `//` comment line naming a forbidden construct is not code.
    with tempfile.TemporaryDirectory() as scratch:
        copy = pathlib.Path(scratch) / "Effects"
        shutil.copytree(root, copy)
        (copy / "Probe.swift").write_text('// dlsym(nil, "x") unsafeBitCast @_silgen_name\n  /// _typeByName("x")\n')
        if findings(copy):
            print(f"self-test: comment lines were flagged: {findings(copy)}", file=sys.stderr)
            failures += 1
    # The door: a probe outside Runtime/ is caught; the same probe inside is not.
    support = root.parent / "EffectsTestSupport"
    if door_findings(support):
        print("self-test: test support must pass the door check before probes mean anything", file=sys.stderr)
        return 1
    door_probes = {
        "dlsym": PROBES["dlsym"],
        "load(fromByteOffset:)": PROBES["load(fromByteOffset:)"],
        "unsafeBitCast": PROBES["unsafeBitCast"],
        "@_silgen_name": PROBES["@_silgen_name"],
        "guaranteed ref": PROBES["underscored member"],
        "symbol(named:)": 'let probe = Platform.symbol(named: "swift_task_getCurrent")\n',
        "load(as:)": "func probe(_ p: UnsafeRawPointer) -> UInt { p.load(as: UInt.self) }\n",
        "underscored call": 'let probe = _typeByName("x")\n',
        "@_spi import": "@_spi(ExperimentalScheduling) import _Concurrency\n",
    }
    for name, probe in door_probes.items():
        with tempfile.TemporaryDirectory() as scratch:
            copy = pathlib.Path(scratch) / "EffectsTestSupport"
            shutil.copytree(support, copy)
            (copy / "VirtualTime" / "Probe.swift").write_text("/// dlsym in a comment is fine.\n" + probe)
            (copy / "Runtime" / "Probe.swift").write_text(probe)
            hits = door_findings(copy)
            if len(hits) != 1 or "VirtualTime/Probe.swift:2:" not in hits[0]:
                print(f"self-test: the door probe '{name}' was not caught exactly once outside Runtime/: {hits}", file=sys.stderr)
                failures += 1
    print(f"self-test: {len(PROBES)} probes of Effects, {len(door_probes)} of the door, {failures} failures")
    return 1 if failures else 0


def verdict(found: list[str], advice: str, passed: str) -> int:
    """Prints each finding as an error, then `advice`; or `passed`. The exit code."""
    for line in found:
        print(f"error: {line}", file=sys.stderr)
    if found:
        print(f"error: {advice}", file=sys.stderr)
        return 1
    print(passed)
    return 0


def main() -> int:
    root = pathlib.Path(__file__).resolve().parents[2] / "Sources" / "Effects"
    if "--self-test" in sys.argv:
        return self_test(root)
    if "--door" in sys.argv:
        return verdict(
            door_findings(root.parent / "EffectsTestSupport"),
            "test support reaches the runtime's private side only through RuntimeDoor "
            "(Sources/EffectsTestSupport/Runtime/): move it there, with a row in the door's table.",
            "EffectsTestSupport reaches the runtime only through RuntimeDoor.",
        )
    return verdict(
        findings(root),
        "Effects ships inside apps and may use only public, documented toolchain API. "
        "Move what needs the runtime's private side into EffectsTestSupport, behind RuntimeDoor.",
        f"Effects uses only public API ({sum(1 for _ in root.rglob('*.swift'))} files checked).",
    )


if __name__ == "__main__":
    sys.exit(main())
