import Foundation
import Testing

/// The line of the code under test that read a co-effect: the first frame of the current call
/// stack outside this library, the test frameworks and the standard library.
///
/// A property getter cannot take `#fileID` and `#line` defaults, so `environment.clock` cannot
/// capture its caller the way a function does. Instead, when a read must be reported (never on
/// the happy path), the reporter walks the stack and symbolicates it with the debug information the
/// test binary carries (``Platform/callStack(maximumDepth:locating:)``). Where that is not possible
/// (a platform that cannot, a build without debug information) ``caller(test:)`` answers nil, and
/// the issue falls back to the line that made the environment, or to the test.
enum ReadSite {
  /// Where the running test is declared: how a read written inside a macro (`#expect(...)`) is
  /// placed, since the compiler gives such code a location in the macro's expansion buffer.
  struct TestFile: Sendable {
    var fileID: String
    var filePath: String
  }

  /// Where there is no running test to name the file (an exit test's child process), the file a
  /// macro was written in, read from the name of its expansion buffer, of `module`
  /// (`@__swiftmacro_12EffectsTests0026ZProbeExitTestsswift_DsAGg…` is in
  /// `EffectsTests/ZProbeExitTests.swift`). Its path is not in the name: the place is named by its
  /// file ID alone. Nil for a name that does not read so exactly.
  ///
  /// A file's name always has a dot, which the mangling cannot spell: the name is Punycode
  /// (`00`, its length, then the letters it keeps and, after the last `_`, where the others go),
  /// decoded whole, so that `Issue+Message.swift` or `Café.swift` is never read as another file.
  static func macroFile(inBuffer bufferPath: String, module: String) -> TestFile? {
    var name = Substring(fileName(bufferPath))
    let prefix = "@__swiftmacro_\(module.utf8.count)\(module)00"
    guard name.hasPrefix(prefix) else { return nil }
    name = name.dropFirst(prefix.count)
    let digits = name.prefix { $0.isASCII && $0.isNumber }
    guard let length = Int(digits), length > 0 else { return nil }
    name = name.dropFirst(digits.count)
    guard name.utf8.count >= length, let encoded = String(name.utf8.prefix(length)),
      let decoded = punycodeDecoded(encoded),
      decoded.hasSuffix(".swift"), decoded.count > ".swift".count, !decoded.contains("/")
    else { return nil }
    let fileID = "\(module)/\(decoded)"
    return TestFile(fileID: fileID, filePath: fileID)
  }

