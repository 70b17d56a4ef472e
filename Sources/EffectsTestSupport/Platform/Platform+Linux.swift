#if os(Linux)
import Effects
import Foundation

#if canImport(Runtime)
import Runtime
#endif

/// Linux: threads and tracers through `/proc` (proc(5)), stacks through glibc and the toolchain's
/// `Runtime` module.
extension Platform: PlatformInterface {
  /// A thread, by the `/proc` file of its state.
  struct Thread: Sendable {
    /// The thread's `stat` file: `/proc/self/task/<tid>/stat` (or any other `stat` file of
    /// `/proc`, such as a process's `/proc/<pid>/stat`).
    var statPath: String
  }

  static func currentThread() -> Thread? {
    // The path kept goes through the thread's id, so that another thread reads this one's. The id
    // comes from glibc's `gettid()` (2.30 and later; Swift does not import it), a system call,
    // where reading `/proc/thread-self/stat` for it cost a file's open and read on every
    // virtual-time scope (its lane thread is known by it): measured on an empty scope, in what is
    // now `Benchmarks/suites.py`.
    if let threadID {
      return Thread(statPath: "/proc/self/task/\(threadID())/stat")
    }
    // `/proc/thread-self` names the calling thread only while it reads: its id is the first field.
    guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
      let id = stat.split(separator: " ").first
    else { return nil }
    return Thread(statPath: "/proc/self/task/\(id)/stat")
  }

  private typealias ThreadIDFunction = @convention(c) () -> Int32

  /// glibc's `gettid()`, looked up once; nil before glibc 2.30.
  private static let threadID: ThreadIDFunction? = symbol(named: "gettid").map {
    unsafeBitCast($0, to: ThreadIDFunction.self)
  }

  static func state(of thread: Thread) -> ThreadState {
    guard let stat = try? String(contentsOfFile: thread.statPath, encoding: .utf8) else { return .unknown }
    return ProcFS.threadState(stat: stat)
  }

  static var isTraced: Bool {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let tracer = ProcFS.tracerPID(status: status)
    else { return false }
    return tracer != 0
  }

  static let operatingSystem = "Linux"

