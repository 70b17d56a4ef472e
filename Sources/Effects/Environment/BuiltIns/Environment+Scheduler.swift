import Foundation

/// The built-in ``Environment/scheduler`` co-effect.
package enum SchedulerKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.scheduler.rawValue }
  package static let member = "scheduler"
  package static let liveValue: any WorkScheduler = DispatchScheduler()
  package static var testValue: any WorkScheduler {
    InlineScheduler()
  }
}

extension Environment {
  /// Where work runs later. Live: ``DispatchScheduler`` on a private serial queue; an app whose
  /// view models schedule UI work sets ``DispatchScheduler/main``, and tests a `TestScheduler`.
  public var scheduler: any WorkScheduler {
    get { self[builtIn: SchedulerKey.self] }
    set { self[builtIn: SchedulerKey.self] = newValue }
  }
}
