import Dispatch
import Foundation

/// Whether the caller runs where the main actor does, asked without trapping.
package enum MainQueue {
  /// True on the main thread, and in work the main queue runs, on whatever thread drains it.
  ///
  /// `Thread.isMainThread` alone is not enough: once a process calls `dispatchMain()` (an async
  /// `main` does; so does `swift test` on Linux), the main thread is gone and worker threads drain
  /// the main queue, one item at a time. The main actor's jobs run there, so code on the main
  /// queue holds the main actor whichever thread it is on. A key set on the main queue tells the
  /// two apart: `getSpecific` finds it in the main queue's items, and in those of queues that
  /// target it.
  package static var isCurrent: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: key) != nil
  }

  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()
}
