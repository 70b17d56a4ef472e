public import Effects
public import Foundation

/// A ``KeychainStorage`` that keeps one file per key in a directory, through the file-system
/// co-effects (so it runs on Linux, where there is no system keychain, and in tests on any
/// ``FileReader`` & ``FileWriter``).
///
/// Keys are hex-encoded into file names, so any key (slashes and dots included) is safe.
public struct FileKeychainStorage: KeychainStorage {
  /// The directory holding the files.
  public let directory: String
  private let files: any FileReader & FileWriter

  /// Creates a storage in `directory`, on the real disk unless `files` says otherwise.
  public init(directory: String, files: any FileReader & FileWriter = DiskFileSystem()) {
    self.directory = directory
    self.files = files
  }

  public func data(for key: String) throws -> Data? {
    do {
      return try files.contents(atPath: path(for: key))
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return nil
    }
  }

  public func set(data: Data, for key: String) throws {
    try files.writeFile(path: path(for: key), contents: data)
  }

  /// Removes the data stored for `key`; nothing stored is not an error (removal is `rm -f`).
  public func removeData(for key: String) throws {
    try files.removeFile(path: path(for: key))
  }

  /// Removes everything stored; nothing stored yet is not an error.
  public func reset() throws {
    try files.removeFile(path: directory)
  }

  private func path(for key: String) -> String {
    directory + "/" + key.utf8.map { String(format: "%02x", $0) }.joined() + ".item"
  }
}
