/// An importer that fetches items side by side and makes a thumbnail of each as it arrives: the
/// pipeline shape, many tasks started and ended in each case.
///
/// Each item is fetched in a child task of a task group, taking 10, 20, 30 or 40 ms (by the item's
/// number); the group hands each item back on the main actor, which starts an unstructured task
/// making its thumbnail in 5 ms. Importing 32 items starts 65 tasks.
@MainActor public final class Importer {
  private let sleep: @Sendable (Duration) async throws -> Void
  public private(set) var imported: [Int] = []
  public private(set) var thumbnails = 0

  public init(sleep: @escaping @Sendable (Duration) async throws -> Void) {
    self.sleep = sleep
  }

  /// Starts importing `items`; the task ends once every item is imported (not its thumbnail).
  public func start(_ items: Range<Int>) -> Task<Void, Never> {
    Task {
      await withTaskGroup(of: Int?.self) { group in
        for item in items {
          group.addTask { [sleep] in
            do { try await sleep(.milliseconds(10 * (item % 4 + 1))) } catch { return nil }
            return item
          }
        }
        for await item in group {
          guard let item else { continue }
          imported.append(item)
          makeThumbnail()
        }
      }
    }
  }

  private func makeThumbnail() {
    Task { [sleep] in
      do { try await sleep(.milliseconds(5)) } catch { return }
      thumbnails += 1
    }
  }
}
