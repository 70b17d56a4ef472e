import Foundation

/// The built-in ``Environment/uuid`` co-effect.
package enum UUIDKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.uuid.rawValue }
  package static let member = "uuid"
  package static let liveValue: any UUIDGenerator = SystemUUIDs()
  /// A fresh counter for every test environment, so each test's identifiers start at `UUID(0)`.
  package static var testValue: any UUIDGenerator { IncrementingUUIDs() }
}

extension Environment {
  /// Where new identifiers come from: call it, `environment.uuid()`, where you would write
  /// `UUID()`. Live: `UUID()`; in `Environment.test()`, an ``IncrementingUUIDs`` of its own
  /// (`UUID(0)`, `UUID(1)`, …).
  ///
  /// ```swift
  /// let todo = Todo(id: environment.uuid(), title: title)
  /// ```
  public var uuid: any UUIDGenerator {
    get { self[builtIn: UUIDKey.self] }
    set { self[builtIn: UUIDKey.self] = newValue }
  }
}
