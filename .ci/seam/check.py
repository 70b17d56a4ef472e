#!/usr/bin/env python3
"""The seam between Effects and EffectsTestSupport is written down in one place:
Sources/Effects/Internal/TestSupportSeam.swift names every `package` declaration of Effects that
test support uses, by file. Fails when test support uses one that the table does not name (by its
name, or its file's row), so the table stays true. `--self-test` proves it fails on a probe."""
import pathlib, re, shutil, sys, tempfile

DECL = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:nonisolated(?:\(unsafe\))?\s+)?package\s+"
    r"(?:static\s+|final\s+|mutating\s+|convenience\s+|indirect\s+|override\s+|nonisolated(?:\(unsafe\))?\s+)*"
    r"(func|var|let|init|struct|enum|class|protocol|typealias|subscript|actor)\s*([A-Za-z_][A-Za-z0-9_]*)?"
)


def missing(root: pathlib.Path) -> list[str]:
    effects, support = root / "Sources" / "Effects", root / "Sources" / "EffectsTestSupport"
    seam = (effects / "Internal" / "TestSupportSeam.swift").read_text()
    code = "\n".join(p.read_text() for p in support.rglob("*.swift"))
    problems = []
    for path in sorted(effects.rglob("*.swift")):
        relative = path.relative_to(effects).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = DECL.match(line)
            if not match or not match.group(2) or match.group(1) in ("init", "subscript"):
                continue
            name = match.group(2)
            if name == "TestSupportSeam" or not re.search(rf"\b{re.escape(name)}\b", code):
                continue
            if f"`{name}`" not in seam:
                problems.append(f"Sources/Effects/{relative}:{number}: `{name}` crosses to test support, unnamed in the seam")
    return problems


def main() -> int:
    root = pathlib.Path(__file__).resolve().parents[2]
    if "--self-test" in sys.argv:
        with tempfile.TemporaryDirectory() as scratch:
            copy = pathlib.Path(scratch)
            shutil.copytree(root / "Sources", copy / "Sources")
            (copy / "Sources/Effects/Probe.swift").write_text("package func probeCrossing() {}\n")
            (copy / "Sources/EffectsTestSupport/Probe.swift").write_text("func use() { probeCrossing() }\n")
            found = missing(copy)
            ok = len(found) == 1 and "probeCrossing" in found[0] and not missing(root)
            print(f"self-test: {'passed' if ok else 'FAILED'}: {found}")
            return 0 if ok else 1
    problems = missing(root)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        print("error: name each in Sources/Effects/Internal/TestSupportSeam.swift, with why it crosses.", file=sys.stderr)
        return 1
    print("the seam names every package declaration of Effects that test support uses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
