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
    // `/proc/thread-self` names the calling thread only while it reads: the path kept goes
    // through its id, the first field of its `stat` file, so that another thread reads this one.
    guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
      let id = stat.split(separator: " ").first
    else { return nil }
    return Thread(statPath: "/proc/self/task/\(id)/stat")
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
  /// for every issue), and only the symbolication is `Runtime`'s: the addresses are handed to it in
  /// the Compact Backtrace Format its public `Codable` conformance reads. A format it does not
  /// read makes this answer nil, never a crash.
  ///
  /// Source locations cost: reading a binary's line tables took 36–190 ms for a whole stack here,
  /// against 0.15 ms for the names alone. So the names come first, and only the frames `locating`
  /// accepts are located, in one pass.
  static func callStack(maximumDepth: Int, locating: (_ symbolName: String) -> Bool) -> [Frame]? {
    #if canImport(Runtime)
    typealias CaptureFunction = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32) -> Int32
    guard let symbol = dlsym(nil, "backtrace") else { return nil }
    let capture = unsafeBitCast(symbol, to: CaptureFunction.self)
    var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: maximumDepth)
    let count = Int(capture(&buffer, Int32(maximumDepth)))
    let addresses = buffer.prefix(count).map { UInt64(UInt(bitPattern: $0)) }
    guard let named = backtrace(of: addresses)?.symbolicated(options: [.useSymbolCache]),
      named.frames.count == addresses.count
    else {
      return backtrace(of: addresses)?.symbolicated()?.frames.compactMap(frame(_:))
    }
    let wanted = zip(addresses, named.frames).compactMap { address, frame -> UInt64? in
      guard let name = frame.symbol?.rawName, locating(name) else { return nil }
      return address
    }
    guard !wanted.isEmpty else { return [] }
    // A frame is located once a process: a read reported again from the same code costs no
    // second reading of the line tables.
    let known = locatedFrames.withLock { cache in wanted.map { cache[$0] } }
    let missing = zip(wanted, known).filter { $0.1 == nil }.map(\.0)
    var located: [UInt64: Frame] = [:]
    if !missing.isEmpty {
      guard
        let frames = backtrace(of: missing)?.symbolicated(options: [.showSourceLocations, .useSymbolCache])?.frames,
        frames.count == missing.count
      else { return backtrace(of: wanted)?.symbolicated()?.frames.compactMap(frame(_:)) }
      for (address, symbolicated) in zip(missing, frames) {
        if let frame = frame(symbolicated) { located[address] = frame }
      }
      locatedFrames.withLock { cache in cache.merge(located) { old, _ in old } }
    }
    return zip(wanted, known).compactMap { address, cached in cached ?? located[address] }
    #else
    return nil
    #endif
  }

  #if canImport(Runtime)
  /// The frames located so far, by return address: code does not move while the process runs.
  private static let locatedFrames = Locked<[UInt64: Frame]>([:])

  /// `frame` as a ``Platform/Frame``; nil when it has no symbol.
  private static func frame(_ frame: SymbolicatedBacktrace.Frame) -> Frame? {
    guard let symbol = frame.symbol else { return nil }
    return Frame(
      symbolName: symbol.rawName,
      location: symbol.sourceLocation.map { SourceLocation(path: $0.path, line: $0.line, column: $0.column) }
    )
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
}
#endif
