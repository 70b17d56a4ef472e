public import Foundation

extension FileWriter {
  /// Replaces the file at `path` with `data`: the old name of ``writeFile(path:contents:)``.
  ///
  /// The requirement is now named like the effect it performs,
  /// ``Effect/writeFile(path:contents:)``, path first. A conforming type implements
  /// `writeFile(path:contents:)` instead of `write(_:toPath:)`.
  @available(*, deprecated, message: "use writeFile(path:contents:), which takes the path first")
  public func write(_ data: Data, toPath path: String) throws {
    try writeFile(path: path, contents: data)
  }

  /// Removes the file at `path`: the old name of ``removeFile(path:)``.
  ///
  /// The requirement is now named like the effect it performs, ``Effect/removeFile(path:)``. A
  /// conforming type implements `removeFile(path:)` instead of `removeItem(atPath:)`.
  @available(*, deprecated, renamed: "removeFile(path:)")
  public func removeItem(atPath path: String) throws {
    try removeFile(path: path)
  }
}
