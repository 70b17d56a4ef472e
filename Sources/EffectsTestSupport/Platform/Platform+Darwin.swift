#if canImport(Darwin)
import Darwin
import Foundation

/// Darwin (macOS, iOS, tvOS, watchOS, visionOS): threads through Mach (`<mach/thread_info.h>`),
/// the tracer through sysctl(3) (`<sys/sysctl.h>`, `<sys/proc.h>`). All of it is below the
/// package's floor: nothing here needs an availability check.
extension Platform: PlatformInterface {
  /// A thread, by the name of its Mach thread port in this task.
  struct Thread: Sendable {
    /// From `pthread_mach_thread_np(pthread_self())`: the port the pthread itself keeps, so,
    /// unlike `mach_thread_self()`, it adds no reference that would have to be released.
    var port: mach_port_t
  }

  static func currentThread() -> Thread? {
    Thread(port: pthread_mach_thread_np(pthread_self()))
  }

  static func state(of thread: Thread) -> ThreadState {
    var info = thread_basic_info()
    // THREAD_BASIC_INFO_COUNT, a macro Swift does not import: the struct's size in `natural_t`s.
    var count = mach_msg_type_number_t(MemoryLayout<thread_basic_info_data_t>.size / MemoryLayout<natural_t>.size)
    let result = withUnsafeMutablePointer(to: &info) {
      $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
        thread_info(thread.port, thread_flavor_t(THREAD_BASIC_INFO), $0, &count)
      }
    }
    guard result == KERN_SUCCESS else { return .unknown }
    // Suspended (`thread_suspend`, as a debugger does to the threads it holds) is stopped,
    // whatever the thread was doing when it was suspended.
    if info.suspend_count > 0 { return .stopped }
    switch info.run_state {
    case TH_STATE_RUNNING: return .running
    case TH_STATE_WAITING, TH_STATE_UNINTERRUPTIBLE: return .waiting
    case TH_STATE_STOPPED: return .stopped
    default: return .unknown
    }
  }

  static var isTraced: Bool {
    // Apple's Technical Q&A QA1361, "Detecting the Debugger".
    var info = kinfo_proc()
    var size = MemoryLayout<kinfo_proc>.stride
    var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
    guard sysctl(&name, u_int(name.count), &info, &size, nil, 0) == 0 else { return false }
    return (info.kp_proc.p_flag & P_TRACED) != 0
  }

  static func captureReturnAddresses(maximumDepth: Int, into addresses: inout [UInt]) -> Int {
    0
  }

  static func frames(of addresses: [UInt], kind: AddressKind, locating: (_ symbolName: String) -> Bool) -> [Frame]? {
    nil
  }

  static let operatingSystem: String = {
    #if os(macOS)
    let name = "macOS"
    #elseif os(iOS)
    let name = "iOS"
    #elseif os(tvOS)
    let name = "tvOS"
    #elseif os(watchOS)
    let name = "watchOS"
    #elseif os(visionOS)
    let name = "visionOS"
    #else
    let name = "Darwin"
    #endif
    let version = ProcessInfo.processInfo.operatingSystemVersion
    let patch = version.patchVersion == 0 ? "" : ".\(version.patchVersion)"
    return "\(name) \(version.majorVersion).\(version.minorVersion)\(patch)"
  }()

  /// Objective-C code runs here: what it autoreleases goes when `body` returns.
  static func withAutoreleasePool<Result>(_ body: () -> Result) -> Result {
    autoreleasepool(invoking: body)
  }
}
#endif
