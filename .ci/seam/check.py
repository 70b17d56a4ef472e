#!/usr/bin/env python3
"""The seam between Effects and EffectsTestSupport is written down in one place:
Sources/Effects/Internal/TestSupportSeam.swift names, file by file, every `package` declaration of
Effects that test support uses. Fails when test support uses one that the row of its file does not
name, and when a row names something that no longer crosses, so the table stays true.
`--self-test` proves both on probes."""
import fnmatch, pathlib, re, shutil, sys, tempfile

MODIFIERS = r"(?:static|final|mutating|convenience|indirect|override|lazy|weak|private\(set\)|fileprivate\(set\)|nonisolated(?:\(unsafe\))?)"
DECL = re.compile(
    rf"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:nonisolated(?:\(unsafe\))?\s+)?package\s+(?:{MODIFIERS}\s+)*"
    r"(func|var|let|init|struct|enum|class|protocol|typealias|subscript|actor)\s*([A-Za-z_][A-Za-z0-9_]*)?"
)
MEMBER = re.compile(rf"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:{MODIFIERS}\s+)*(func|var|let|init|subscript)\s*([A-Za-z_][A-Za-z0-9_]*)?")
ROW = re.compile(r"^/// \| (?P<files>.+?) \| (?P<names>.+?) \| (?P<why>.+?) \|$")


def declarations(path: pathlib.Path):
    """(line, name) of each package declaration in `path`, members of a `package extension` too."""
    depth, extension_depth = 0, None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("//")[0]
        match = DECL.match(code)
        if match and match.group(1) not in ("init", "subscript") and match.group(2):
            yield number, match.group(2)
        elif extension_depth is not None and depth == extension_depth + 1:
            member = MEMBER.match(code)
            if member and member.group(1) not in ("init", "subscript") and member.group(2):
                yield number, member.group(2)
        if re.match(r"^\s*package\s+extension\b", code):
            extension_depth = depth
        depth += code.count("{") - code.count("}")
        if extension_depth is not None and depth <= extension_depth:
            extension_depth = None


def rows(seam: str):
    """(file patterns, names) of each row of the seam's table."""
    for line in seam.splitlines():
        match = ROW.match(line.strip())
        if not match or match.group("files").startswith(("File of", "---")):
            continue
        files = re.findall(r"`([^`]+\.swift)`", match.group("files"))
        names = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", match.group("names")))
        yield files, names


def covers(patterns, relative: str) -> bool:
    return any(fnmatch.fnmatch(relative, p) or ("/" not in p and fnmatch.fnmatch(relative.split("/")[-1], p)) for p in patterns)


def problems(root: pathlib.Path) -> list[str]:
    effects, support = root / "Sources" / "Effects", root / "Sources" / "EffectsTestSupport"
    seam_path = effects / "Internal" / "TestSupportSeam.swift"
    table = list(rows(seam_path.read_text()))
    code = "\n".join(p.read_text() for p in support.rglob("*.swift"))
    found, crossing = [], set()
    for path in sorted(effects.rglob("*.swift")):
        relative = path.relative_to(effects).as_posix()
        for number, name in declarations(path):
            if name == "TestSupportSeam" or not re.search(rf"\b{re.escape(name)}\b", code):
                continue
            crossing.add((relative, name))
            if not any(covers(files, relative) and name in names for files, names in table):
                found.append(f"Sources/Effects/{relative}:{number}: `{name}` crosses to test support; its file's row does not name it")
    for files, names in table:
        for name in sorted(names):
            if not any(covers(files, relative) and name == n for relative, n in crossing) and name != "init":
                found.append(f"{seam_path.relative_to(root)}: the row of {', '.join(files)} names `{name}`, which does not cross")
    return found


def self_test(root: pathlib.Path) -> int:
    ok = not problems(root)
    with tempfile.TemporaryDirectory() as scratch:
        copy = pathlib.Path(scratch)
        shutil.copytree(root / "Sources", copy / "Sources")
        (copy / "Sources/Effects/Probe.swift").write_text(
            "package func probeCrossing() {}\npackage extension Locked {\n  func probeMember() {}\n}\n"
        )
        (copy / "Sources/EffectsTestSupport/Probe.swift").write_text("func use() { probeCrossing(); probeMember() }\n")
        seam = copy / "Sources/Effects/Internal/TestSupportSeam.swift"
        seam.write_text(seam.read_text().replace("`Locked`, `withLock`", "`Locked`, `withLock`, `probeGone`"))
        found = problems(copy)
        expected = ["probeCrossing", "probeMember", "probeGone"]
        ok = ok and len(found) == 3 and all(any(e in f for f in found) for e in expected)
    print(f"self-test: {'passed' if ok else 'FAILED'}: {found}")
    return 0 if ok else 1


def main() -> int:
    root = pathlib.Path(__file__).resolve().parents[2]
    if "--self-test" in sys.argv:
        return self_test(root)
    found = problems(root)
    for problem in found:
        print(f"error: {problem}", file=sys.stderr)
    if found:
        print("error: keep Sources/Effects/Internal/TestSupportSeam.swift true: one row per file, naming what crosses and why.", file=sys.stderr)
        return 1
    print("the seam names every package declaration of Effects that test support uses, and nothing else")
    return 0


if __name__ == "__main__":
    sys.exit(main())
