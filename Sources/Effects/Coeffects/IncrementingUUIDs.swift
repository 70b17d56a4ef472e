public import Foundation

/// A ``UUIDGenerator`` that counts: `00000000-0000-0000-0000-000000000000`, then
/// `00000000-0000-0000-0000-000000000001`, one per call. What `Environment.test()` answers, a fresh
/// counter for every test environment, shared by its copies.
///
/// ```swift
/// let uuids = IncrementingUUIDs()
/// uuids()  // 00000000-0000-0000-0000-000000000000
/// uuids()  // 00000000-0000-0000-0000-000000000001
/// #expect(uuids() == UUID(2))
/// ```
///
/// A reference: copies share one counter, and calls from many threads at once each get their own
/// number, none twice.
public final class IncrementingUUIDs: UUIDGenerator {
  private let count = Locked<UInt64>(0)

  /// A counter whose first identifier is `UUID(0)`.
  public init() {}

  /// The next identifier: `UUID(n)` on the n-th call, counting from 0.
  public func callAsFunction() -> UUID {
    UUID(
      count.withLock { count in
        defer { count += 1 }
        return count
      }
    )
  }
}
