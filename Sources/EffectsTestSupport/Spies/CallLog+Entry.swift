extension CallLog {
  /// One logged call: who was called, and with what.
  ///
  /// A spy logs its name and its input (`String(describing:)`); a recorded environment logs the
  /// co-effect read and the resource, path or key it read (see `Environment.recording(into:)`).
  ///
  /// ```swift
  /// log.assertCalls([
  ///   .init("tokenStore.save", "abc"),
  ///   .init("clock.now"),
  /// ])
  /// ```
  public struct Entry: Hashable, Sendable {
    /// Who was called: a spy's name, or a co-effect such as `"fileReader.contents"`.
    public var name: String
    /// What it was called with: a spy's input, a resource name, a path, a key; empty when there
    /// is nothing to name.
    public var description: String

    /// Creates an entry, as it is logged.
    public init(_ name: String, _ description: String = "") {
      self.name = name
      self.description = description
    }

    /// `name(description)`, or `name` alone, for failure messages.
    var rendered: String {
      description.isEmpty ? name : "\(name)(\(description))"
    }
  }
}
