extension InMemoryFileSystem {
  /// A path as ``InMemoryFileSystem`` compares it: by its Unicode scalars, as Linux compares file
  /// names, not by `String`'s `==` (canonical equivalence, under which `"café"` composed and
  /// decomposed are one string). The key of ``InMemoryFileSystem/files``; write it as a string
  /// literal:
  ///
  /// ```swift
  /// #expect(files.files == ["/notes/today.txt": Data("hi".utf8)])
  /// #expect(files.files.keys.sorted() == ["/notes/a.txt", "/notes/b.txt"])
  /// ```
  ///
  /// Paths sort by their scalars' values (as `ls` sorts in the C locale), which agrees with `==`.
  public struct Path: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible,
    CustomDebugStringConvertible
  {
    /// The path, its scalars as they were given.
    public let string: String

    /// The path `string`, compared by its scalars.
    public init(_ string: String) {
      self.string = string
    }

    /// The path written as a literal.
    public init(stringLiteral string: String) {
      self.init(string)
    }

    /// Whether the two paths have the same Unicode scalars (the same UTF-8 bytes).
    public static func == (lhs: Path, rhs: Path) -> Bool {
      lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    /// Whether `lhs` comes first, by its scalars' values.
    public static func < (lhs: Path, rhs: Path) -> Bool {
      lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    /// Hashes the path's bytes, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
      for byte in string.utf8 { hasher.combine(byte) }
      hasher.combine(string.utf8.count)
    }

    /// The path as it was given.
    public var description: String { string }

    /// The path as a string literal: `"/notes/today.txt"`.
    public var debugDescription: String { string.debugDescription }
  }
}
