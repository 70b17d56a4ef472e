// What Apple's compiler accepts although the Linux interfaces mark a symbol newer. Nothing here may
// be reported, guards or not; ../../../run.py checks that each `[A…]` line does hold a reference
// to a symbol newer than the floor, so that these cases are really exercised.

/// A newer protocol in a conformance list (TaskExecutor: macOS 15): only its members used in code
/// would be errors.
final class InlineExecutor: TaskExecutor {  // [A-conformance]
  func enqueue(_ job: UnownedJob) {}
}

/// `for await` calls the synthesised `next(isolation:)` (macOS 15): not written, not checked.
func sum(_ stream: AsyncStream<Int>) async -> Int {
  var total = 0
  for await value in stream {  // [A-for-await]
    total += value
  }
  return total
}

/// `&*` is a FixedWidthInteger requirement newer than the floor (macOS 15) with an older default
/// implementation, which is what Int uses.
func wrappingProduct(_ a: Int, _ b: Int) -> Int {
  a &* b  // [A-wrapping-multiply]
}