  /// An identifier in the Punycode of Swift's mangling (RFC 3492, with the digits `a`…`z`, `A`…`J`
  /// and `_` as the delimiter; a character that no identifier may hold is moved to U+D800 plus its
  /// code); nil for one that does not decode.
  static func punycodeDecoded(_ encoded: String) -> String? {
    let (base, tMin, tMax, skew, damp) = (36, 1, 26, 38, 700)
    var input = Array(encoded.utf8)
    var output: [UInt32] = []
    if let delimiter = input.lastIndex(of: UInt8(ascii: "_")) {
      output = input[..<delimiter].map(UInt32.init)
      input = Array(input[(delimiter + 1)...])
    }
    func digit(_ byte: UInt8) -> Int? {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
      case UInt8(ascii: "A")...UInt8(ascii: "J"): Int(byte - UInt8(ascii: "A")) + 26
      default: nil
      }
    }
    func adapt(_ delta: Int, _ points: Int, _ first: Bool) -> Int {
      var delta = first ? delta / damp : delta / 2
      delta += delta / points
      var k = 0
      while delta > ((base - tMin) * tMax) / 2 {
        delta /= base - tMin
        k += base
      }
      return k + (base - tMin + 1) * delta / (delta + skew)
    }
    var (n, i, bias, index) = (128, 0, 72, 0)
    while index < input.count {
      let old = i
      var (weight, k) = (1, base)
      while true {
        guard index < input.count, let value = digit(input[index]) else { return nil }
        index += 1
        let (product, tooLarge) = value.multipliedReportingOverflow(by: weight)
        let (sum, overflow) = i.addingReportingOverflow(product)
        guard !tooLarge, !overflow else { return nil }
        i = sum
        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
        if value < t { break }
        let (next, wider) = weight.multipliedReportingOverflow(by: base - t)
        guard !wider else { return nil }
        weight = next
        k += base
      }
      bias = adapt(i - old, output.count + 1, old == 0)
      let step = i / (output.count + 1)
      guard step < 0x11_0000 else { return nil }
      n += step
      i %= output.count + 1
      guard n < 0x11_0000 else { return nil }
      output.insert(UInt32(n), at: i)
      i += 1
    }
    var text = String.UnicodeScalarView()
    for code in output {
      let mapped = (0xD800..<0xD880).contains(code) ? code - 0xD800 : code
      guard let scalar = Unicode.Scalar(mapped) else { return nil }
      text.append(scalar)
    }
    return String(text)
  }

  /// The modules whose frames are never the read site, whatever their path.
  private static let skippedModules: Set<String> = ["Testing", "XCTest", "Foundation", "Dispatch"]

  /// This library's own modules: their frames are not located (located, they would only be
  /// dropped by ``isLibrarySource(_:)``, and locating a frame is the costly part of a walk) —
  /// except a member that the app's code adds to one of their types, which the mangling files
  /// under the library's module (`extension FeatureTester { func … }` in a test target).
  private static let libraryModules: Set<String> = ["Effects", "EffectsTestSupport"]

  /// Whether the frame of the function `name` can be the read site: code of neither the test
  /// frameworks nor this library, and not a member of `Environment` (an app's own accessor,
  /// `extension Environment { var apiClient … }`, is one too: the read site is the line that
  /// used it).
  private static func mayBeReadSite(_ name: String) -> Bool {
    guard let module = module(ofMangledName: name), !skippedModules.contains(module),
      !name.hasPrefix(environmentMember)
    else { return false }
    guard libraryModules.contains(module) else { return true }
    // `(extension in ProfileTests):EffectsTestSupport.FeatureTester.…`: the app's code.
    guard let demangled = demangle(name), let range = demangled.range(of: "(extension in ") else { return false }
    let extending = demangled[range.upperBound...].prefix { $0 != ")" }
    return !libraryModules.contains(String(extending))
  }

  /// The mangling every member of `Effects.Environment` starts with, its extensions' included.
  private static let environmentMember = "$s7Effects11EnvironmentV"

  /// Whether `path` is one of this library's own sources: `Sources/Effects/…` or
  /// `Sources/EffectsTestSupport/…`. Matched by components, not by this file's absolute path: an
  /// optimized build may record paths relative to the package.
  static func isLibrarySource(_ path: String) -> Bool {
    let components = path.split(separator: "/")
    return zip(components, components.dropFirst()).contains { folder, module in
      folder == "Sources" && (module == "Effects" || module == "EffectsTestSupport")
    }
  }

  /// Whether `path` is a source of a package the tests depend on, checked out by SwiftPM
  /// (`.build/checkouts/…`) or Xcode (`SourcePackages/checkouts/…`): code the user cannot change,
  /// so never the place of a report — the user's line that called into it is.
  static func isDependencySource(_ path: String) -> Bool {
    path.contains("/.build/checkouts/") || path.contains("/SourcePackages/checkouts/")
  }

  /// The first frame of the caller's stack that belongs to the code under test, if the platform can
  /// say.
  static func caller(test: TestFile? = nil) -> FailureLocation? {
    // Line tables are read only for the frames that may be the code under test: the names are
    // cheap, the locations are not.
    let frames = Platform.callStack(maximumDepth: maximumDepth, locating: mayBeReadSite)
    return frames?.lazy.compactMap { site(of: $0, test: test) }.first
  }

  /// The first frame of a stack captured earlier (``Platform/captureReturnAddresses(maximumDepth:into:)``)
  /// that belongs to the code under test: where a virtual-time scope's task was started, say.
  static func firstFrameOfCodeUnderTest(in returnAddresses: [UInt]) -> FailureLocation? {
    guard !returnAddresses.isEmpty else { return nil }
    let frames = Platform.frames(of: returnAddresses, kind: .returnAddress, locating: mayBeReadSite)
    return frames?.lazy.compactMap { site(of: $0, test: nil) }.first
  }

  /// The line of the code under test that a suspended task awaits at: the first of its async
  /// resume points (``ScopeTasks/resumePoints(ofSuspendedTask:maximum:)``) that belongs to the code
  /// under test — for a task asleep on `environment.continuousClock`, the line that slept.
  static func firstFrameOfCodeUnderTest(inResumePoints resumePoints: [UInt]) -> FailureLocation? {
    guard !resumePoints.isEmpty else { return nil }
    let frames = Platform.frames(of: resumePoints, kind: .asyncResumePoint, locating: mayBeReadSite)
    return frames?.lazy.compactMap { site(of: $0, test: nil) }.first
  }

  /// Whether the current stack runs `testCase`'s `setUp()` or `setUpWithError()` (synchronous
  /// or `async`): code there runs before the test method, outside the environment and the scope
  /// the method sets. Names only, which are cheap.
  static func isInSetUp(of testCase: AnyObject) -> Bool {
    // By the demangled name: the mangled one compresses words it shares with the class's name
    // (`SetUpTestsC03setF0yyF` is `SetUpTests.setUp()`). The running case's own, not any function
    // of that name a test calls.
    let owner = String(reflecting: type(of: testCase))
    func isSetUp(_ name: String) -> Bool {
      guard let demangled = demangle(name) else { return false }
      return demangled.contains("\(owner).setUp() ") || demangled.contains("\(owner).setUpWithError() ")
    }
    var found = false
    let frames = Platform.callStack(maximumDepth: maximumDepth) { name in
      if !found, isSetUp(name) { found = true }
      return false
    }
    return found || (frames ?? []).contains { isSetUp($0.symbolName) }
  }

  /// `name` demangled by the Swift runtime; nil for a name that is not Swift.
  static func demangle(_ name: String) -> String? {
    RuntimeDoor.demangle(name)
  }

  /// How many frames the walk looks at before it gives up and the issue falls back to where the
  /// environment was made.
  private static let maximumDepth = 64

  /// The read site `frame` is, if it belongs to the code under test.
  private static func site(of frame: Platform.Frame, test: TestFile?) -> FailureLocation? {
    // An app's own accessor (`extension Environment { var apiClient … }`) is a member of
    // `Environment` too: the read site is the line that used it.
    guard let location = frame.location, location.line > 0, mayBeReadSite(frame.symbolName),
      let module = module(ofMangledName: frame.symbolName), !isLibrarySource(location.path),
      !isDependencySource(location.path)
    else { return nil }
    if location.path.contains("@__swiftmacro_") {
      // With no running test of either framework (an exit test's child process), the buffer's own
      // name gives the file; a read of another framework's test is left to the frames after it.
      let file =
        test
        ?? (Test.current == nil && XCTestCaseObserver.shared.currentCase == nil
          ? macroFile(inBuffer: location.path, module: module) : nil)
      return inMacroExpansion(location.path, test: file)
    }
    return FailureLocation(
      fileID: "\(moduleOwning(location.path) ?? module)/\(fileName(location.path))",
      filePath: location.path,
      line: location.line,
      column: max(location.column, 1)
    )
  }

  /// The place a macro was written, read from the name of its expansion buffer
  /// (`@__swiftmacro_<module><file>swift_…MX91_6_…`: counted from zero, so line 92, column 7), when
  /// the file is the running test's.
  static func inMacroExpansion(_ bufferPath: String, test: TestFile?) -> FailureLocation? {
    guard let test else { return nil }
    let name = fileName(bufferPath)
    let testFile = fileName(test.filePath)
    let mangledFile = testFile.filter { $0 != "." }
    guard name.contains(mangledFile + "_"), let marker = name.ranges(of: "MX").last else { return nil }
    let numbers = name[marker.upperBound...].split(separator: "_", maxSplits: 2).prefix(2).compactMap { Int($0) }
    guard numbers.count == 2 else { return nil }
    return FailureLocation(fileID: test.fileID, filePath: test.filePath, line: numbers[0] + 1, column: numbers[1] + 1)
  }

  /// The module a Swift symbol belongs to: the first identifier of its mangling
  /// (`$s5MyApp4loadyyF` is in `MyApp`). Nil for symbols that are not Swift, or that start with a
  /// substitution (the standard library's, `$sS…`). For a member of an extension it is the extended
  /// type's module, so ``moduleOwning(_:)`` is asked first.
  static func module(ofMangledName name: String) -> String? {
    var rest = Substring(name)
    guard let prefix = ["$s", "_$s", "$S", "_T0"].first(where: rest.hasPrefix) else { return nil }
    rest = rest.dropFirst(prefix.count)
    let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
    guard let length = Int(digits), length > 0 else { return nil }
    rest = rest.dropFirst(digits.count)
    guard rest.count >= length else { return nil }
    return String(rest.prefix(length))
  }

  /// The target a file belongs to in a SwiftPM layout: the folder under `Sources/` or `Tests/`.
  static func moduleOwning(_ path: String) -> String? {
    let components = path.split(separator: "/")
    guard let index = components.lastIndex(where: { $0 == "Sources" || $0 == "Tests" }),
      index + 2 < components.count
    else { return nil }
    return String(components[index + 1])
  }

  static func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

}
