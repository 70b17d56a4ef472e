import Dispatch

/// Whether the caller is running on the main queue, asked without trapping.
///
/// `Thread.isMainThread` cannot tell: under `swift test` on Linux the process has called
/// `dispatchMain()`, and worker threads drain the main queue. A key set on the main queue can: the
/// main queue's items (and the main actor's jobs, which it runs) find it.
enum MainQueueProbe {
  private static let key: DispatchSpecificKey<Int> = {
    let key = DispatchSpecificKey<Int>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) == 1
  }
}
