public import Foundation

/// The live ``FileReader`` and ``FileWriter``: the real file system, through `FileManager`.
///
/// ```swift
/// let files = DiskFileSystem()
/// try files.write(Data("123".utf8), toPath: "/tmp/number.txt")
/// let text = try files.string(atPath: "/tmp/number.txt")  // "123"
/// ```
///
/// Writes are atomic: the data goes to a temporary file beside the target, which is then renamed
/// over it, so a reader sees the old contents or the new, never a mix. Missing parent directories
/// are created. Errors are Foundation's own `CocoaError` codes, with a description that names the
/// path and what was expected there.
public struct DiskFileSystem: FileReader, FileWriter {
  /// Creates a file system that reads and writes the real disk.
  public init() {}

  /// The contents of the file at `path`.
  public func contents(atPath path: String) throws -> Data {
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw FileSystemError.describing(error, .read, path: path)
    }
  }

  /// Atomically replaces the file at `path` with `data`, creating parent directories as needed.
  public func write(_ data: Data, toPath path: String) throws {
    let url = URL(fileURLWithPath: path)
    let parent = url.deletingLastPathComponent()
    do {
      if !FileManager.default.fileExists(atPath: parent.path) {
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
      }
      try data.write(to: url, options: .atomic)
    } catch {
      throw FileSystemError.describing(error, .write, path: path)
    }
  }

  /// Removes the file or directory (with its contents) at `path`.
  public func removeItem(atPath path: String) throws {
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw FileSystemError.describing(error, .remove, path: path)
    }
  }
}
