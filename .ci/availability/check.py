#!/usr/bin/env python3
"""Apple availability check, run from Linux.

The Linux compiler does not check Apple availability, so code that uses an API newer than the
package's declared platforms (`platforms:` in Package.swift) builds and passes here and fails in
Xcode. This check sees what Xcode's compiler would see:

1. The build's index store (written by `swift build --build-tests`) gives every symbol referenced
   in Sources/ and Tests/, at its line and column. It is read through the toolchain's
   libIndexStore (C API, through ctypes).
2. Symbol graphs (`swift-symbolgraph-extract`) of the toolchain modules the index references,
   and of the package's own modules at `-minimum-access-level private`, give each symbol's Apple
   availability: the toolchain's Linux modules keep it, and our own `@available` declarations
   count too. A small supplement table below adds facts the Linux interfaces cannot show.
3. The source text gives the guards: enclosing `@available` declarations (and extensions of
   `@available` types), `if`/`while`/`guard` `#available`/`#unavailable`, availability macros
   (read from `swift package dump-package`), and `#if` branches that are not compiled for a
   platform.

A use is reported when, on some declared platform, the symbol needs a newer version than the
platform's floor (or is unavailable there) and nothing guards it.

Usage:
  python3 .ci/availability/check.py [--package-path .] [--scratch-path DIR] [--build] [--unseen]

Exit status: 0 when no use is reported, 1 when some are, 2 when the check could not run.
Standard library only.
"""

import argparse
import bisect
import concurrent.futures
import ctypes
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

# Bump when the digest format or the way it is computed changes: cached digests are then rebuilt.
DIGEST_VERSION = 3

# ---------------------------------------------------------------------------------------------
# Platforms

# Package.swift platform names (dump-package) -> availability domain names.
PACKAGE_PLATFORMS = {
    "macos": "macOS",
    "ios": "iOS",
    "tvos": "tvOS",
    "watchos": "watchOS",
    "visionos": "visionOS",
    "maccatalyst": "macCatalyst",
}
# Names accepted in `@available` / `#available` / symbol graphs -> domain.
SOURCE_PLATFORMS = {
    "macOS": "macOS",
    "OSX": "macOS",
    "iOS": "iOS",
    "tvOS": "tvOS",
    "watchOS": "watchOS",
    "visionOS": "visionOS",
    "xrOS": "visionOS",
    "macCatalyst": "macCatalyst",
}
# App-extension-only availability narrows app extensions only: it is no guard for app code, and
# no restriction on it either. Recognised so that these names are not taken for macros.
EXTENSION_PLATFORMS = {
    "macOSApplicationExtension",
    "OSXApplicationExtension",
    "iOSApplicationExtension",
    "tvOSApplicationExtension",
    "watchOSApplicationExtension",
    "visionOSApplicationExtension",
    "macCatalystApplicationExtension",
    "swift",
    "_PackageDescription",
    "DriverKit",
}

# ---------------------------------------------------------------------------------------------
# Supplement: facts the Linux interfaces cannot show.
#
# The toolchain's Linux modules are built for Linux, so an API that Apple's own build of a module
# leaves out, or marks unavailable, on some Apple platform carries no mark here. Each entry names
# the symbols (by USR prefix, and/or by qualified-name prefix resolved through the symbol graph of
# `module`), the platforms where they do not exist, and the guard to suggest.
SUPPLEMENT = [
    {
        # swift-testing's Package.swift defines SWT_NO_EXIT_TESTS and SWT_NO_PROCESS_SPAWNING
        # `.when(platforms: [.iOS, .watchOS, .tvOS, .visionOS, ...])`, under which the exit-test
        # macros, `ExitTest` and `ExitStatus` are `@available(*, unavailable)`: exit tests exist
        # on macOS, Linux and Windows only. The Linux build has neither condition, so no mark.
        "why": "exit tests exist on macOS, Linux and Windows only",
        "module": "Testing",
        "usr_prefixes": [
            "s:7Testing8ExitTestV",  # ExitTest, ExitTest.Condition, ExitTest.Result, members
            "s:7Testing10ExitStatusO",  # ExitStatus and its members
            "s:7Testing6expect16processExitsWith",  # #expect(processExitsWith:...)
            "s:7Testing7require16processExitsWith",  # #require(processExitsWith:...)
        ],
        "name_prefixes": [
            "ExitTest",
            "ExitStatus",
            "expect(processExitsWith:",
            "require(processExitsWith:",
        ],
        "unavailable": ["iOS", "tvOS", "watchOS", "visionOS"],
        "guard": "#if os(macOS) || os(Linux) || os(Windows)",
    },
]

# ---------------------------------------------------------------------------------------------
# Small helpers


def parse_version(text):
    parts = []
    for piece in str(text).strip().split("."):
        if not piece.isdigit():
            break
        parts.append(int(piece))
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts) if parts else None


def version_text(version):
    parts = list(version) + [0] * (2 - len(version))
    return ".".join(str(p) for p in parts)


def sg_version(value):
    if not value:
        return None
    return parse_version(
        "%d.%d.%d" % (value.get("major", 0), value.get("minor", 0), value.get("patch", 0))
    )


def note(message):
    print("note: " + message, file=sys.stderr)


def warn(message):
    print("warning: " + message, file=sys.stderr)


class CheckError(Exception):
    pass


def run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


# A requirement on one platform: None (no requirement), ("i", version) or ("u",) (unavailable).
def req_key(req):
    if req is None:
        return (0, ())
    if req[0] == "i":
        return (1, req[1])
    return (2, ())


def req_max(a, b):
    return a if req_key(a) >= req_key(b) else b


def req_min(a, b):
    return a if req_key(a) <= req_key(b) else b


# ---------------------------------------------------------------------------------------------
# Toolchain


class Toolchain:
    def __init__(self, swift):
        path = shutil.which(swift)
        if not path:
            raise CheckError("cannot find `%s` on PATH" % swift)
        self.swift = path
        self.bin = os.path.dirname(os.path.realpath(path))
        info = json.loads(run([path, "-print-target-info"]).stdout)
        self.triple = info["target"]["triple"]
        self.arch = info["target"].get("arch", self.triple.split("-")[0])
        self.resource_dir = info["paths"]["runtimeResourcePath"]
        self.compiler_version_text = info.get("compilerVersion", "")
        match = re.search(r"Swift version ([0-9.]+)", self.compiler_version_text)
        self.compiler_version = parse_version(match.group(1)) if match else (6,)
        self.extract = os.path.join(self.bin, "swift-symbolgraph-extract")
        if not os.path.exists(self.extract):
            raise CheckError("no swift-symbolgraph-extract next to %s" % path)
        lib = os.path.normpath(os.path.join(self.bin, "..", "lib", "libIndexStore.so"))
        if not os.path.exists(lib):
            raise CheckError("no libIndexStore.so at %s" % lib)
        self.libindexstore = lib

    def linux_modules(self):
        """Modules `canImport` finds here: the toolchain's Swift and Clang modules."""
        names = set()
        for entry in glob.glob(os.path.join(self.resource_dir, "*", "*.swiftmodule")):
            names.add(os.path.basename(entry)[: -len(".swiftmodule")])
        for entry in glob.glob(os.path.join(self.resource_dir, "*", "*.swiftinterface")):
            names.add(os.path.basename(entry).split(".")[0])
        maps = glob.glob(os.path.join(self.resource_dir, "**", "*.modulemap"), recursive=True)
        for modulemap in maps:
            try:
                with open(modulemap, encoding="utf-8", errors="replace") as handle:
                    for line in handle:
                        found = re.match(r"\s*(?:explicit\s+)?(?:framework\s+)?module\s+(\w+)", line)
                        if found:
                            names.add(found.group(1))
            except OSError:
                pass
        return names


# ---------------------------------------------------------------------------------------------
# The package


class Target:
    def __init__(self, name, path, macros, defines):
        self.name = name
        self.path = path  # absolute directory
        self.macros = macros  # name (or "name version") -> spec
        self.defines = defines  # name -> True (unconditional) or None (conditional)


