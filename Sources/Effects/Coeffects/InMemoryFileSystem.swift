public import Foundation

/// A file system held in memory: the in-core double for `fileReader`, and a ``FileWriter`` too.
///
/// It is a reference type, so copies share their files: hand one to the code under test and read
/// back what it wrote.
///
/// ```swift
/// let files = InMemoryFileSystem(["/fixtures/number.txt": "123"])
/// var environment = Environment.test()
/// environment.fileReader = files
/// #expect(try environment.fileReader.string(atPath: "/fixtures/number.txt") == "123")
/// ```
///
/// Directories exist implicitly: `/fixtures` is a directory because `/fixtures/number.txt` exists.
/// Errors match ``DiskFileSystem`` code for code (a contract test suite runs both): a missing file
/// throws `CocoaError(.fileReadNoSuchFile)`, reading a directory `CocoaError(.fileReadUnknown)`,
/// each naming the path; removing a missing file succeeds, like `rm -f`. Paths are compared
/// after collapsing repeated and trailing slashes.
public final class InMemoryFileSystem: FileReader, FileWriter {
  private let storage: Locked<[String: Data]>

  /// Creates a file system holding text files, encoded as UTF-8.
  ///
  /// ```swift
  /// let files = InMemoryFileSystem(["/fixtures/number.txt": "123"])
  /// ```
  public convenience init(_ files: [String: String] = [:]) {
    self.init(data: files.mapValues { Data($0.utf8) })
  }

  /// Creates a file system holding the given bytes at the given paths.
  public init(data files: [String: Data]) {
    var normalized: [String: Data] = [:]
    for (path, contents) in files {
      normalized[Self.normalize(path)] = contents
    }
    storage = Locked(normalized)
  }

  /// Every file, by normalized path. Compare it with `==` to assert what code wrote.
  public var files: [String: Data] {
    storage.snapshot
  }

  /// Removes every file.
  public func clear() {
    storage.withLock { $0.removeAll() }
  }

  /// The contents of the file at `path`.
  public func contents(atPath path: String) throws -> Data {
    let path = Self.normalize(path)
    return try storage.withLock { files in
      if let data = files[path] { return data }
      switch Self.kind(of: path, in: files) {
      case .directory: throw FileSystemError.make(.fileReadUnknown, .read, path: path, posix: EISDIR)
      case .beneathFile: throw FileSystemError.make(.fileReadUnknown, .read, path: path, posix: ENOTDIR)
      case .missing, .file: throw FileSystemError.make(.fileReadNoSuchFile, .read, path: path, posix: ENOENT)
      }
    }
  }

  /// Replaces the file at `path` with `contents`; parent directories exist implicitly.
  public func writeFile(path: String, contents: Data) throws {
    let path = Self.normalize(path)
    try storage.withLock { files in
      switch Self.kind(of: path, in: files) {
      case .directory: throw FileSystemError.make(.fileWriteUnknown, .write, path: path, posix: EISDIR)
      case .beneathFile: throw FileSystemError.make(.fileWriteUnknown, .write, path: path, posix: ENOTDIR)
      case .missing, .file: files[path] = contents
      }
    }
  }

  /// Removes the file at `path`, or the directory at `path` with everything in it. Nothing there
  /// is not an error (like `rm -f`); a path that runs through a file is.
  public func removeFile(path: String) throws {
    let path = Self.normalize(path)
    try storage.withLock { files in
      switch Self.kind(of: path, in: files) {
      case .file: files[path] = nil
      case .directory: files = files.filter { !$0.key.hasPrefix(Self.directoryPrefix(path)) }
      case .beneathFile: throw FileSystemError.make(.fileWriteUnknown, .remove, path: path, posix: ENOTDIR)
      case .missing: break
      }
    }
  }

  private enum Kind { case file, directory, beneathFile, missing }

  private static func kind(of path: String, in files: [String: Data]) -> Kind {
    if files[path] != nil { return .file }
    let prefix = directoryPrefix(path)
    if files.keys.contains(where: { $0.hasPrefix(prefix) }) { return .directory }
    var ancestor = path
    while let slash = ancestor.lastIndex(of: "/"), slash != ancestor.startIndex {
      ancestor = String(ancestor[..<slash])
      if files[ancestor] != nil { return .beneathFile }
    }
    return .missing
  }

  private static func directoryPrefix(_ path: String) -> String {
    path == "/" ? "/" : path + "/"
  }

  static func normalize(_ path: String) -> String {
    var result = ""
    result.reserveCapacity(path.utf8.count)
    for character in path where !(character == "/" && result.last == "/") {
      result.append(character)
    }
    if result.count > 1 && result.last == "/" { result.removeLast() }
    return result
  }
}