  /// The `Runtime` module's own `Backtrace.capture` walks frame pointers, and code compiled
  /// without them (parts of the test frameworks) leaves garbage in the chain: walking through it
  /// dereferenced a null pointer and crashed the test process. So the return addresses come from
  /// glibc's `backtrace()`, which unwinds with the binary's unwind tables (as Swift Testing does
  /// for every issue), into a buffer on the stack.
  static func captureReturnAddresses(maximumDepth: Int, into addresses: inout [UInt]) -> Int {
    #if canImport(Runtime)
    guard let capture = captureFunction, maximumDepth > 0 else { return 0 }
    return withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: maximumDepth) { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      let count = Int(capture(base, Int32(maximumDepth)))
      for index in 0..<count { addresses.append(UInt(bitPattern: buffer[index])) }
      return count
    }
    #else
    return 0
    #endif
  }

  /// The symbolication is the `Runtime` module's: the addresses are handed to it in the Compact
  /// Backtrace Format its public `Codable` conformance reads. A format it does not read makes this
  /// answer nil, never a crash.
  ///
  /// One symbolication at a time, on one map of the loaded images kept for the process (taken
  /// again only when an address falls outside it): taking the map reads the header of every
  /// mapped file, and one symbolication releasing the files it mapped while another took the map
  /// crashed the test process (a scope reporting 400 leftover tasks in a row did, 1 run in 3).
  ///
  /// Source locations cost: reading a binary's line tables took 36–190 ms for a whole stack here,
  /// against 0.15 ms for the names alone. So the names come first, and only the frames `locating`
  /// accepts are located, in one pass. Both are kept by address: code does not move while the
  /// process runs, so a frame reported again costs no second symbolication.
  static func frames(of addresses: [UInt], kind: AddressKind, locating: (_ symbolName: String) -> Bool) -> [Frame]? {
    #if canImport(Runtime)
    symbolication.withLock { cache in
      let addresses = addresses.map { Key(address: UInt64($0), kind: kind) }
      guard let names = cache.names(of: addresses) else { return nil }
      let wanted = zip(addresses, names).compactMap { address, name -> Key? in
        guard let name, locating(name) else { return nil }
        return address
      }
      guard let located = cache.locations(of: wanted) else { return nil }
      return located.compactMap { $0 }
    }
    #else
    return nil
    #endif
  }

  #if canImport(Runtime)
  private typealias CaptureFunction = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32) -> Int32

  /// glibc's `backtrace()`, looked up once.
  private static let captureFunction: CaptureFunction? = dlsym(nil, "backtrace").map {
    unsafeBitCast($0, to: CaptureFunction.self)
  }

  /// What symbolication knows: see ``frames(of:kind:locating:)``.
  private static let symbolication = Locked(SymbolCache())

  /// An address to symbolicate, and what kind it is: a return address is located by the call
  /// before it, a resume point as it is.
  private struct Key: Hashable {
    var address: UInt64
    var kind: AddressKind
  }

  /// The loaded images, and the names and locations found so far, by address and kind.
  private struct SymbolCache {
    var images: ImageMap?
    var names: [Key: String?] = [:]
    var located: [Key: Frame?] = [:]

    /// The mangled name of each address's function (nil: no symbol); nil when symbolication failed.
    mutating func names(of addresses: [Key]) -> [String?]? {
      let missing = addresses.filter { names[$0] == nil }
      if !missing.isEmpty {
        guard let frames = symbolicate(missing, options: [.useSymbolCache]) else { return nil }
        for (address, frame) in zip(missing, frames) { names[address] = .some(frame.symbol?.rawName) }
      }
      return addresses.map { names[$0] ?? nil }
    }

    /// Each address as a located frame (nil: no symbol); nil when symbolication failed.
    mutating func locations(of addresses: [Key]) -> [Frame?]? {
      let missing = addresses.filter { located[$0] == nil }
      if !missing.isEmpty {
        guard let frames = symbolicate(missing, options: [.showSourceLocations, .useSymbolCache]) else {
          return nil
        }
        for (address, symbolicated) in zip(missing, frames) { located[address] = .some(Platform.frame(symbolicated)) }
      }
      return addresses.map { located[$0] ?? nil }
    }

    /// The frames of `addresses`, one each, on the kept map of images (taken again when an address
    /// is outside it: a library loaded since).
    private mutating func symbolicate(
      _ addresses: [Key],
      options: Backtrace.SymbolicationOptions
    ) -> [SymbolicatedBacktrace.Frame]? {
      if images == nil
        || addresses.contains(where: { images?.indexOfImage(at: Backtrace.Address($0.address)) == nil })
      {
        images = ImageMap.capture()
      }
      guard let frames = backtrace(of: addresses)?.symbolicated(with: images, options: options)?.frames,
        frames.count == addresses.count
      else { return nil }
      return frames
    }
  }

  /// `frame` as a ``Platform/Frame``; nil when it has no symbol.
  private static func frame(_ frame: SymbolicatedBacktrace.Frame) -> Frame? {
    guard let symbol = frame.symbol else { return nil }
    return Frame(
      symbolName: symbol.rawName,
      location: symbol.sourceLocation.map { SourceLocation(path: $0.path, line: $0.line, column: $0.column) }
    )
  }

  /// `addresses` of the current process as a `Backtrace` to symbolicate.
  private static func backtrace(of addresses: [Key]) -> Backtrace? {
    // Version 0, 64-bit words; then each frame as a return address (`ra`) or an async resume point
    // (`async`) of 8 absolute bytes; then end.
    var bytes: [UInt8] = [0b0000_0010]
    for key in addresses {
      bytes.append(key.kind == .returnAddress ? 0b0010_1111 : 0b0011_1111)
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: key.address >> UInt64(shift)))
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

  /// No autorelease pools here: `body`, as it is.
  static func withAutoreleasePool<Result>(_ body: () -> Result) -> Result {
    body()
  }
}
#endif