class Package:
    def __init__(self, root, scratch, toolchain):
        self.root = os.path.realpath(root)
        result = run(
            [toolchain.swift, "package", "dump-package", "--package-path", self.root,
             "--scratch-path", scratch]
        )
        if result.returncode != 0:
            raise CheckError("swift package dump-package failed:\n" + result.stderr)
        manifest = json.loads(result.stdout)
        self.name = manifest.get("name", "")
        self.floors = {}  # domain -> version
        for platform in manifest.get("platforms") or []:
            domain = PACKAGE_PLATFORMS.get(platform.get("platformName", "").lower())
            if domain:
                self.floors[domain] = parse_version(platform.get("version", "0"))
        order = ["macOS", "iOS", "tvOS", "watchOS", "visionOS", "macCatalyst"]
        self.platforms = [p for p in order if p in self.floors]
        self.targets = []
        for target in manifest.get("targets") or []:
            kind = target.get("type")
            if kind in ("binary", "system", "plugin", "macro"):
                continue
            path = target.get("path")
            if not path:
                base = "Tests" if kind == "test" else "Sources"
                path = os.path.join(base, target["name"])
            macros, defines = {}, {}
            for setting in target.get("settings") or []:
                if setting.get("tool") != "swift":
                    continue
                condition = setting.get("condition")
                setting_kind = setting.get("kind") or {}
                if "enableExperimentalFeature" in setting_kind:
                    feature = setting_kind["enableExperimentalFeature"].get("_0", "")
                    if feature.startswith("AvailabilityMacro="):
                        self._add_macro(macros, feature[len("AvailabilityMacro="):])
                elif "unsafeFlags" in setting_kind:
                    flags = [f for f in setting_kind["unsafeFlags"].get("_0", []) if f != "-Xfrontend"]
                    for i, flag in enumerate(flags):
                        if flag == "-define-availability" and i + 1 < len(flags):
                            self._add_macro(macros, flags[i + 1])
                        elif flag.startswith("-enable-experimental-feature") and i + 1 < len(flags):
                            if flags[i + 1].startswith("AvailabilityMacro="):
                                self._add_macro(macros, flags[i + 1][len("AvailabilityMacro="):])
                        elif flag.startswith("-D") and len(flag) > 2:
                            defines[flag[2:]] = None if condition else True
                elif "define" in setting_kind:
                    defines[setting_kind["define"].get("_0", "")] = None if condition else True
            self.targets.append(
                Target(target["name"], os.path.join(self.root, path), macros, defines)
            )
        self.all_macros = {}
        for target in self.targets:
            self.all_macros.update(target.macros)

    @staticmethod
    def _add_macro(macros, text):
        if ":" not in text:
            return
        name, spec_text = text.split(":", 1)
        spec = {}
        for item in spec_text.split(","):
            words = item.split()
            if len(words) == 2 and words[0] in SOURCE_PLATFORMS:
                version = parse_version(words[1])
                if version:
                    spec[SOURCE_PLATFORMS[words[0]]] = ("i", version)
        macros[" ".join(name.split())] = spec

    def target_for(self, path):
        best = None
        for target in self.targets:
            if path.startswith(target.path + os.sep):
                if best is None or len(target.path) > len(best.path):
                    best = target
        return best

    def in_scope(self, path):
        for top in ("Sources", "Tests"):
            if path.startswith(os.path.join(self.root, top) + os.sep):
                return True
        return False

    def relative(self, path):
        return os.path.relpath(path, self.root)

    def source_files(self):
        files = []
        for top in ("Sources", "Tests"):
            for directory, _, names in os.walk(os.path.join(self.root, top)):
                for name in names:
                    if name.endswith(".swift"):
                        files.append(os.path.join(directory, name))
        return sorted(files)


# ---------------------------------------------------------------------------------------------
# Swift source: tokens


OP_CHARS = set("/=-+!*%<>&|^~?")
IDENT_START = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
IDENT_CHARS = IDENT_START | set("0123456789")
PUNCT = set("()[]{},:;@#`\\")
# Keywords after which a `/` starts a regex literal rather than being an operator.
REGEX_AFTER_KEYWORDS = {"return", "case", "in", "where", "if", "guard", "while", "try", "await",
                        "throw", "else", "switch", "let", "var"}


def is_ident_char(ch):
    return ch in IDENT_CHARS or ord(ch) >= 0x80


class Tok:
    __slots__ = ("kind", "text", "start", "end", "line", "col")

    def __init__(self, kind, text, start, end):
        self.kind = kind  # id, num, str, op, punct, attr, pound
        self.text = text
        self.start = start
        self.end = end
        self.line = 0
        self.col = 0

    def __repr__(self):
        return "Tok(%s %r %d:%d)" % (self.kind, self.text, self.line, self.col)


class Lexer:
    """Swift tokens, enough to find declarations, braces, conditions and directives.

    The text is the file's bytes decoded as Latin-1, so that offsets and columns are byte-based,
    as the index's are. Comments are skipped; string and regex literals become single tokens.
    """

    def __init__(self, src):
        self.src = src
        self.n = len(src)

    def skip_block_comment(self, i):
        depth = 0
        src, n = self.src, self.n
        while i < n:
            if src.startswith("/*", i):
                depth += 1
                i += 2
            elif src.startswith("*/", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        return n

    def skip_string(self, i):
        """i at the first `#` or `"` of a string literal; returns the offset after it."""
        src, n = self.src, self.n
        hashes = 0
        while i < n and src[i] == "#":
            hashes += 1
            i += 1
        # `"""` opens a multi-line literal only when the line ends there (`#""""#` holds `""`).
        multiline = False
        if src.startswith('"""', i):
            end = src.find("\n", i + 3)
            multiline = not src[i + 3:end if end >= 0 else n].strip()
        i += 3 if multiline else 1
        close = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if src.startswith(escape, i):
                j = i + len(escape)
                if j < n and src[j] == "(":
                    i = self.skip_code(j + 1, ")")
                else:
                    i = j + 1
                continue
            if src.startswith(close, i):
                return i + len(close)
            if not multiline and src[i] == "\n":
                return i  # unterminated: stop at the line's end
            i += 1
        return n

    def skip_code(self, i, closer):
        """Skips code inside an interpolation up to the matching `closer`; returns after it."""
        src, n = self.src, self.n
        depth = 0
        while i < n:
            ch = src[i]
            if src.startswith("//", i):
                while i < n and src[i] != "\n":
                    i += 1
                continue
            if src.startswith("/*", i):
                i = self.skip_block_comment(i)
                continue
            if ch == '"' or (ch == "#" and self._raw_string_at(i)):
                i = self.skip_string(i)
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                if depth == 0:
                    return i + 1 if ch == closer else i
                depth -= 1
            i += 1
        return n

    def _raw_string_at(self, i):
        j = i
        while j < self.n and self.src[j] == "#":
            j += 1
        return j < self.n and self.src[j] == '"'

    def _regex_at(self, i, prev):
        """A bare `/.../` regex literal at i? (Swift 6 mode parses them.)"""
        src, n = self.src, self.n
        if i + 1 >= n or src[i + 1] in " \t\r\n/*=":
            return None
        if prev is not None:
            if prev.kind in ("id", "num", "str") and prev.text not in REGEX_AFTER_KEYWORDS:
                return None
            if prev.kind == "punct" and prev.text in ")]}":
                return None
            if prev.kind == "op" and prev.end == i:
                return None
        j = i + 1
        while j < n and src[j] != "\n":
            if src[j] == "\\":
                j += 2
                continue
            if src[j] == "/":
                return j + 1
            j += 1
        return None

    def tokens(self):
        src, n = self.src, self.n
        toks = []
        i = 0
        prev = None
        while i < n:
            ch = src[i]
            if ch in " \t\r\n\f\v":
                i += 1
                continue
            if src.startswith("//", i):
                while i < n and src[i] != "\n":
                    i += 1
                continue
            if src.startswith("/*", i):
                i = self.skip_block_comment(i)
                continue
            start = i
            if ch == '"' or (ch == "#" and self._raw_string_at(i)):
                i = self.skip_string(i)
                tok = Tok("str", src[start:i], start, i)
            elif ch == "#" and i + 1 < n and src[i + 1] == "/":
                # Extended regex literal #/.../#
                end = src.find("/#", i + 2)
                i = n if end < 0 else end + 2
                tok = Tok("str", src[start:i], start, i)
            elif ch == "#" and i + 1 < n and is_ident_char(src[i + 1]):
                i += 1
                while i < n and is_ident_char(src[i]):
                    i += 1
                tok = Tok("pound", src[start:i], start, i)
            elif ch == "@" and i + 1 < n and is_ident_char(src[i + 1]):
                i += 1
                while i < n and is_ident_char(src[i]):
                    i += 1
                tok = Tok("attr", src[start:i], start, i)
            elif ch == "`":
                end = src.find("`", i + 1)
                i = n if end < 0 else end + 1
                tok = Tok("id", src[start:i], start, i)
            elif ch in IDENT_START or ord(ch) >= 0x80:
                while i < n and is_ident_char(src[i]):
                    i += 1
                tok = Tok("id", src[start:i], start, i)
            elif ch.isdigit():
                i += 1
                while i < n and (is_ident_char(src[i]) or (
                        src[i] == "." and i + 1 < n and src[i + 1].isdigit())):
                    i += 1
                tok = Tok("num", src[start:i], start, i)
            elif ch == "/" and self._regex_at(i, prev):
                i = self._regex_at(i, prev)
                tok = Tok("str", src[start:i], start, i)
            elif ch in OP_CHARS or (ch == "." and i + 1 < n and src[i + 1] in OP_CHARS | {"."}):
                i += 1
                while i < n and (src[i] in OP_CHARS or (src[i] == "." and src[start] == ".")):
                    if src.startswith("//", i) or src.startswith("/*", i):
                        break
                    i += 1
                tok = Tok("op", src[start:i], start, i)
            else:
                i += 1
                tok = Tok("punct", ch, start, i)
            toks.append(tok)
            prev = tok
        return toks


# ---------------------------------------------------------------------------------------------
# Conditional compilation (#if)


COND_TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|,|>=|<=|>|<|==|[A-Za-z_][A-Za-z0-9_.]*|[0-9][0-9.]*)")


