/// An append-only list of a spy's inputs.
///
/// A spy's calls run as unspecialized generic code, where appending to an `[Input]` looks up the
/// metadata of `Array<Input>` on every call — the largest cost of a call. This class appends
/// through a pointer instead, with the element's metadata at hand. It is not thread-safe on its
/// own: a spy only touches it under its lock.
///
/// The unsafe pointer pays for itself in the benchmark `spy-record`, against the same class over a
/// plain `[Element]`.
final class CallBuffer<Element> {
  private var base: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 16
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  func append(_ element: Element) {
    if count == capacity {
      let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
      grown.moveInitialize(from: base, count: count)
      base.deallocate()
      base = grown
      capacity *= 2
    }
    (base + count).initialize(to: element)
    count += 1
  }

  /// Forgets every element, handing them back: a spy drops them once it has unlocked, since an
  /// input's `deinit` may call the spy.
  func removeAll() -> [Element] {
    let removed = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
      buffer.baseAddress?.moveInitialize(from: base, count: count)
      initialized = count
    }
    count = 0
    return removed
  }

  /// Every element, oldest first.
  var elements: [Element] {
    Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// The newest element.
  var last: Element? {
    count == 0 ? nil : base[count - 1]
  }
}
