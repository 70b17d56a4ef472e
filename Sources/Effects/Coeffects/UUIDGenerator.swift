public import Foundation

/// Where new identifiers come from, as a co-effect: ``Environment/uuid``.
///
/// Code that calls `UUID()` makes a different identifier on every run, so its test cannot state
/// the one it expects; code that calls `environment.uuid()` can:
///
/// ```swift
/// struct Todo: Equatable {
///   let id: UUID
///   var title: String
/// }
///
/// func newTodo(_ title: String, environment: Environment = .current) -> Todo {
///   Todo(id: environment.uuid(), title: title)
/// }
///
/// @Test(.environment(.test())) func aNewTodoGetsTheNextIdentifier() {
///   #expect(newTodo("Milk") == Todo(id: UUID(0), title: "Milk"))
///   #expect(newTodo("Eggs") == Todo(id: UUID(1), title: "Eggs"))
/// }
/// ```
///
/// A conforming type must return an identifier it has not returned before on every call, and must
/// be safe to call from any thread at once. The live value calls `UUID()`;
/// ``IncrementingUUIDs`` counts up from `00000000-0000-0000-0000-000000000000`, one per call, and is
/// what `Environment.test()` answers — a fresh counter for every test environment.
public protocol UUIDGenerator: Sendable {
  /// A new identifier: `environment.uuid()`.
  func callAsFunction() -> UUID
}