class Config:
    """What a `#if` condition sees on one platform. Each test returns True, False, or None
    (cannot be known here: either may be compiled, so the branch counts as possibly compiled)."""

    def __init__(self, platform, toolchain, package, linux_modules=None):
        self.platform = platform  # an Apple domain, or "Linux"
        self.toolchain = toolchain
        self.package = package
        self.linux_modules = linux_modules or set()

    def os(self, name):
        if self.platform == "Linux":
            return name == "Linux"
        domain = SOURCE_PLATFORMS.get(name)
        if self.platform == "macCatalyst":
            return domain in ("iOS", "macCatalyst")
        return domain == self.platform

    APPLE_ALL = {
        "Darwin", "Foundation", "Dispatch", "ObjectiveC", "CoreFoundation", "Combine", "Swift",
        "_Concurrency", "_StringProcessing", "RegexBuilder", "Observation", "Synchronization",
        "Distributed", "os", "OSLog", "Security", "CryptoKit", "CoreGraphics", "CoreData",
        "CoreLocation", "CoreText", "CoreImage", "CoreMedia", "CoreVideo", "Network", "SwiftUI",
        "Testing", "XCTest", "UniformTypeIdentifiers", "Accelerate", "AVFoundation", "MapKit",
        "UserNotifications", "StoreKit", "CloudKit", "SwiftData", "QuartzCore", "Metal",
        "CoreML", "NaturalLanguage", "Charts", "WidgetKit", "AuthenticationServices",
        "CoreBluetooth", "HealthKit", "Contacts", "EventKit", "GameKit", "SpriteKit",
        "SceneKit", "simd", "zlib", "Compression", "System", "_Builtin_float", "SwiftShims",
    }
    APPLE_ONLY = {
        "macOS": {"AppKit", "Cocoa", "IOKit", "CoreServices", "ApplicationServices"},
        "iOS": {"UIKit", "ActivityKit", "CoreTelephony"},
        "macCatalyst": {"UIKit", "AppKit"},
        "tvOS": {"UIKit", "TVUIKit"},
        "visionOS": {"UIKit", "RealityKit", "ARKit"},
        "watchOS": {"WatchKit", "ClockKit", "WatchConnectivity"},
    }
    NOT_APPLE = {
        "Glibc", "Musl", "Bionic", "Android", "WinSDK", "ucrt", "CRT", "WASILibc", "wasi_pthread",
        "FoundationNetworking", "FoundationXML", "FoundationEssentials",
        "FoundationInternationalization", "SwiftGlibc", "SwiftMusl", "Emscripten",
    }

    def can_import(self, name, package_modules):
        if name in package_modules:
            return True
        if self.platform == "Linux":
            return name in self.linux_modules
        if name in self.APPLE_ALL or name in self.APPLE_ONLY.get(self.platform, ()):
            return True
        if name in self.NOT_APPLE:
            return False
        for other, names in self.APPLE_ONLY.items():
            if name in names:
                return False
        return None

    ARCHS = {
        "macOS": {"arm64", "x86_64"},
        "macCatalyst": {"arm64", "x86_64"},
        "iOS": {"arm64", "arm64e", "x86_64"},
        "tvOS": {"arm64", "x86_64"},
        "visionOS": {"arm64"},
        "watchOS": {"arm64_32", "arm64", "armv7k", "x86_64"},
    }

    def arch(self, name):
        if self.platform == "Linux":
            return name == self.toolchain.arch
        return None if name in self.ARCHS.get(self.platform, ()) else False

    def compare(self, op, actual, wanted):
        if wanted is None:
            return None
        key = actual + (0,) * 4, wanted + (0,) * 4
        return {">=": key[0] >= key[1], "<": key[0] < key[1], ">": key[0] > key[1],
                "<=": key[0] <= key[1]}.get(op)

    def call(self, name, args, package_modules, defines):
        arg = args[0] if args else ""
        if name == "os":
            return self.os(arg)
        if name == "canImport":
            return self.can_import(arg, package_modules)
        if name == "arch":
            return self.arch(arg)
        if name in ("compiler", "swift"):
            match = re.match(r"(>=|<=|<|>)?\s*([0-9.]+)", arg)
            if not match:
                return None
            return self.compare(match.group(1) or ">=", self.toolchain.compiler_version,
                                parse_version(match.group(2)))
        if name == "targetEnvironment":
            if self.platform in ("Linux", "macOS"):
                return False
            if arg == "simulator":
                return None
            if arg == "macCatalyst":
                return True if self.platform == "macCatalyst" else False
            return False
        if name == "_runtime":
            return (arg == "_ObjC") != (self.platform == "Linux")
        if name == "_endian":
            return arg == "little"
        if name == "_pointerBitWidth":
            if self.platform == "watchOS":
                return None
            return arg == "_64"
        return None  # hasFeature, hasAttribute, _hasAtomicBitWidth, ...

    def flag(self, name, defines):
        if name == "true":
            return True
        if name == "false":
            return False
        if name == "DEBUG":
            return None
        if name in defines:
            return defines[name]
        return False


def eval_condition(text, config, package_modules, defines):
    tokens = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = COND_TOKEN.match(text, pos)
        if not match or match.end() == pos:
            return None
        tokens.append(match.group(1))
        pos = match.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    state = {"i": 0}

    def peek():
        return tokens[state["i"]] if state["i"] < len(tokens) else None

    def take():
        token = peek()
        state["i"] += 1
        return token

    def t_and(a, b):
        if a is False or b is False:
            return False
        if a is True and b is True:
            return True
        return None

    def t_or(a, b):
        if a is True or b is True:
            return True
        if a is False and b is False:
            return False
        return None

    def parse_or():
        value = parse_and()
        while peek() == "||":
            take()
            value = t_or(value, parse_and())
        return value

    def parse_and():
        value = parse_unary()
        while peek() == "&&":
            take()
            value = t_and(value, parse_unary())
        return value

    def parse_unary():
        if peek() == "!":
            take()
            value = parse_unary()
            return None if value is None else not value
        return parse_primary()

    def parse_primary():
        token = take()
        if token is None:
            raise ValueError("condition ends early")
        if token == "(":
            value = parse_or()
            if take() != ")":
                raise ValueError("unbalanced")
            return value
        if peek() == "(":
            take()
            args, current = [], []
            depth = 0
            while True:
                part = take()
                if part is None:
                    raise ValueError("unbalanced")
                if part == "(":
                    depth += 1
                elif part == ")":
                    if depth == 0:
                        break
                    depth -= 1
                if part == "," and depth == 0:
                    args.append("".join(current))
                    current = []
                    continue
                current.append(part)
            args.append("".join(current))
            if token == "canImport" and len(args) > 1:
                value = config.call(token, args[:1], package_modules, defines)
                return None if value else value
            return config.call(token, args, package_modules, defines)
        return config.flag(token, defines)

    try:
        value = parse_or()
        if peek() is not None:
            return None
        return value
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------
# Swift source: structure (guards)

MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "open", "final", "static",
    "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned",
    "dynamic", "indirect", "nonisolated", "isolated", "consuming", "borrowing", "distributed",
    "optional", "prefix", "postfix", "infix", "sending", "__consuming", "_const", "async",
}
BODY_DECLS = {"func", "init", "deinit", "subscript", "class", "struct", "enum", "actor",
              "protocol", "extension", "macro", "operator", "precedencegroup"}
