public import Foundation

/// The live ``FileReader`` and ``FileWriter``: the real file system, through `FileManager`.
///
/// ```swift
/// let files = DiskFileSystem()
/// try files.writeFile(path: "/tmp/number.txt", contents: Data("123".utf8))
/// let text = try files.string(atPath: "/tmp/number.txt")  // "123"
/// ```
///
/// Writes are atomic: the data goes to a temporary file beside the target, which is then renamed
/// over it, so a reader sees the old contents or the new, never a mix; when the write fails, the
/// temporary file is removed. Missing parent directories are created. Removing a directory removes
/// everything in it, and removing a path where nothing exists succeeds, like `rm -rf`. Errors are Foundation's own `CocoaError` codes, with a
/// description that names the path and says, in plain words, what was expected there.
///
/// A path that names no file — empty, holding NUL, or ending in `.` or `..` — is refused before
/// the disk is touched, by every operation (see ``FileReader``): Foundation would write a NUL as
/// `%00`, and removing `dir/..` would remove the parent.
public struct DiskFileSystem: FileReader, FileWriter {
  /// Creates a file system that reads and writes the real disk.
  public init() {}

  /// The contents of the file at `path`.
  public func contents(atPath path: String) throws -> Data {
    if let invalid = FileSystemError.invalidPath(path, .read) { throw invalid }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw FileSystemError.describing(error, .read, path: path)
    }
  }

  /// Atomically replaces the file at `path` with `contents`, creating parent directories as needed.
  ///
  /// The bytes are written to a hidden temporary file in the same directory, which is then renamed
  /// over `path` in one step. The file keeps the permissions of the one it replaces (a `0600` token
  /// stays `0600`). If anything fails, the temporary file is removed before the error is thrown: a
  /// failed write leaves the directory as it found it. A symbolic link at `path` is replaced by the
  /// file, not followed.
  public func writeFile(path: String, contents: Data) throws {
    if let invalid = FileSystemError.invalidPath(path, .write) { throw invalid }
    let url = URL(fileURLWithPath: path)
    let parent = url.deletingLastPathComponent()
    // Short, whatever the target's name: a long name plus a suffix would pass the name limit.
    let temporary = parent.appendingPathComponent(".swift-effects-\(UUID().uuidString.prefix(8)).tmp")
    do {
      if !FileManager.default.fileExists(atPath: parent.path) {
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
      }
      try contents.write(to: temporary)
      var replaced = stat()
      if stat(url.path, &replaced) == 0 {
        _ = chmod(temporary.path, replaced.st_mode & 0o7777)
      }
      if rename(temporary.path, url.path) != 0 {
        let code = errno
        throw FileSystemError.make(.fileWriteUnknown, .write, path: path, posix: code)
      }
    } catch {
      _ = unlink(temporary.path)
      throw FileSystemError.describing(error, .write, path: path, replacingPath: true)
    }
  }

  /// Removes the file or directory (with its contents) at `path`. Nothing there is not an error:
  /// like `rm -rf`, the path is gone either way. A path that runs through a file still fails.
  public func removeFile(path: String) throws {
    if let invalid = FileSystemError.invalidPath(path, .remove) { throw invalid }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      var status = stat()
      if lstat(path, &status) != 0 && errno == ENOENT { return }
      throw FileSystemError.describing(error, .remove, path: path)
    }
  }
}
