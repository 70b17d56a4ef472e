public import Foundation

extension UUID {
  /// The identifier whose last 16 hexadecimal digits are `number`:
  /// `UUID(1)` is `00000000-0000-0000-0000-000000000001`, `UUID(255)` is
  /// `00000000-0000-0000-0000-0000000000FF`. What ``IncrementingUUIDs`` answers on its call
  /// number `number` (counting from 0), so a test states the identifiers it expects:
  ///
  /// ```swift
  /// #expect(newTodo("Milk").id == UUID(0))
  /// ```
  public init(_ number: UInt64) {
    let b = withUnsafeBytes(of: number.bigEndian) { Array($0) }
    self.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
  }
}