STATEMENT_DECLS = {"var", "let", "case", "typealias", "associatedtype", "import"}
DECL_KEYWORDS = BODY_DECLS | STATEMENT_DECLS


SPEC_LABELS = {"introduced", "deprecated", "obsoleted", "message", "renamed", "unavailable",
               "noasync"}


class Region:
    __slots__ = ("start", "end", "spec", "ext_pos", "kind")

    def __init__(self, start, end, spec, kind, ext_pos=None):
        self.start = start  # (line, col)
        self.end = end
        self.spec = spec  # domain -> ("i", version) | ("u",)
        self.kind = kind
        self.ext_pos = ext_pos  # for an extension: where the extended type's name is


class SourceFile:
    """One Swift file: its `#if` branches per platform and its availability guards."""

    def __init__(self, path, package, toolchain, configs, macros):
        self.path = path
        with open(path, "rb") as handle:
            data = handle.read()
        self.src = data.decode("latin-1")
        self.line_starts = [0]
        for match in re.finditer("\n", self.src):
            self.line_starts.append(match.end())
        self.macros = macros
        toks = Lexer(self.src).tokens()
        for tok in toks:
            line = bisect.bisect_right(self.line_starts, tok.start)
            tok.line = line
            tok.col = tok.start - self.line_starts[line - 1] + 1
        self.inactive = {name: set() for name in configs}
        self.toks = self._directives(toks, package, configs)
        self.regions = []
        self._structure()

    # -- text

    def line_text(self, line):
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.src)
        return self.src[start:end].encode("latin-1").decode("utf-8", "replace")

    def text_at(self, line, col, length=64):
        if line < 1 or line > len(self.line_starts):
            return ""
        start = self.line_starts[line - 1] + col - 1
        return self.src[start:start + length]

    def end_pos(self, tok):
        line = bisect.bisect_right(self.line_starts, max(tok.end - 1, tok.start))
        return (line, tok.end - self.line_starts[line - 1])

    # -- #if

    def _directives(self, toks, package, configs):
        code = []
        stack = []  # frames: {"parent": {p: active}, "taken": {p: bool}, "cur": {p: active}, "start": line}
        package_modules = {t.name for t in package.targets}
        target = package.target_for(self.path)
        defines = target.defines if target else {}
        n = len(toks)
        i = 0
        last_line = self.src.count("\n") + 1

        def close_branch(frame, end_line):
            start = frame["start"]
            if end_line >= start:
                for platform, active in frame["cur"].items():
                    if active is False:
                        self.inactive[platform].update(range(start, end_line + 1))

        while i < n:
            tok = toks[i]
            if tok.kind == "pound" and tok.text in ("#if", "#elseif", "#else", "#endif"):
                line = tok.line
                j = i + 1
                cond_toks = []
                if tok.text in ("#if", "#elseif"):
                    depth = 0
                    while j < n:
                        t = toks[j]
                        if t.line != line and depth == 0:
                            prev = cond_toks[-1].text if cond_toks else ""
                            if not prev.endswith(("||", "&&", "!")):
                                break
                        if t.text == "(":
                            depth += 1
                        elif t.text == ")":
                            depth -= 1
                        cond_toks.append(t)
                        line = t.line
                        j += 1
                cond_text = " ".join(t.text for t in cond_toks)
                values = {}
                if tok.text in ("#if", "#elseif"):
                    for name, config in configs.items():
                        values[name] = eval_condition(cond_text, config, package_modules, defines)
                if tok.text == "#if":
                    parent = stack[-1]["cur"] if stack else {p: True for p in configs}
                    frame = {"parent": dict(parent), "taken": {p: False for p in configs}}
                    stack.append(frame)
                    self._enter(frame, values, line + 1)
                elif not stack:
                    pass  # unbalanced: ignore
                elif tok.text in ("#elseif", "#else"):
                    frame = stack[-1]
                    close_branch(frame, tok.line - 1)
                    if tok.text == "#else":
                        values = {p: True for p in configs}
                    self._enter(frame, values, line + 1)
                else:
                    frame = stack.pop()
                    close_branch(frame, tok.line - 1)
                i = j
                continue
            code.append(tok)
            i += 1
        while stack:
            close_branch(stack.pop(), last_line)
        return code

    @staticmethod
    def _enter(frame, values, start_line):
        cur = {}
        for platform, parent_active in frame["parent"].items():
            value = values.get(platform)
            if parent_active is False or frame["taken"][platform] or value is False:
                cur[platform] = False
            else:
                cur[platform] = True if (value is True and parent_active is True) else None
            if value is True:
                frame["taken"][platform] = True
        frame["cur"] = cur
        frame["start"] = start_line

    # -- availability specs

    def parse_spec(self, toks):
        """The platforms of an `@available(...)` / `#available(...)` argument list."""
        items, current = [], []
        for tok in toks:
            if tok.text == "," and tok.kind == "punct":
                items.append(current)
                current = []
            else:
                current.append(tok)
        items.append(current)
        spec = {}
        if not items or not items[0]:
            return spec
        first = items[0]
        labelled = any(item and item[0].kind == "id" and item[0].text in SPEC_LABELS
                       for item in items[1:])
        if labelled and len(first) == 1:
            # Long form: @available(macOS, introduced: 15.0) / @available(iOS, unavailable)
            name = first[0].text
            domains = list(PACKAGE_PLATFORMS.values()) if name == "*" else (
                [SOURCE_PLATFORMS[name]] if name in SOURCE_PLATFORMS else [])
            for item in items[1:]:
                if not item:
                    continue
                label = item[0].text
                if label == "unavailable":
                    for domain in domains:
                        spec[domain] = ("u",)
                elif label == "introduced" and len(item) >= 3:
                    version = parse_version(item[2].text)
                    if version and name != "*":
                        for domain in domains:
                            spec.setdefault(domain, ("i", version))
            return spec
        for item in items:
            if not item:
                continue
            head = item[0].text
            if head == "*":
                continue
            if head in SOURCE_PLATFORMS and len(item) >= 2 and item[1].kind == "num":
                version = parse_version(item[1].text)
                if version:
                    spec[SOURCE_PLATFORMS[head]] = ("i", version)
                continue
            if head in SOURCE_PLATFORMS or head in EXTENSION_PLATFORMS or head in SPEC_LABELS:
                continue
            key = " ".join(t.text for t in item)
            macro = self.macros.get(key)
            if macro is None:
                macro = self.macros.get(head)
            if macro is not None:
                for domain, req in macro.items():
                    spec.setdefault(domain, req)
            else:
                warn("%s:%d: unknown availability macro or platform %r" % (
                    self.path, item[0].line, key))
        return spec

    # -- structure

    def _structure(self):
        toks = self.toks
        n = len(toks)
        match = [-1] * n
        encl = [-1] * n  # innermost enclosing `{`
        stack = []
        braces = []
        pairs = {")": "(", "]": "[", "}": "{"}
        for i, tok in enumerate(toks):
            encl[i] = braces[-1] if braces else -1
            if tok.kind != "punct":
                continue
            if tok.text in "([{":
                stack.append(i)
                if tok.text == "{":
                    braces.append(i)
            elif tok.text in ")]}":
                # Recover from a stray closer: pop to its opener if there is one.
                opener = pairs[tok.text]
                k = len(stack) - 1
                while k >= 0 and toks[stack[k]].text != opener:
                    k -= 1
                if k < 0:
                    continue
                top = -1
                while len(stack) > k:
                    top = stack.pop()
                    if toks[top].text == "{" and braces and braces[-1] == top:
                        braces.pop()
                match[top] = i
                match[i] = top
        self.match = match
        self.encl = encl
        for i, tok in enumerate(toks):
            if tok.kind == "attr" and tok.text == "@available":
                self._attribute(i)
            elif tok.kind == "id":
                if tok.text in ("if", "while") and not self._after_dot(i):
                    self._if(i)
                elif tok.text == "guard" and not self._after_dot(i):
                    self._guard(i)
                elif tok.text == "extension" and not self._after_dot(i):
                    self._extension(i)

    def _after_dot(self, i):
        return i > 0 and self.toks[i - 1].text == "." and self.toks[i - 1].end == self.toks[i].start

    def _pos(self, i):
        tok = self.toks[i]
        return (tok.line, tok.col)

    def _end(self, i):
        return self.end_pos(self.toks[i])

    def _args(self, i):
        """Tokens inside the parentheses that open at i (or [] if none)."""
        toks = self.toks
        if i < len(toks) and toks[i].text == "(" and self.match[i] > i:
            return toks[i + 1:self.match[i]]
        return []

    def _decl_end(self, j):
        """j at a declaration keyword: the index of the declaration's last token."""
        toks, match, n = self.toks, self.match, len(self.toks)
        keyword = toks[j].text
        k = j + 1
        prev = toks[j]
        while k < n:
            tok = toks[k]
            if tok.kind == "punct" and tok.text in "([":
                if match[k] < 0:
                    return k
                prev = toks[match[k]]
                k = match[k] + 1
                continue
            if tok.kind == "punct" and tok.text == "{":
                if match[k] < 0:
                    return n - 1
                if keyword in BODY_DECLS:
                    return match[k]
                prev = toks[match[k]]
                k = match[k] + 1
                continue
            if tok.kind == "punct" and tok.text in "};":
                return k - 1
            if tok.line != prev.line:
                starts_decl = tok.kind in ("attr", "pound") or (
                    tok.kind == "id" and (tok.text in DECL_KEYWORDS or tok.text in MODIFIERS))
                if keyword in BODY_DECLS:
                    if starts_decl:
                        return k - 1
                elif not self._continues(prev, tok) or starts_decl:
                    return k - 1
            prev = tok
            k += 1
        return n - 1

    @staticmethod
    def _continues(prev, tok):
        """Does tok, at the start of a new line, continue the statement that prev ended?"""
        if tok.kind == "op" and tok.text not in ("!",):
            return True
        if tok.kind == "punct" and tok.text in (".", ",", ":"):
            return True
        if prev.kind == "op" or (prev.kind == "punct" and prev.text in (",", ":", "(", "[", ".")):
            return True
        return False

    def _attribute(self, i):
        toks, n = self.toks, len(self.toks)
        spec = self.parse_spec(self._args(i + 1))
        j = i
        while j < n:
            tok = toks[j]
            if tok.kind == "attr":
                j += 1
                if j < n and toks[j].text == "(" and toks[j].start == tok.end and self.match[j] > j:
                    j = self.match[j] + 1
                continue
            if tok.kind == "id" and tok.text in MODIFIERS:
                j += 1
                if j < n and toks[j].text == "(" and self.match[j] > j:
                    j = self.match[j] + 1
                continue
            if tok.kind == "id" and tok.text == "class" and j + 1 < n and (
                    toks[j + 1].text in DECL_KEYWORDS or toks[j + 1].text in MODIFIERS):
                j += 1
                continue
            break
        if j >= n or toks[j].kind != "id" or toks[j].text not in DECL_KEYWORDS:
            return
        end = self._decl_end(j)
        if spec:
            self.regions.append(Region(self._pos(i), self._end(end), spec, "@available"))

    def _condition(self, k, stop_words):
        """Scans a condition list from k: returns (index of the stop token, [(index, spec,
        is_unavailable)]) or (None, ...) if the condition does not end as expected."""
        toks, match, n = self.toks, self.match, len(self.toks)
        found = []
        while k < n:
            tok = toks[k]
            if tok.kind == "punct" and tok.text in "([":
                if match[k] < 0:
                    return None, found
                k = match[k] + 1
                continue
            if tok.kind == "pound" and tok.text in ("#available", "#unavailable"):
                found.append((k, self.parse_spec(self._args(k + 1)), tok.text == "#unavailable"))
                if k + 1 < n and match[k + 1] > k:
                    k = match[k + 1] + 1
                else:
                    k += 1
                continue
            if tok.kind == "punct" and tok.text == "{" and "{" in stop_words:
                return k, found
            if tok.kind == "id" and tok.text in stop_words:
                return k, found
            if tok.kind == "punct" and tok.text in "};":
                return None, found
            if tok.kind == "id" and tok.text in DECL_KEYWORDS - {"let", "var", "case"}:
                return None, found
            k += 1
        return None, found

    def _if_chain_end(self, i):
        toks, match, n = self.toks, self.match, len(self.toks)
        body, _ = self._condition(i + 1, {"{"})
        if body is None or match[body] < 0:
            return None
        close = match[body]
        if close + 1 < n and toks[close + 1].text == "else":
            nxt = close + 2
            if nxt < n and toks[nxt].text == "{" and match[nxt] > 0:
                return match[nxt]
            if nxt < n and toks[nxt].text == "if":
                return self._if_chain_end(nxt)
        return close

    def _if(self, i):
        toks, match, n = self.toks, self.match, len(self.toks)
        if toks[i].text == "while" and i > 0 and toks[i - 1].text == "}":
            opener = match[i - 1]
            if opener > 0 and toks[opener - 1].text == "repeat":
                return  # repeat { } while ...: no body to guard
        body, found = self._condition(i + 1, {"{"})
        if body is None or not found or match[body] < 0:
            return
        close = match[body]
        for k, spec, unavailable in found:
            if not spec:
                continue
            if not unavailable:
                self.regions.append(Region(self._pos(k), self._end(close), spec, "#available"))
            elif toks[i].text == "if" and close + 1 < n and toks[close + 1].text == "else":
                nxt = close + 2
                end = None
                if nxt < n and toks[nxt].text == "{":
                    end = match[nxt]
                elif nxt < n and toks[nxt].text == "if":
                    end = self._if_chain_end(nxt)
                if end is not None and end > 0:
                    self.regions.append(
                        Region(self._pos(nxt), self._end(end), spec, "#unavailable else"))

    def _guard(self, i):
        toks, match, n = self.toks, self.match, len(self.toks)
        else_at, found = self._condition(i + 1, {"else"})
        if else_at is None or not found:
            return
        body = else_at + 1
        if body >= n or toks[body].text != "{" or match[body] < 0:
            return
        close = match[body]
        scope = self.encl[i]
        scope_end = match[scope] if scope >= 0 and match[scope] > 0 else n - 1
        for k, spec, unavailable in found:
            if not spec:
                continue
            if unavailable:
                self.regions.append(Region(self._pos(body), self._end(close), spec,
                                           "guard #unavailable"))
                continue
            # The conditions after it (`guard #available(...), let x = newAPI() else`) ...
            self.regions.append(Region(self._pos(k), self._pos(else_at), spec,
                                       "guard #available condition"))
            # ... and the rest of the enclosing scope.
            if close + 1 <= scope_end:
                self.regions.append(Region(self._end(close), self._end(scope_end), spec,
                                           "guard #available"))

    def _extension(self, i):
        toks, match, n = self.toks, self.match, len(self.toks)
        k = i + 1
        name_at = None
        while k < n and toks[k].kind == "id":
            name_at = k
            if k + 1 < n and toks[k + 1].text == "." and k + 2 < n and toks[k + 2].kind == "id":
                k += 2
                continue
            break
        if name_at is None:
            return
        while k < n and toks[k].text != "{":
            if toks[k].text in ("}", ";"):
                return
            k += 1
        if k >= n or match[k] < 0:
            return
        start = self._pos(i)
        # Attributes before `extension` belong to it too; they do not matter here.
        self.regions.append(Region(start, self._end(match[k]), None, "extension",
                                   ext_pos=self._pos(name_at)))

    # -- queries

    def guarded(self, line, col, platform, req, resolve):
        """Is a use at (line, col), needing `req` on `platform`, guarded?"""
        pos = (line, col)
        for region in self.regions:
            if not (region.start <= pos <= region.end):
                continue
            spec = region.spec
            if spec is None:
                spec = resolve(self, region)
                if not spec:
                    continue
            have = spec.get(platform)
            if have is None:
                continue
            if have[0] == "u":
                return True  # declared unavailable here: never compiled for this platform
            if req[0] == "i" and have[1] + (0,) * 3 >= req[1] + (0,) * 3:
                return True
        return False


