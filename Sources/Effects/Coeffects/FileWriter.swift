public import Foundation

/// Writing and removing files: the output side of the file system.
///
/// App code describes writes as effects (`Effect.writeFile`), and the interpreter performs them
/// through a `FileWriter`. A conforming type must:
/// - replace the whole file in one step (a reader never sees half a write), and leave nothing
///   behind when a write fails;
/// - create missing parent directories;
/// - succeed when asked to remove a path where nothing exists (like `rm -f`), and throw when the
///   path cannot be reached (a component of it is a file).
///
/// ``DiskFileSystem`` is the live writer; ``InMemoryFileSystem`` is both reader and writer, so a
/// test can read back what was written.
public protocol FileWriter: Sendable {
  /// Writes `data` to `path`, replacing any file there.
  func write(_ data: Data, toPath path: String) throws

  /// Removes the file or directory at `path`; nothing there is not an error.
  func removeItem(atPath path: String) throws
}
