import Effects

/// A thread-safe list that scheduled actions append to.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Locked<[Value]>([])

  func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  var values: [Value] { storage.snapshot }
}