# ---------------------------------------------------------------------------------------------
# Index store


REL_BASEOF = 1 << 10
REL_EXTENDEDBY = 1 << 14
ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_IMPLICIT = 1 << 8
KIND_MODULE = 1
KIND_PROTOCOL = 8
KIND_EXTENSION = 9
KIND_CONSTRUCTOR = 22
KIND_MACRO = 4
ACCESSOR_SUBKINDS = {3, 4, 1000, 1001, 1002, 1003, 1014, 1015, 1016, 1017, 1018}
SUBKIND_SUBSCRIPT = 1011


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def sref(ref):
    return ctypes.string_at(ref.data, ref.length).decode("utf-8", "replace") if ref.length else ""


class IndexStore:
    def __init__(self, libpath, store_path):
        lib = ctypes.CDLL(libpath)
        vp = ctypes.c_void_p
        signatures = [
            ("indexstore_store_create", vp, [ctypes.c_char_p, ctypes.POINTER(vp)]),
            ("indexstore_error_get_description", ctypes.c_char_p, [vp]),
            ("indexstore_store_units_apply_f", ctypes.c_bool, [vp, ctypes.c_uint, vp, vp]),
            ("indexstore_unit_reader_create", vp, [vp, ctypes.c_char_p, ctypes.POINTER(vp)]),
            ("indexstore_unit_reader_dispose", None, [vp]),
            ("indexstore_unit_reader_get_main_file", StringRef, [vp]),
            ("indexstore_unit_reader_get_module_name", StringRef, [vp]),
            ("indexstore_unit_reader_is_system_unit", ctypes.c_bool, [vp]),
            ("indexstore_unit_reader_get_modification_time", None,
             [vp, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]),
            ("indexstore_unit_reader_dependencies_apply_f", ctypes.c_bool, [vp, vp, vp]),
            ("indexstore_unit_dependency_get_kind", ctypes.c_int, [vp]),
            ("indexstore_unit_dependency_get_name", StringRef, [vp]),
            ("indexstore_unit_dependency_get_filepath", StringRef, [vp]),
            ("indexstore_unit_dependency_get_modulename", StringRef, [vp]),
            ("indexstore_record_reader_create", vp, [vp, ctypes.c_char_p, ctypes.POINTER(vp)]),
            ("indexstore_record_reader_dispose", None, [vp]),
            ("indexstore_record_reader_occurrences_apply_f", ctypes.c_bool, [vp, vp, vp]),
            ("indexstore_occurrence_get_symbol", vp, [vp]),
            ("indexstore_occurrence_get_roles", ctypes.c_uint64, [vp]),
            ("indexstore_occurrence_get_line_col", None,
             [vp, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
            ("indexstore_symbol_get_usr", StringRef, [vp]),
            ("indexstore_symbol_get_name", StringRef, [vp]),
            ("indexstore_symbol_get_kind", ctypes.c_int, [vp]),
            ("indexstore_symbol_get_subkind", ctypes.c_int, [vp]),
        ]
        for name, restype, argtypes in signatures:
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        self.lib = lib
        error = vp()
        self.store = lib.indexstore_store_create(store_path.encode(), ctypes.byref(error))
        if not self.store:
            raise CheckError("cannot open the index store at %s" % store_path)
        self.callback = ctypes.CFUNCTYPE(ctypes.c_bool, vp, vp)

    def units(self):
        names = []

        @ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, StringRef)
        def collect(_, name):
            names.append(sref(name))
            return True

        self.lib.indexstore_store_units_apply_f(self.store, 0, None, collect)
        lib = self.lib
        units = []
        for name in names:
            error = ctypes.c_void_p()
            reader = lib.indexstore_unit_reader_create(self.store, name.encode(), ctypes.byref(error))
            if not reader:
                continue
            seconds, nanos = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(reader, ctypes.byref(seconds),
                                                             ctypes.byref(nanos))
            unit = {
                "name": name,
                "main": sref(lib.indexstore_unit_reader_get_main_file(reader)),
                "module": sref(lib.indexstore_unit_reader_get_module_name(reader)),
                "system": bool(lib.indexstore_unit_reader_is_system_unit(reader)),
                "mtime": seconds.value + nanos.value / 1e9,
                "records": [],
                "modules": [],
            }

            @self.callback
            def dependency(_, dep):
                kind = lib.indexstore_unit_dependency_get_kind(dep)
                if kind == 2:
                    unit["records"].append((sref(lib.indexstore_unit_dependency_get_name(dep)),
                                            sref(lib.indexstore_unit_dependency_get_filepath(dep))))
                elif kind == 1:
                    unit["modules"].append(
                        (sref(lib.indexstore_unit_dependency_get_modulename(dep)),
                         sref(lib.indexstore_unit_dependency_get_filepath(dep))))
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, dependency)
            lib.indexstore_unit_reader_dispose(reader)
            units.append(unit)
        return units

    def occurrences(self, record):
        """(line, col, roles, usr, name, kind, subkind) of every reference in one record."""
        lib = self.lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_record_reader_create(self.store, record.encode(), ctypes.byref(error))
        if not reader:
            return []
        out = []
        symbols = {}
        line, col = ctypes.c_uint(), ctypes.c_uint()
        wanted = ROLE_REFERENCE | REL_EXTENDEDBY

        @self.callback
        def occurrence(_, occ):
            roles = lib.indexstore_occurrence_get_roles(occ)
            if not roles & wanted:
                return True
            symbol = lib.indexstore_occurrence_get_symbol(occ)
            info = symbols.get(symbol)
            if info is None:
                info = (sref(lib.indexstore_symbol_get_usr(symbol)),
                        sref(lib.indexstore_symbol_get_name(symbol)),
                        lib.indexstore_symbol_get_kind(symbol),
                        lib.indexstore_symbol_get_subkind(symbol))
                symbols[symbol] = info
            lib.indexstore_occurrence_get_line_col(occ, ctypes.byref(line), ctypes.byref(col))
            out.append((line.value, col.value, roles) + info)
            return True

        lib.indexstore_record_reader_occurrences_apply_f(reader, None, occurrence)
        lib.indexstore_record_reader_dispose(reader)
        return out


