import Effects
import Foundation
import Testing

/// A file system for a contract test: the live one inside a fresh temporary directory, or the
/// in-memory one. Both are reached through the same protocols, so the test cannot tell them apart.
enum FileSystemUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case disk
  case inMemory

  var testDescription: String { rawValue }

  /// Runs `body` with a reader, a writer, and a root directory that exists and is empty;
  /// the disk's temporary directory is removed afterwards.
  func withFileSystem(
    _ body: (_ reader: any FileReader, _ writer: any FileWriter, _ root: String) throws -> Void
  ) throws {
    switch self {
    case .disk:
      let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("swift-effects-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: root) }
      let files = DiskFileSystem()
      try body(files, files, root)
    case .inMemory:
      let files = InMemoryFileSystem()
      try files.writeFile(path: "/root/.keep", contents: Data())
      try body(files, files, "/root")
    }
  }
}
