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
/// a path that names no file (empty, holding NUL, ending in `.` or `..`)
/// `CocoaError(.fileReadInvalidFileName)` or `.fileWriteInvalidFileName`, each naming the path;
/// removing a directory removes everything in it, and removing a missing file succeeds, like
/// `rm -rf`.
///
/// Paths are compared after collapsing repeated and trailing slashes, and then by their Unicode
/// scalars, as Linux compares file names (by their bytes) — not by `String`'s `==`, under which
/// `"café"` composed (NFC, `é` as one scalar) and decomposed (NFD, `e` and a combining accent)
/// are equal. So those are two files here, as on a Linux disk, and a test that writes one and
/// reads the other fails here as it would there. (APFS on Apple platforms finds either spelling,
/// but keeps the one it was given: code that relies on that breaks on Linux, and this double says
/// so on every platform.) ``files`` is keyed by ``Path``, which compares the same way.
public final class InMemoryFileSystem: FileReader, FileWriter {
  private let storage: Locked<[Path: Data]>

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
    var normalized: [Path: Data] = [:]
    for (path, contents) in files {
      normalized[Path(Self.normalize(path))] = contents
    }
    storage = Locked(normalized)
  }

  /// Every file, by normalized path. Compare it with `==` to assert what code wrote:
  ///
  /// ```swift
  /// #expect(files.files == ["/notes/today.txt": Data("hi".utf8)])
  /// ```
  public var files: [Path: Data] {
    storage.snapshot
  }

  /// Removes every file.
  public func clear() {
    storage.withLock { $0.removeAll() }
  }

  /// The contents of the file at `path`.
  public func contents(atPath path: String) throws -> Data {
    if let invalid = FileSystemError.invalidPath(path, .read) { throw invalid }
    let path = Path(Self.normalize(path))
    return try storage.withLock { files in
      if let data = files[path] { return data }
      switch Self.kind(of: path, in: files) {
      case .directory: throw FileSystemError.make(.fileReadUnknown, .read, path: path.string, posix: EISDIR)
      case .beneathFile: throw FileSystemError.make(.fileReadUnknown, .read, path: path.string, posix: ENOTDIR)
      case .missing, .file: throw FileSystemError.make(.fileReadNoSuchFile, .read, path: path.string, posix: ENOENT)
      }
    }
  }

  /// Replaces the file at `path` with `contents`; parent directories exist implicitly.
  public func writeFile(path: String, contents: Data) throws {
    if let invalid = FileSystemError.invalidPath(path, .write) { throw invalid }
    let path = Path(Self.normalize(path))
    try storage.withLock { files in
      switch Self.kind(of: path, in: files) {
      case .directory: throw FileSystemError.make(.fileWriteUnknown, .write, path: path.string, posix: EISDIR)
      case .beneathFile: throw FileSystemError.make(.fileWriteUnknown, .write, path: path.string, posix: ENOTDIR)
      case .missing, .file: files[path] = contents
      }
    }
  }

  /// Removes the file at `path`, or the directory at `path` with everything in it. Nothing there
  /// is not an error (like `rm -rf`); a path that runs through a file is, and so is one that names
  /// no file (empty, holding NUL, ending in `.` or `..`).
  public func removeFile(path: String) throws {
    if let invalid = FileSystemError.invalidPath(path, .remove) { throw invalid }
    let path = Path(Self.normalize(path))
    try storage.withLock { files in
      switch Self.kind(of: path, in: files) {
      case .file: files[path] = nil
      case .directory:
        let prefix = Self.directoryPrefix(path)
        files = files.filter { !$0.key.string.utf8.starts(with: prefix) }
      case .beneathFile: throw FileSystemError.make(.fileWriteUnknown, .remove, path: path.string, posix: ENOTDIR)
      case .missing: break
      }
    }
  }

  private enum Kind { case file, directory, beneathFile, missing }

  /// What is at `path`, every comparison by bytes (a `/` is one byte, never part of another
  /// scalar, and a combining accent after it does not hide it as it would inside a `Character`).
  private static func kind(of path: Path, in files: [Path: Data]) -> Kind {
    if files[path] != nil { return .file }
    let prefix = directoryPrefix(path)
    if files.keys.contains(where: { $0.string.utf8.starts(with: prefix) }) { return .directory }
    var ancestor = Array(path.string.utf8)
    while let slash = ancestor.lastIndex(of: UInt8(ascii: "/")), slash != 0 {
      ancestor.removeSubrange(slash...)
      if files[Path(String(decoding: ancestor, as: UTF8.self))] != nil { return .beneathFile }
    }
    return .missing
  }

  /// The bytes every path inside the directory `path` starts with.
  private static func directoryPrefix(_ path: Path) -> [UInt8] {
    path.string == "/" ? Array("/".utf8) : Array(path.string.utf8) + Array("/".utf8)
  }

  /// `path` with repeated slashes collapsed and a trailing one dropped, its scalars kept as they
  /// are.
  static func normalize(_ path: String) -> String {
    let slash = UInt8(ascii: "/")
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for byte in path.utf8 where !(byte == slash && bytes.last == slash) {
      bytes.append(byte)
    }
    if bytes.count > 1 && bytes.last == slash { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }
}
