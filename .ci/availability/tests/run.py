#!/usr/bin/env python3
"""The availability check's own tests: `python3 .ci/availability/tests/run.py`.

They build the fixture package beside this file (Fixture/: Apple floors macOS 13, iOS 16, tvOS 16,
watchOS 9) once, in $AVAILABILITY_FIXTURE_SCRATCH or the fixture's own .build (git-ignored), and
assert the EXACT findings of ../check.py on it: every `[U…]` line of the fixture is reported, with
its symbol, column and platforms, and nothing else is. The guarded (`[G…]`) and accepted (`[A…]`)
lines are also checked to hold what they claim — a reference newer than the floor that only the
guard, or only the rule for that case, keeps out — so that these tests fail when a guard or a rule
stops working. A second build, of a copy without the unguarded files, checks the clean exit.

Standard library only (unittest).
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.normpath(os.path.join(HERE, "..", "check.py"))
FIXTURE = os.path.join(HERE, "Fixture")
SCRATCH = os.environ.get("AVAILABILITY_FIXTURE_SCRATCH") or os.path.join(FIXTURE, ".build")

ALL = ("macOS", "iOS", "tvOS", "watchOS")
NOT_MACOS = ("iOS", "tvOS", "watchOS")
UNGUARDED = "Sources/Lib/Unguarded.swift"
EXIT = "Tests/LibTests/UnguardedExitTests.swift"

# Every finding the check must report on the fixture: (file, tag of the line, the text the column
# points at, symbol, platforms). Nothing else may be reported.
EXPECTED = [
    (UNGUARDED, "U-type", "ExecutorJob", "ExecutorJob", ALL),
    (UNGUARDED, "U-method", "indices", "Collection.indices(where:)", ALL),
    (UNGUARDED, "U-global", "globalConcurrentExecutor", "globalConcurrentExecutor", ALL),
    (UNGUARDED, "U-own", "newOwnThing", "newOwnThing()", ALL),
    (UNGUARDED, "U-mac-only", "macOnlyNewer", "macOnlyNewer()", ("macOS",)),
    (UNGUARDED, "U-partial", "globalConcurrentExecutor", "globalConcurrentExecutor", NOT_MACOS),
    (UNGUARDED, "U-too-old", "globalConcurrentExecutor", "globalConcurrentExecutor", ALL),
    (EXIT, "U-exit", "expect(", "expect(processExitsWith:observing:_:sourceLocation:performing:)",
     NOT_MACOS),
    (EXIT, "U-exit", "success", "ExitTest.Condition.success", NOT_MACOS),
]

FINDING = re.compile(
    r"^(?P<path>[^:\s]+\.swift):(?P<line>\d+):(?P<col>\d+): error: '(?P<symbol>[^']+)' (?P<rest>.+)$")
PLATFORM = r"(?:macOS|iOS|tvOS|watchOS|visionOS|macCatalyst)"


def load_check():
    spec = importlib.util.spec_from_file_location("availability_check", CHECK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = load_check()


def tagged(package, path, tag):
    """The 1-based line of `path` holding `[tag]` (exactly one)."""
    with open(os.path.join(package, path), encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    found = [i + 1 for i, text in enumerate(lines) if "[%s]" % tag in text]
    if len(found) != 1:
        raise AssertionError("%s: tag [%s] on %d lines" % (path, tag, len(found)))
    return found[0], lines[found[0] - 1]


def tags(package, path, prefix):
    with open(os.path.join(package, path), encoding="utf-8") as handle:
        text = handle.read()
    return sorted(set(re.findall(r"\[(%s-[A-Za-z0-9-]+)\]" % re.escape(prefix), text)))


def expected_findings(package=FIXTURE):
    out = set()
    for path, tag, anchor, symbol, platforms in EXPECTED:
        line, text = tagged(package, path, tag)
        out.add((path, line, text.index(anchor) + 1, symbol, frozenset(platforms)))
    return out


def parse(stdout):
    """Findings printed by the check: (path, line, col, symbol, platforms)."""
    out = []
    for text in stdout.splitlines():
        match = FINDING.match(text)
        if not match:
            continue
        rest = match.group("rest")
        platforms = set(re.findall(r"(%s) [0-9.]+ or newer" % PLATFORM, rest))
        gone = re.search(r"is unavailable in (%s(?:, %s)*)" % (PLATFORM, PLATFORM), rest)
        if gone:
            platforms.update(gone.group(1).split(", "))
        out.append((match.group("path"), int(match.group("line")), int(match.group("col")),
                    match.group("symbol"), frozenset(platforms)))
    return out


def run_check(*args):
    return subprocess.run([sys.executable, CHECK] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


class FixtureTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.result = run_check("--package-path", FIXTURE, "--scratch-path", SCRATCH, "--build",
                               "--unseen")
        if cls.result.returncode not in (0, 1):
            raise AssertionError("the check did not run (exit %d):\n%s" % (
                cls.result.returncode, cls.result.stderr[-4000:]))
        cls.checker = check.Checker(FIXTURE, SCRATCH)
        cls.unguarded = cls.checker.findings()
        cls.all_uses = cls.checker.findings(guards=False)

    def uses_on(self, findings, path, line):
        return [f for f in findings if f.path == path and f.line == line]

    # -- what is reported

    def test_exits_1_when_a_use_is_unguarded(self):
        self.assertEqual(self.result.returncode, 1, self.result.stderr[-2000:])

    def test_reports_exactly_the_unguarded_uses(self):
        reported = parse(self.result.stdout)
        self.assertEqual(len(reported), len(set(reported)), "a use is reported twice")
        expected = expected_findings()
        self.assertEqual(len(expected), 9)
        missing = expected - set(reported)
        extra = set(reported) - expected
        self.assertEqual((missing, extra), (set(), set()),
                         "\nmissing: %s\nextra: %s\n%s" % (missing, extra, self.result.stdout))

    def test_finding_lines_read_like_the_compilers(self):
        line, _ = tagged(FIXTURE, UNGUARDED, "U-mac-only")
        self.assertIn(
            "%s:%d:3: error: 'macOnlyNewer()' is only available in macOS 14.0 or newer "
            "(declared floor: macOS 13.0); guard it with @available or #available" % (
                UNGUARDED, line), self.result.stdout.splitlines())
        line, text = tagged(FIXTURE, UNGUARDED, "U-type")
        self.assertIn(
            "%s:%d:%d: error: 'ExecutorJob' is only available in macOS 14.0 or newer, iOS 17.0 "
            "or newer, tvOS 17.0 or newer, watchOS 10.0 or newer (declared floor: macOS 13.0, "
            "iOS 16.0, tvOS 16.0, watchOS 9.0); guard it with @available or #available" % (
                UNGUARDED, line, text.index("ExecutorJob") + 1), self.result.stdout.splitlines())
        line, text = tagged(FIXTURE, EXIT, "U-exit")
        self.assertIn(
            "%s:%d:%d: error: 'ExitTest.Condition.success' is unavailable in iOS, tvOS, watchOS "
            "(exit tests exist on macOS, Linux and Windows only); guard it with #if os(macOS) || "
            "os(Linux) || os(Windows) (false on iOS, tvOS, watchOS)" % (
                EXIT, line, text.index("success") + 1), self.result.stdout.splitlines())

    def test_a_summary_line_per_platform(self):
        counts = {p: 0 for p in ALL}
        for _, _, _, _, platforms in EXPECTED:
            for platform in platforms:
                counts[platform] += 1
        lines = self.result.stdout.splitlines()
        for platform in ALL:
            self.assertIn("%s: %d unguarded uses" % (platform, counts[platform]), lines)
        self.assertEqual(counts, {"macOS": 6, "iOS": 8, "tvOS": 8, "watchOS": 8})

    def test_unseen_lists_the_lines_no_compiler_here_has_seen(self):
        line, text = tagged(FIXTURE, "Sources/Lib/Guarded.swift", "UNSEEN")
        lines = self.result.stdout.splitlines()
        self.assertIn("Sources/Lib/Guarded.swift:%d: %s" % (line, text.rstrip()), lines)
        self.assertIn("unseen: 1 line in #if branches not compiled on Linux (never checked here)",
                      lines)

    # -- the guards are what keeps the guarded uses out

    def test_every_guarded_line_is_a_newer_use_that_its_guard_keeps_out(self):
        guarded = [("Sources/Lib/Guarded.swift", t) for t in tags(FIXTURE,
                                                                  "Sources/Lib/Guarded.swift", "G")]
        guarded += [("Tests/LibTests/ExitTests.swift", "G-exit-if-os")]
        self.assertGreaterEqual(len(guarded), 17)
        for path, tag in guarded:
            line, _ = tagged(FIXTURE, path, tag)
            with self.subTest(tag=tag):
                self.assertTrue(self.uses_on(self.all_uses, path, line),
                                "[%s] holds no newer use: it tests nothing" % tag)
                self.assertFalse(self.uses_on(self.unguarded, path, line),
                                 "[%s] is guarded, yet reported" % tag)

    def test_without_guards_the_unguarded_uses_are_still_there(self):
        found = {(f.path, f.line, f.col, f.symbol) for f in self.all_uses}
        self.assertTrue({e[:4] for e in expected_findings()} <= found)

    # -- what Apple's compiler accepts is never reported, and each case is really exercised

    def occurrences_on(self, tag):
        path = os.path.join(FIXTURE, "Sources/Lib/Accepted.swift")
        line, _ = tagged(FIXTURE, "Sources/Lib/Accepted.swift", tag)
        return line, [o for o in self.checker.occurrences(os.path.realpath(path)) if o[0] == line]

    def newer(self, requirements):
        return requirements.get("macOS") is not None and requirements["macOS"][1] > (13,)

    def test_accepted_lines_are_never_reported(self):
        accepted = tags(FIXTURE, "Sources/Lib/Accepted.swift", "A")
        self.assertEqual(accepted, ["A-conformance", "A-for-await", "A-wrapping-multiply"])
        for tag in accepted:
            line, _ = tagged(FIXTURE, "Sources/Lib/Accepted.swift", tag)
            with self.subTest(tag=tag):
                self.assertFalse(self.uses_on(self.all_uses, "Sources/Lib/Accepted.swift", line))

    def test_a_protocol_in_a_conformance_list_is_a_newer_reference(self):
        _, occurrences = self.occurrences_on("A-conformance")
        bases = [o for o in occurrences if o[5] == check.KIND_PROTOCOL and o[2] & check.REL_BASEOF]
        self.assertEqual([o[4] for o in bases], ["TaskExecutor"])
        self.assertTrue(self.newer(self.checker.availability.effective(bases[0][3])))

    def test_for_await_calls_a_newer_next_the_compiler_wrote(self):
        _, occurrences = self.occurrences_on("A-for-await")
        nexts = [o for o in occurrences if o[4] == "next(isolation:)"]
        self.assertEqual(len(nexts), 1)
        self.assertTrue(nexts[0][2] & check.ROLE_IMPLICIT)
        self.assertTrue(self.newer(self.checker.availability.effective(nexts[0][3])))

    def test_wrapping_multiply_is_a_newer_requirement_with_an_older_default(self):
        _, occurrences = self.occurrences_on("A-wrapping-multiply")
        uses = [o for o in occurrences if o[4] == "&*(_:_:)"]
        self.assertEqual(len(uses), 1)
        availability = self.checker.availability
        self.assertTrue(self.newer(availability.own(uses[0][3])), "the requirement is newer")
        self.assertFalse(availability.effective(uses[0][3]).get("macOS"),
                         "its default implementation is not")

    # -- the clean exit

    def test_exits_0_without_the_unguarded_uses(self):
        work = tempfile.mkdtemp(prefix="availability-fixture-")
        try:
            package = os.path.join(work, "Fixture")
            shutil.copytree(FIXTURE, package, ignore=shutil.ignore_patterns(".build"))
            os.remove(os.path.join(package, UNGUARDED))
            os.remove(os.path.join(package, EXIT))
            scratch = os.path.join(work, "build")
            # The toolchain's symbol graphs are the same: reuse their digests.
            digests = os.path.join(scratch, "availability-check")
            os.makedirs(digests)
            for name in os.listdir(os.path.join(SCRATCH, "availability-check")):
                if name.endswith(".public.digest.json"):
                    shutil.copy(os.path.join(SCRATCH, "availability-check", name), digests)
            result = run_check("--package-path", package, "--scratch-path", scratch, "--build",
                               "--unseen")
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr[-3000:])
            self.assertEqual(parse(result.stdout), [])
            for platform in ALL:
                self.assertIn("%s: 0 unguarded uses" % platform, result.stdout.splitlines())
            self.assertIn("unseen: 1 line", result.stdout)
        finally:
            shutil.rmtree(work, ignore_errors=True)


class ConditionTests(unittest.TestCase):
    """`#if` conditions, per platform (no build needed)."""

    @classmethod
    def setUpClass(cls):
        cls.toolchain = check.Toolchain("swift")

        class FakePackage:
            targets = []

        cls.package = FakePackage()

    def value(self, condition, platform, linux_modules=("Glibc", "Foundation")):
        config = check.Config(platform, self.toolchain, self.package, set(linux_modules))
        return check.eval_condition(condition, config, {"Lib"}, {"FLAG": True})

    def test_exit_test_guard(self):
        condition = "os(macOS) || os(Linux) || os(Windows)"
        for platform, value in (("macOS", True), ("iOS", False), ("tvOS", False),
                                ("watchOS", False), ("Linux", True)):
            self.assertIs(self.value(condition, platform), value, platform)
        negated = "!os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)"
        self.assertIs(self.value(negated, "iOS"), False)
        self.assertIs(self.value(negated, "macOS"), True)

    def test_can_import(self):
        self.assertIs(self.value("canImport(Darwin)", "Linux"), False)
        self.assertIs(self.value("canImport(Darwin)", "watchOS"), True)
        self.assertIs(self.value("canImport(Glibc)", "Linux"), True)
        self.assertIs(self.value("canImport(FoundationNetworking)", "iOS"), False)
        self.assertIs(self.value("canImport(UIKit)", "macOS"), False)
        self.assertIs(self.value("canImport(UIKit)", "iOS"), True)
        self.assertIs(self.value("canImport(Lib)", "tvOS"), True)
        self.assertIsNone(self.value("canImport(SomethingElse)", "iOS"))

    def test_what_cannot_be_known_here_counts_as_compiled(self):
        self.assertIsNone(self.value("DEBUG", "iOS"))
        self.assertIsNone(self.value("targetEnvironment(simulator)", "iOS"))
        self.assertIsNone(self.value("arch(x86_64)", "macOS"))
        self.assertIs(self.value("arch(arm64_32)", "macOS"), False)
        self.assertIs(self.value("FLAG && !UNDEFINED", "iOS"), True)
        self.assertIs(self.value("compiler(>=5.9)", "iOS"), True)
        self.assertIs(self.value("compiler(>=99)", "iOS"), False)
        self.assertIsNone(self.value("os(Linux) || DEBUG", "iOS"))
        self.assertIs(self.value("os(Linux) && DEBUG", "iOS"), False)


class SourceTests(unittest.TestCase):
    """Guards read from source text (no build needed)."""

    @classmethod
    def setUpClass(cls):
        cls.toolchain = check.Toolchain("swift")

    def guards(self, text, macros=None):
        work = tempfile.mkdtemp(prefix="availability-source-")
        try:
            path = os.path.join(work, "File.swift")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)

            class FakePackage:
                targets = []

                def target_for(self, _):
                    return None

            configs = {p: check.Config(p, self.toolchain, FakePackage()) for p in ALL}
            configs["Linux"] = check.Config("Linux", self.toolchain, FakePackage(), {"Glibc"})
            return check.SourceFile(path, FakePackage(), self.toolchain, configs, macros or {})
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def is_guarded(self, source, marker, platform="macOS", version=(15,)):
        lines = source.src.split("\n")
        line = next(i + 1 for i, t in enumerate(lines) if marker in t)
        col = lines[line - 1].index("use()") + 1
        return source.guarded(line, col, platform, ("i", version), lambda s, r: None)

    def test_declaration_ends_where_it_ends(self):
        source = self.guards(
            "@available(macOS 15, *)\n"
            "let value = compute(\n"
            "  use()  // inside\n"
            ")\n"
            "func other() { use() }  // after\n"
            "@available(iOS, unavailable)\n"
            "var x: Int {\n"
            "  use()  // unavailable\n"
            "}\n")
        self.assertTrue(self.is_guarded(source, "// inside"))
        self.assertFalse(self.is_guarded(source, "// after"))
        self.assertTrue(self.is_guarded(source, "// unavailable", platform="iOS"))
        self.assertFalse(self.is_guarded(source, "// unavailable", platform="macOS"))

    def test_strings_comments_and_closures_do_not_confuse_the_braces(self):
        source = self.guards(
            "func f() {\n"
            "  let s = \"}}} \\(g { \"{\" })\" /* } */ // }\n"
            "  let r = #\"\\#(\"}\")\"#\n"
            "  let e = #\"\"\"\"# + \"{\"\n"
            "  guard #available(macOS 15, *) else { return }\n"
            "  use()  // rest of scope\n"
            "}\n"
            "func g() { use() }  // next function\n")
        self.assertTrue(self.is_guarded(source, "// rest of scope"))
        self.assertFalse(self.is_guarded(source, "// next function"))

    def test_repeat_while_and_unavailable_chains(self):
        source = self.guards(
            "func f() {\n"
            "  repeat { } while check()\n"
            "  if #unavailable(macOS 15) {\n"
            "    use()  // unavailable branch\n"
            "  } else if flag {\n"
            "    use()  // else-if of unavailable\n"
            "  }\n"
            "  use()  // after\n"
            "}\n")
        self.assertFalse(self.is_guarded(source, "// unavailable branch"))
        self.assertTrue(self.is_guarded(source, "// else-if of unavailable"))
        self.assertFalse(self.is_guarded(source, "// after"))

    def test_macros_and_versions(self):
        macros = {"New": {"macOS": ("i", (15,)), "iOS": ("i", (18,))}}
        source = self.guards(
            "@available(New, *)\n"
            "struct S {\n"
            "  func f() { use() }  // in macro type\n"
            "}\n"
            "@available(macOS 14.4, *)\n"
            "func g() { use() }  // too old\n", macros)
        self.assertTrue(self.is_guarded(source, "// in macro type"))
        self.assertTrue(self.is_guarded(source, "// in macro type", platform="iOS", version=(18,)))
        self.assertFalse(self.is_guarded(source, "// in macro type", platform="tvOS"))
        self.assertFalse(self.is_guarded(source, "// too old"))
        self.assertTrue(self.is_guarded(source, "// too old", version=(14, 4)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
