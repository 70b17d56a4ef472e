/// A value, plus the effects that should happen because of it: what a pure decision returns.
///
/// A function that returns an `Outcome` decides *what* should happen without doing it, so it can
/// be tested by comparing values. An ``Interpreter`` performs the effects later, at the boundary.
///
/// ```swift
/// func compute(file: String, environment: Environment = .current) -> Outcome<Int, Effect> {
///   guard let path = environment.bundle.path(forResource: file, ofType: nil),
///     let text = try? environment.fileReader.string(atPath: path),
///     let number = Int(text)
///   else { return Outcome(value: 0, effects: [.print("No number in \(file)")]) }
///   return Outcome(value: number * number, effects: [.print("Computed: \(number * number)")])
/// }
///
/// @Test func computesTheSquareAndSaysSo() {
///   var environment = Environment.test()
///   environment.bundle = FixtureBundle(["number.txt": "/fixtures/number.txt"])
///   environment.fileReader = InMemoryFileSystem(["/fixtures/number.txt": "123"])
///   #expect(compute(file: "number.txt", environment: environment) == Outcome(value: 15129, effects: [.print("Computed: 15129")]))
/// }
/// ```
///
/// `E` is any effect type: the built-in ``Effect`` or an app's own enum. Outcomes compose with
/// ``map(_:)`` and ``flatMap(_:)``, which keep every effect, in order. An outcome is `Equatable`,
/// `Hashable` and `Sendable` when its value and effects are.
public struct Outcome<Value, E> {
  /// The result of the decision.
  public var value: Value

  /// The effects to perform, in order.
  public var effects: [E]

  /// Creates an outcome of `value` with `effects` to perform, in order.
  public init(value: Value, effects: [E]) {
    self.value = value
    self.effects = effects
  }

  /// An outcome with no effects.
  ///
  /// ```swift
  /// guard !note.isEmpty else { return .pure(false) }
  /// ```
  public static func pure(_ value: Value) -> Self {
    Self(value: value, effects: [])
  }

  /// Transforms the value and keeps the effects.
  ///
  /// ```swift
  /// let message = compute(file: "number.txt").map { "The square is \($0)" }
  /// ```
  public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Outcome<NewValue, E> {
    Outcome<NewValue, E>(value: try transform(value), effects: effects)
  }

  /// Continues with another decision made from the value; its effects come after this outcome's.
  ///
  /// ```swift
  /// let saved = compute(file: "number.txt").flatMap { square in
  ///   Outcome(value: square, effects: [.setDefault(.int(square), for: "lastSquare")])
  /// }
  /// // saved.effects: [.print("Computed: 15129"), .setDefault(15129, for: "lastSquare")]
  /// ```
  public func flatMap<NewValue>(
    _ transform: (Value) throws -> Outcome<NewValue, E>
  ) rethrows -> Outcome<NewValue, E> {
    let next = try transform(value)
    return Outcome<NewValue, E>(value: next.value, effects: effects + next.effects)
  }
}

extension Outcome: Equatable where Value: Equatable, E: Equatable {}

extension Outcome: Hashable where Value: Hashable, E: Hashable {}

extension Outcome: Sendable where Value: Sendable, E: Sendable {}
