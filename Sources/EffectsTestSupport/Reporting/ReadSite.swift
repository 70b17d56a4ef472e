#if os(Linux) && canImport(Runtime)
import Foundation
import Runtime
#endif

/// The line of the code under test that read a co-effect: the first frame of the current call
/// stack outside this library, the test frameworks and the standard library.
///
/// A property getter cannot take `#fileID` and `#line` defaults, so `environment.clock` cannot
/// capture its caller the way a function does. Instead, when a read must be reported (never on
/// the happy path), the reporter walks the stack and symbolicates it with the debug information the
/// test binary carries. Where that is not possible (no `Runtime` module on this platform, a build
/// without debug information) ``caller(test:)`` answers nil, and the issue falls back to the line
/// that made the environment, or to the test.
struct ReadSite: Sendable, CustomStringConvertible {
  /// `Module/File.swift`.
  var fileID: String
  /// The file's full path.
  var filePath: String
  var line: Int
  var column: Int

  /// Where the running test is declared: how a read written inside a macro (`#expect(...)`) is
  /// placed, since the compiler gives such code a location in the macro's expansion buffer.
  struct TestFile: Sendable {
    var fileID: String
    var filePath: String
  }

  /// The modules whose frames are never the read site, whatever their path.
  private static let skippedModules: Set<String> = ["Testing", "XCTest", "Foundation", "Dispatch"]

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

  /// The first frame of the caller's stack that belongs to the code under test, if the platform can
  /// say.
  static func caller(test: TestFile? = nil) -> ReadSite? {
    #if os(Linux) && canImport(Runtime)
    guard let frames = symbolicatedCallStack() else { return nil }
    for frame in frames {
      if let site = site(of: frame, test: test) { return site }
    }
    #endif
    return nil
  }

  #if os(Linux) && canImport(Runtime)
  /// The frames of the current call stack that may be the code under test, symbolicated with their
  /// source locations.
  ///
  /// The `Runtime` module's own `Backtrace.capture` walks frame pointers, and code compiled
  /// without them (parts of the test frameworks) leaves garbage in the chain: walking through it
  /// dereferenced a null pointer and crashed the test process. So the return addresses come from
  /// glibc's `backtrace()`, which unwinds with the binary's unwind tables (as Swift Testing does
  /// for every issue), and only the symbolication is `Runtime`'s: the addresses are handed to it in
  /// the Compact Backtrace Format its public `Codable` conformance reads. A format it does not
  /// read makes this answer nil, never a crash.
  ///
  /// Source locations cost: reading a binary's line tables took 36–190 ms for a whole stack here,
  /// against 0.15 ms for the names alone. So the names come first, and only the frames of modules
  /// that may be the code under test are located, in one pass.
  private static func symbolicatedCallStack() -> [SymbolicatedBacktrace.Frame]? {
    typealias CaptureFunction = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32) -> Int32
    guard let symbol = dlsym(nil, "backtrace") else { return nil }
    let capture = unsafeBitCast(symbol, to: CaptureFunction.self)
    var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: maximumDepth)
    let count = Int(capture(&buffer, Int32(maximumDepth)))
    let addresses = buffer.prefix(count).map { UInt64(UInt(bitPattern: $0)) }
    guard let named = backtrace(of: addresses)?.symbolicated(options: [.useSymbolCache]),
      named.frames.count == addresses.count
    else {
      return backtrace(of: addresses)?.symbolicated()?.frames
    }
    let candidates = zip(addresses, named.frames).compactMap { address, frame -> UInt64? in
      guard let name = frame.symbol?.rawName, let module = module(ofMangledName: name),
        !skippedModules.contains(module), !name.hasPrefix(environmentMember)
      else { return nil }
      return address
    }
    guard !candidates.isEmpty else { return [] }
    return backtrace(of: candidates)?.symbolicated()?.frames
  }

  /// `addresses`, return addresses of the current process, as a `Backtrace` to symbolicate.
  private static func backtrace(of addresses: [UInt64]) -> Backtrace? {
    // Version 0, 64-bit words; then each frame as a return address of 8 absolute bytes; then end.
    var bytes: [UInt8] = [0b0000_0010]
    for address in addresses {
      bytes.append(0b0010_1111)
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: address >> UInt64(shift)))
      }
    }
    bytes.append(0)
    let json = #"{"architecture":"\#(architecture)","backtrace":"\#(Data(bytes).base64EncodedString())"}"#
    return try? JSONDecoder().decode(Backtrace.self, from: Data(json.utf8))
  }

  private static var architecture: String {
    #if arch(x86_64)
    "x86_64"
    #elseif arch(arm64)
    "arm64"
    #else
    "unknown"
    #endif
  }
  #endif

  /// How many frames the walk looks at before it gives up and the issue falls back to where the
  /// environment was made.
  private static let maximumDepth = 64

  #if os(Linux) && canImport(Runtime)
  /// The read site `frame` is, if it belongs to the code under test.
  private static func site(of frame: SymbolicatedBacktrace.Frame, test: TestFile?) -> ReadSite? {
    // An app's own accessor (`extension Environment { var apiClient … }`) is a member of
    // `Environment` too: the read site is the line that used it.
    guard let symbol = frame.symbol, let location = symbol.sourceLocation, location.line > 0,
      let module = module(ofMangledName: symbol.rawName), !skippedModules.contains(module),
      !isLibrarySource(location.path), !symbol.rawName.hasPrefix(environmentMember)
    else { return nil }
    if location.path.contains("@__swiftmacro_") {
      return inMacroExpansion(location.path, test: test)
    }
    return ReadSite(
      fileID: "\(moduleOwning(location.path) ?? module)/\(fileName(location.path))",
      filePath: location.path,
      line: location.line,
      column: max(location.column, 1)
    )
  }
  #endif

  /// The place a macro was written, read from the name of its expansion buffer
  /// (`@__swiftmacro_<module><file>swift_…MX91_6_…`: counted from zero, so line 92, column 7), when
  /// the file is the running test's.
  static func inMacroExpansion(_ bufferPath: String, test: TestFile?) -> ReadSite? {
    guard let test else { return nil }
    let name = fileName(bufferPath)
    let testFile = fileName(test.filePath)
    let mangledFile = testFile.filter { $0 != "." }
    guard name.contains(mangledFile + "_"), let marker = name.ranges(of: "MX").last else { return nil }
    let numbers = name[marker.upperBound...].split(separator: "_", maxSplits: 2).prefix(2).compactMap { Int($0) }
    guard numbers.count == 2 else { return nil }
    return ReadSite(fileID: test.fileID, filePath: test.filePath, line: numbers[0] + 1, column: numbers[1] + 1)
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

  private static func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// `Module/File.swift:42`.
  var description: String {
    "\(fileID):\(line)"
  }
}
