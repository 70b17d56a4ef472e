import Foundation

/// The current order: a small, thread-safe holder of items.
public final class OrderController: @unchecked Sendable {
  private let lock = NSLock()
  private var storedItems: [MenuItem]

  /// Creates an order holding `items`.
  public init(items: [MenuItem] = []) {
    storedItems = items
  }

  /// The items in the order.
  public var items: [MenuItem] { lock.withLock { storedItems } }

  /// Adds `item`.
  public func add(_ item: MenuItem) { lock.withLock { storedItems.append(item) } }

  /// Removes every occurrence of `item`.
  public func remove(_ item: MenuItem) { lock.withLock { storedItems.removeAll { $0 == item } } }
}
