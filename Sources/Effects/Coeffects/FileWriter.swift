public import Foundation

/// Writing and removing files: the output side of the file system.
///
/// App code describes writes as effects, and the live interpreter performs each through the method
/// of the same name and labels: `.writeFile(path:contents:)` as ``writeFile(path:contents:)``,
/// `.removeFile(path:)` as ``removeFile(path:)``. A conforming type must:
/// - replace the whole file in one step (a reader never sees half a write), and leave nothing
///   behind when a write fails;
/// - create missing parent directories;
/// - remove a directory with everything in it, succeed when asked to remove a path where nothing
///   exists (like `rm -rf`), and throw when the path cannot be reached (a component of it is a
///   file);
/// - refuse, writing or removing nothing, a path that names no file — empty, holding NUL, or ending
///   in `.` or `..` — with `CocoaError(.fileWriteInvalidFileName)` naming it.
///
/// ``DiskFileSystem`` is the live writer; ``InMemoryFileSystem`` is both reader and writer, so a
/// test can read back what was written:
///
/// ```swift
/// let files = InMemoryFileSystem()
/// try files.writeFile(path: "/notes/today.txt", contents: Data("hi".utf8))
/// #expect(try files.string(atPath: "/notes/today.txt") == "hi")
/// ```
public protocol FileWriter: Sendable {
  /// Replaces the file at `path` with `contents`.
  func writeFile(path: String, contents: Data) throws

  /// Removes the file at `path` (a directory with everything in it); nothing there is not an
  /// error.
  func removeFile(path: String) throws
}