# ---------------------------------------------------------------------------------------------
# Symbol graphs -> availability digests


def compact_availability(entries):
    out = {}
    for entry in entries or []:
        domain = entry.get("domain")
        if domain not in SOURCE_PLATFORMS.values():
            continue
        item = {}
        if entry.get("isUnconditionallyUnavailable"):
            item["u"] = 1
        introduced = sg_version(entry.get("introduced"))
        if introduced:
            item["i"] = version_text(introduced)
        obsoleted = sg_version(entry.get("obsoleted"))
        if obsoleted:
            item["o"] = version_text(obsoleted)
        if item:
            out[domain] = item
    return out or None


def digest_graphs(directory):
    symbols, parents, defaults = {}, {}, []
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph.get("symbols", []):
            usr = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in usr:
                continue
            symbols[usr] = [".".join(symbol.get("pathComponents") or []),
                            compact_availability(symbol.get("availability"))]
        for relation in graph.get("relationships", []):
            source = relation["source"]
            if "::SYNTHESIZED::" in source:
                continue
            if relation["kind"] == "memberOf":
                parents[source] = relation["target"]
            elif relation["kind"] == "defaultImplementationOf":
                defaults.append([source, relation["target"]])
    return {"symbols": symbols, "parents": parents, "defaults": defaults}


class Availability:
    """Effective Apple availability of every symbol the graphs know."""

    def __init__(self, digests, platforms):
        self.platforms = platforms
        self.symbols, self.parents, self.defaults = {}, {}, {}
        for digest in digests:
            self.symbols.update(digest["symbols"])
            self.parents.update(digest["parents"])
            for source, target in digest["defaults"]:
                self.defaults.setdefault(target, []).append(source)
        self.memo = {}
        self.supplement = {}  # usr -> (rule); by qualified name through the graphs
        for rule in SUPPLEMENT:
            for usr, (name, _) in self.symbols.items():
                if any(name.startswith(p) for p in rule["name_prefixes"]) and usr.startswith(
                        "s:%d%s" % (len(rule["module"]), rule["module"])):
                    self.supplement[usr] = rule

    def name(self, usr):
        entry = self.symbols.get(usr)
        return entry[0] if entry else None

    def own(self, usr):
        entry = self.symbols.get(usr)
        result = {}
        if entry and entry[1]:
            for domain, item in entry[1].items():
                if "u" in item:
                    result[domain] = ("u",)
                elif "i" in item:
                    result[domain] = ("i", parse_version(item["i"]))
                if "o" in item:
                    result.setdefault("obsoleted", {})[domain] = parse_version(item["o"])
        return result

    def effective(self, usr, depth=0):
        """domain -> requirement: the symbol's own, at least its parent's (a member is never more
        available than its type), and for a protocol requirement with default implementations,
        the least of the requirement and its defaults (what a conforming type may be using)."""
        if usr in self.memo:
            return self.memo[usr]
        if depth > 50:
            return {}
        self.memo[usr] = {}
        result = self.own(usr)
        obsoleted = result.pop("obsoleted", {})
        parent = self.parents.get(usr)
        if parent and parent != usr:
            for domain, req in self.effective(parent, depth + 1).items():
                result[domain] = req_max(result.get(domain), req)
        if usr in self.defaults:
            for impl in self.defaults[usr]:
                other = self.effective(impl, depth + 1)
                for domain in list(result):
                    result[domain] = req_min(result[domain], other.get(domain))
                    if result[domain] is None:
                        del result[domain]
        for domain, version in obsoleted.items():
            result.setdefault("obsoleted", {})[domain] = version
        self.memo[usr] = result
        return result

    def rule_for(self, usr):
        rule = self.supplement.get(usr)
        if rule:
            return rule
        for rule in SUPPLEMENT:
            if any(usr.startswith(prefix) for prefix in rule["usr_prefixes"]):
                return rule
        return None


