#if !os(Linux) && !canImport(Darwin)
/// Any other OS (Windows, Android, FreeBSD, WASI…): nothing is read, every answer is "unknown",
/// and the library behaves as it did before it could ask — a long lane job is judged by the
/// shorter limit, no debugger is seen, and read sites fall back to where the environment was
/// made.
extension Platform: PlatformInterface {
  /// No thread can be read here.
  struct Thread: Sendable {}

  static func currentThread() -> Thread? {
    nil
  }

  static func state(of thread: Thread) -> ThreadState {
    .unknown
  }

  static var isTraced: Bool {
    false
  }

  static func captureReturnAddresses(maximumDepth: Int, into addresses: inout [UInt]) -> Int {
    0
  }

  static func frames(of addresses: [UInt], kind: AddressKind, locating: (_ symbolName: String) -> Bool) -> [Frame]? {
    nil
  }

  static let operatingSystem: String = {
    #if os(Windows)
    "Windows"
    #elseif os(Android)
    "Android"
    #elseif os(FreeBSD)
    "FreeBSD"
    #elseif os(OpenBSD)
    "OpenBSD"
    #elseif os(WASI)
    "WASI"
    #else
    "an unknown operating system"
    #endif
  }()

  /// No autorelease pools here: `body`, as it is.
  static func withAutoreleasePool<Result>(_ body: () -> Result) -> Result {
    body()
  }
}
#endif