class Graphs:
    """Extracts (and caches) symbol-graph digests."""

    def __init__(self, toolchain, cache_dir, jobs):
        self.toolchain = toolchain
        self.cache_dir = cache_dir
        self.jobs = jobs
        os.makedirs(cache_dir, exist_ok=True)

    def _stamp(self, module_path):
        newest = 0
        size = 0
        paths = [module_path]
        if os.path.isdir(module_path):
            paths = glob.glob(os.path.join(module_path, "*"))
        for path in paths:
            try:
                stat = os.stat(path)
                newest = max(newest, stat.st_mtime_ns)
                size += stat.st_size
            except OSError:
                pass
        return "%s|%d|%d|%s|%d" % (module_path, newest, size, self.toolchain.compiler_version_text,
                                   DIGEST_VERSION)

    def _one(self, name, module_path, access, include_dirs):
        cache = os.path.join(self.cache_dir, "%s.%s.digest.json" % (name, access))
        stamp = self._stamp(module_path)
        if os.path.exists(cache):
            try:
                with open(cache, encoding="utf-8") as handle:
                    digest = json.load(handle)
                if digest.get("stamp") == stamp:
                    return digest, False
            except (OSError, ValueError):
                pass
        out_dir = os.path.join(self.cache_dir, "graphs", "%s.%s" % (name, access))
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        cmd = [self.toolchain.extract, "-module-name", name, "-target", self.toolchain.triple,
               "-output-dir", out_dir, "-minimum-access-level", access,
               "-skip-synthesized-members", "-include-spi-symbols",
               "-module-cache-path", os.path.join(self.cache_dir, "ModuleCache")]
        for directory in include_dirs:
            cmd += ["-I", directory]
        result = run(cmd)
        if result.returncode != 0 or not glob.glob(os.path.join(out_dir, "*.symbols.json")):
            # Fatal: without the graph, every use of the module's newer symbols would pass.
            raise CheckError("no symbol graph for module %s:\n%s" % (
                name, (result.stderr or result.stdout or "").strip()[:2000]))
        digest = digest_graphs(out_dir)
        shutil.rmtree(out_dir, ignore_errors=True)
        digest["stamp"] = stamp
        with open(cache + ".tmp", "w", encoding="utf-8") as handle:
            json.dump(digest, handle)
        os.replace(cache + ".tmp", cache)
        return digest, True

    def load(self, modules):
        """modules: [(name, path, access, include_dirs)] -> digests."""
        digests = []
        extracted = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = {pool.submit(self._one, *m): m[0] for m in modules}
            for future in concurrent.futures.as_completed(futures):
                digest, fresh = future.result()
                digests.append(digest)
                if fresh:
                    extracted.append(futures[future])
        return digests, sorted(extracted)


# ---------------------------------------------------------------------------------------------
# The check


def base_name(name):
    for prefix in ("getter:", "setter:"):
        if name.startswith(prefix):
            name = name[len(prefix):]
    cut = name.find("(")
    return name[:cut] if cut > 0 else name


def written_at(source, line, col, name, kind, subkind):
    """Is the symbol written in the source at (line, col)? Filters what the compiler synthesised
    (for-await's `next(isolation:)`, macro expansions, implicit conversions) that the index
    reports at some other token."""
    text = source.text_at(line, col)
    if not text:
        return False
    if kind == KIND_CONSTRUCTOR:
        return text[0] in IDENT_START or ord(text[0]) >= 0x80 or text[0] in "`."
    if subkind == SUBKIND_SUBSCRIPT:
        return True
    expected = base_name(name)
    if text.startswith("`"):
        text = text[1:]
    encoded = expected.encode("utf-8").decode("latin-1")
    if not text.startswith(encoded):
        return False
    rest = text[len(encoded):len(encoded) + 1]
    if encoded and (encoded[0] in IDENT_START or ord(encoded[0]) >= 0x80):
        return not rest or not is_ident_char(rest)
    return not rest or rest not in OP_CHARS


class Finding:
    __slots__ = ("path", "line", "col", "usr", "symbol", "needs", "rule")

    def __init__(self, path, line, col, usr, symbol, needs, rule):
        self.path = path  # relative to the package
        self.line = line
        self.col = col
        self.usr = usr
        self.symbol = symbol
        self.needs = needs  # [(platform, ("i", version) | ("u",))], in the package's order
        self.rule = rule

    def message(self, floors):
        newer = [(p, r[1]) for p, r in self.needs if r[0] == "i"]
        gone = [p for p, r in self.needs if r[0] == "u"]
        parts, hints = [], []
        if newer:
            parts.append("is only available in %s (declared floor: %s)" % (
                ", ".join("%s %s or newer" % (p, version_text(v)) for p, v in newer),
                ", ".join("%s %s" % (p, version_text(floors[p])) for p, _ in newer)))
            hints.append("guard it with @available or #available")
        if gone:
            why = " (%s)" % self.rule["why"] if self.rule and self.rule.get("why") else ""
            parts.append("is unavailable in %s%s" % (", ".join(gone), why))
            guard = self.rule.get("guard") if self.rule else None
            hints.append("guard it with %s (false on %s)" % (guard or "#if", ", ".join(gone)))
        return "%s:%d:%d: error: '%s' %s; %s" % (
            self.path, self.line, self.col, self.symbol, " and ".join(parts), "; ".join(hints))


class Checker:
    """The check's phases, for the command line and for the check's own tests."""

    def __init__(self, package_path=".", scratch_path=None, swift="swift", build=False,
                 jobs=None, verbose=False):
        self.verbose = verbose
        self.toolchain = Toolchain(swift)
        root = os.path.realpath(package_path)
        self.scratch = os.path.realpath(scratch_path or os.path.join(root, ".build"))
        self.package = Package(root, self.scratch, self.toolchain)
        if build:
            self.build()
        self.jobs = jobs or max(1, min(4, os.cpu_count() or 1))
        self.sources = {}
        self.occurrence_cache = {}
        self.extensions = {}  # path -> {(line, col): usr of the extended type}
        self.warnings = []
        if self.package.platforms:
            self._load()

    def build(self):
        cmd = [self.toolchain.swift, "build", "--build-tests", "--package-path", self.package.root,
               "--scratch-path", self.scratch]
        note("building: " + " ".join(cmd))
        result = subprocess.run(cmd, stdout=sys.stderr, stderr=sys.stderr)
        if result.returncode != 0:
            raise CheckError("the build failed")

    def _load(self):
        package, toolchain = self.package, self.toolchain
        debug = os.path.join(self.scratch, "debug")
        if not os.path.isdir(debug):
            candidates = glob.glob(os.path.join(self.scratch, "*", "debug"))
            debug = candidates[0] if candidates else debug
        store_path = os.path.join(debug, "index", "store")
        self.modules_dir = os.path.join(debug, "Modules")
        if not os.path.isdir(store_path):
            raise CheckError("no index store at %s: build first (--build, or `swift build "
                             "--build-tests --scratch-path %s`)" % (store_path, self.scratch))

        # The index: the newest unit of each source file of the package.
        self.store = IndexStore(toolchain.libindexstore, store_path)
        newest = {}
        module_paths = {}  # module name -> (path, is it ours?)
        toolchain_root = os.path.realpath(toolchain.resource_dir)
        modules_root = os.path.realpath(self.modules_dir)
        built = {}  # modules of the build (ours, and other packages'), by name
        for unit in self.store.units():
            main_file = os.path.realpath(unit["main"]) if unit["main"] else ""
            ours = bool(main_file) and package.in_scope(main_file) and os.path.exists(main_file)
            if ours and (main_file not in newest or unit["mtime"] > newest[main_file]["mtime"]):
                newest[main_file] = unit
            for _, path in unit["modules"]:
                real = os.path.realpath(path) if path else ""
                found = re.search(r"([^/]+)\.swiftmodule(/|$)", real)
                if not found:
                    continue
                module_path = real.split(".swiftmodule")[0] + ".swiftmodule"
                if real.startswith(toolchain_root + os.sep):
                    # Every toolchain module any unit depends on: with the toolchain's own units
                    # in the store, that includes what our imports re-export.
                    module_paths.setdefault(found.group(1), (module_path, "public"))
                elif real.startswith(modules_root + os.sep) and ours:
                    built[found.group(1)] = module_path
        own_modules = {unit["module"] for unit in newest.values()}
        for module, module_path in built.items():
            if module not in own_modules:
                module_paths[module] = (module_path, "public")  # another package's product
        for module in own_modules:
            own = os.path.join(self.modules_dir, module + ".swiftmodule")
            if os.path.exists(own):
                module_paths[module] = (own, "private")
        self.units = newest

        stale = [package.relative(path) for path, unit in newest.items()
                 if os.path.getmtime(path) > unit["mtime"] + 1]
        if stale:
            self.warnings.append(
                "%d source file(s) changed after the index was written (e.g. %s): lines may be "
                "off; run with --build" % (len(stale), stale[0]))
        self.all_sources = package.source_files()
        unindexed = [p for p in self.all_sources if p not in newest]
        if unindexed:
            self.warnings.append(
                "%d Swift file(s) under Sources/ and Tests/ have no index unit (not in any target, "
                "or not built), e.g. %s" % (len(unindexed), package.relative(unindexed[0])))

        # Availability, from the symbol graphs.
        graphs = Graphs(toolchain, os.path.join(self.scratch, "availability-check"), self.jobs)
        wanted = []
        for module, (path, access) in sorted(module_paths.items()):
            in_build = os.path.realpath(path).startswith(modules_root + os.sep)
            include = [self.modules_dir] if in_build else []
            wanted.append((module, path, access, include))
        digests, extracted = graphs.load(wanted)
        if self.verbose and extracted:
            note("extracted symbol graphs: " + ", ".join(extracted))
        self.availability = Availability(digests, package.platforms)

        self.configs = {p: Config(p, toolchain, package) for p in package.platforms}
        self.configs["Linux"] = Config("Linux", toolchain, package, toolchain.linux_modules())

    def source(self, path):
        if path not in self.sources:
            target = self.package.target_for(path)
            macros = dict(self.package.all_macros)
            if target:
                macros.update(target.macros)
            self.sources[path] = SourceFile(path, self.package, self.toolchain, self.configs,
                                            macros)
        return self.sources[path]

    def occurrences(self, path):
        """Every reference the index has in one source file:
        (line, col, roles, usr, name, kind, subkind)."""
        if path not in self.occurrence_cache:
            out = []
            unit = self.units.get(path)
            for record, record_path in (unit["records"] if unit else []):
                if record_path and os.path.realpath(record_path) != path:
                    continue
                out.extend(self.store.occurrences(record))
            self.occurrence_cache[path] = out
            ext_here = self.extensions.setdefault(path, {})
            for line, col, roles, usr, _, _, _ in out:
                if roles & REL_EXTENDEDBY and roles & ROLE_REFERENCE:
                    ext_here[(line, col)] = usr
        return self.occurrence_cache[path]

    def _resolve_extension(self, source, region):
        """The availability an extension's body has: its extended type's."""
        usr = self.extensions.get(source.path, {}).get(region.ext_pos)
        if not usr:
            return None
        spec = {d: r for d, r in self.availability.effective(usr).items()
                if d != "obsoleted" and r is not None}
        region.spec = spec
        return spec

    def findings(self, guards=True):
        """The unguarded uses, sorted. With guards=False, no source guard (neither @available,
        #available, nor #if) counts: what is reported then is every use the filters keep."""
        package, availability = self.package, self.availability
        findings = {}
        self.miscompiled = []
        for path in sorted(self.units):
            candidates = []
            for line, col, roles, usr, name, kind, subkind in self.occurrences(path):
                if not roles & ROLE_REFERENCE or roles & (ROLE_IMPLICIT | ROLE_DECLARATION |
                                                          ROLE_DEFINITION):
                    continue  # declarations, and what the compiler synthesised
                if kind == KIND_MODULE or subkind in ACCESSOR_SUBKINDS:
                    continue  # an accessor's property is reported instead
                if kind == KIND_PROTOCOL and roles & REL_BASEOF:
                    continue  # a protocol in a conformance or inheritance list
                effective = availability.effective(usr)
                rule = availability.rule_for(usr)
                if not effective and not rule:
                    continue
                candidates.append((line, col, usr, name, kind, subkind, effective, rule))
            if not candidates:
                continue
            src = self.source(path)
            for line, col, usr, name, kind, subkind, effective, rule in candidates:
                if not written_at(src, line, col, name, kind, subkind):
                    if self.verbose:
                        note("%s:%d:%d: skipped %s: not written there" % (
                            package.relative(path), line, col, name))
                    continue
                if line in src.inactive["Linux"]:
                    self.miscompiled.append("%s:%d" % (package.relative(path), line))
                needs = []
                for platform in package.platforms:
                    floor = package.floors[platform]
                    req = effective.get(platform)
                    obsoleted = effective.get("obsoleted", {}).get(platform)
                    if rule and platform in rule["unavailable"]:
                        req = ("u",)
                    elif obsoleted and floor + (0,) * 3 >= obsoleted + (0,) * 3:
                        req = ("u",)
                    if req is None:
                        continue
                    if req[0] == "i" and req[1] + (0,) * 3 <= floor + (0,) * 3:
                        continue
                    if guards:
                        if line in src.inactive[platform]:
                            continue
                        if src.guarded(line, col, platform, req, self._resolve_extension):
                            continue
                    needs.append((platform, req))
                if needs:
                    symbol = availability.name(usr) or name
                    relpath = package.relative(path)
                    findings[(relpath, line, col, usr)] = Finding(relpath, line, col, usr, symbol,
                                                                  needs, rule)
        return [findings[k] for k in sorted(findings)]

    def unseen(self):
        """Lines of Sources/ and Tests/ in #if branches that are not compiled on Linux."""
        out = []
        for path in self.all_sources:
            src = self.source(path)
            for line in sorted(src.inactive["Linux"]):
                text = src.line_text(line)
                stripped = text.strip()
                if not stripped or stripped.startswith("//"):
                    continue
                out.append((self.package.relative(path), line, text.rstrip()))
        return out


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Report uses of Apple APIs newer than the package's declared platforms "
                    "that no availability guard covers.")
    parser.add_argument("--package-path", default=".")
    parser.add_argument("--scratch-path", default=None,
                        help="the build directory (default: <package>/.build)")
    parser.add_argument("--build", action="store_true",
                        help="run `swift build --build-tests` in the scratch path first")
    parser.add_argument("--unseen", action="store_true",
                        help="also list the lines in #if branches that are not compiled on Linux")
    parser.add_argument("--swift", default="swift", help="the swift driver (default: on PATH)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="symbol-graph extractions at once")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    started = time.time()
    try:
        checker = Checker(args.package_path, args.scratch_path, args.swift, args.build, args.jobs,
                          args.verbose)
        package = checker.package
        if not package.platforms:
            note("the package declares no Apple platform: nothing to check")
            return 0
        findings = checker.findings()
        unseen = checker.unseen() if args.unseen else []
    except CheckError as error:
        print("error: availability check could not run: %s" % error, file=sys.stderr)
        return 2

    for message in checker.warnings:
        warn(message)
    counts = {p: 0 for p in package.platforms}
    for finding in findings:
        print(finding.message(package.floors))
        for platform, _ in finding.needs:
            counts[platform] += 1
    for platform in package.platforms:
        print("%s: %d unguarded use%s" % (platform, counts[platform],
                                          "" if counts[platform] == 1 else "s"))
    if checker.miscompiled:
        warn("the #if evaluation takes %d indexed line(s) for not compiled on Linux (e.g. %s): "
             "a bug in this check" % (len(checker.miscompiled), checker.miscompiled[0]))
    if args.unseen:
        for path, line, text in unseen:
            print("%s:%d: %s" % (path, line, text))
        print("unseen: %d line%s in #if branches not compiled on Linux (never checked here)" % (
            len(unseen), "" if len(unseen) == 1 else "s"))
    note("availability: %d unguarded use%s in %d files, %.1fs" % (
        len(findings), "" if len(findings) == 1 else "s", len(checker.units),
        time.time() - started))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
