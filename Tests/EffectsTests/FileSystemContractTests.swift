import Effects
import Foundation
import Testing

/// One suite, run against the live file system and the in-memory double: the double is proven,
/// not trusted.
@Suite("FileReader and FileWriter contract")
struct FileSystemContractTests {
  @Test(arguments: FileSystemUnderTest.allCases)
  func aWrittenFileReadsBackTheSameBytes(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      let bytes = Data([0, 1, 2, 254, 255])
      try writer.writeFile(path: root + "/a.bin", contents: bytes)
      #expect(try reader.contents(atPath: root + "/a.bin") == bytes)
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func writingAgainReplacesTheWholeFile(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/note.txt", contents: Data("a much longer first version".utf8))
      try writer.writeFile(path: root + "/note.txt", contents: Data("short".utf8))
      #expect(try reader.string(atPath: root + "/note.txt") == "short")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func writingCreatesMissingParentDirectories(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/a/b/c.txt", contents: Data("deep".utf8))
      #expect(try reader.string(atPath: root + "/a/b/c.txt") == "deep")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func readingAMissingFileThrowsFileReadNoSuchFileNamingThePath(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, _, root in
      let error = try #require(throws: CocoaError.self) { try reader.contents(atPath: root + "/missing.txt") }
      #expect(error.code == .fileReadNoSuchFile)
      #expect((error as NSError).domain == NSCocoaErrorDomain)
      #expect(error.userInfo[NSFilePathErrorKey] as? String == root + "/missing.txt")
      #expect(error.localizedDescription == "Could not read \(root)/missing.txt: no file exists at this path.")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func readingADirectoryThrowsFileReadUnknown(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/folder/file.txt", contents: Data("x".utf8))
      let error = try #require(throws: CocoaError.self) { try reader.contents(atPath: root + "/folder") }
      #expect(error.code == .fileReadUnknown)
      #expect(error.userInfo[NSFilePathErrorKey] as? String == root + "/folder")
      #expect(error.localizedDescription == "Could not read \(root)/folder: it is a directory; expected a file.")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func readingAPathThatRunsThroughAFileThrowsFileReadUnknown(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/file.txt", contents: Data("x".utf8))
      let error = try #require(throws: CocoaError.self) { try reader.contents(atPath: root + "/file.txt/child") }
      #expect(error.code == .fileReadUnknown)
      #expect(error.localizedDescription.hasSuffix("a component of the path is a file; expected a directory."))
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func aRemovedFileIsGone(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/gone.txt", contents: Data("x".utf8))
      try writer.removeFile(path: root + "/gone.txt")
      let error = try #require(throws: CocoaError.self) { try reader.contents(atPath: root + "/gone.txt") }
      #expect(error.code == .fileReadNoSuchFile)
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func removingADirectoryRemovesWhatIsInIt(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/folder/a.txt", contents: Data("x".utf8))
      try writer.writeFile(path: root + "/folder/sub/b.txt", contents: Data("y".utf8))
      try writer.removeFile(path: root + "/folder")
      #expect(throws: CocoaError.self) { try reader.contents(atPath: root + "/folder/sub/b.txt") }
      let error = try #require(throws: CocoaError.self) { try reader.contents(atPath: root + "/folder") }
      #expect(error.code == .fileReadNoSuchFile)
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func removingAMissingFileSucceedsLikeRmF(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.removeFile(path: root + "/missing.txt")
      try writer.removeFile(path: root + "/missing-folder/missing.txt")
      #expect(throws: CocoaError.self) { try reader.contents(atPath: root + "/missing.txt") }
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func removingAPathThatRunsThroughAFileFailsNamingThePath(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/file.txt", contents: Data("x".utf8))
      let error = try #require(throws: CocoaError.self) { try writer.removeFile(path: root + "/file.txt/child") }
      #expect(error.code == .fileWriteUnknown)
      #expect(error.userInfo[NSFilePathErrorKey] as? String == root + "/file.txt/child")
      #expect(
        error.localizedDescription
          == "Could not remove \(root)/file.txt/child: a component of the path is a file; expected a directory."
      )
      #expect(try reader.string(atPath: root + "/file.txt") == "x")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func writingBeneathAFileFailsNamingThePathInPlainWords(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { _, writer, root in
      try writer.writeFile(path: root + "/file.txt", contents: Data("x".utf8))
      let error = try #require(throws: CocoaError.self) {
        try writer.writeFile(path: root + "/file.txt/child", contents: Data("y".utf8))
      }
      #expect(error.code == .fileWriteUnknown)
      #expect(
        error.localizedDescription
          == "Could not write \(root)/file.txt/child: a component of the path is a file; expected a directory."
      )
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func writingOntoADirectoryFailsAndKeepsItsContents(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/folder/a.txt", contents: Data("x".utf8))
      let error = try #require(throws: CocoaError.self) {
        try writer.writeFile(path: root + "/folder", contents: Data("y".utf8))
      }
      #expect(error.code == .fileWriteUnknown)
      #expect(try reader.string(atPath: root + "/folder/a.txt") == "x")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func textThatIsNotValidInTheEncodingThrowsNamingThePathAndEncoding(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/binary.dat", contents: Data([0xFF, 0xFE, 0xC0]))
      let error = try #require(throws: CocoaError.self) { try reader.string(atPath: root + "/binary.dat") }
      #expect(error.code == .fileReadInapplicableStringEncoding)
      #expect(error.localizedDescription.contains(root + "/binary.dat"))
      #expect(error.localizedDescription.contains("expected text in that encoding"))
    }
  }
}

/// What only the disk can get wrong: the temporary file of an atomic write.
struct DiskFileSystemAtomicWriteTests {
  /// Runs `body` in a fresh temporary directory, removed afterwards.
  private func inTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("swift-effects-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try body(root)
  }

  @Test func aSuccessfulWriteLeavesOnlyTheFile() throws {
    try inTemporaryDirectory { root in
      try DiskFileSystem().writeFile(path: root + "/a.txt", contents: Data("a".utf8))
      try DiskFileSystem().writeFile(path: root + "/a.txt", contents: Data("b".utf8))
      #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["a.txt"])
    }
  }

  @Test func aWriteThatFailsAtTheRenameLeavesNoTemporaryFile() throws {
    try inTemporaryDirectory { root in
      // The bytes reach the temporary file; renaming it over a non-empty directory fails.
      try DiskFileSystem().writeFile(path: root + "/folder/inside.txt", contents: Data("x".utf8))
      let error = try #require(throws: CocoaError.self) {
        try DiskFileSystem().writeFile(path: root + "/folder", contents: Data("y".utf8))
      }
      #expect(error.code == .fileWriteUnknown)
      #expect(error.localizedDescription.hasPrefix("Could not write \(root)/folder: "))
      #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["folder"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/folder") == ["inside.txt"])
    }
  }

  @Test func aWriteThatFailsBeforeTheTemporaryFileExistsLeavesNothingAndNamesTheTarget() throws {
    try inTemporaryDirectory { root in
      try DiskFileSystem().writeFile(path: root + "/file.txt", contents: Data("x".utf8))
      let error = try #require(throws: CocoaError.self) {
        try DiskFileSystem().writeFile(path: root + "/file.txt/child", contents: Data("y".utf8))
      }
      #expect(error.userInfo[NSFilePathErrorKey] as? String == root + "/file.txt/child")
      #expect(!error.localizedDescription.contains(".tmp"), "the temporary file is never named")
      #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["file.txt"])
    }
  }

  @Test func aReplacedFileKeepsItsPermissions() throws {
    try inTemporaryDirectory { root in
      let path = root + "/token"
      try DiskFileSystem().writeFile(path: path, contents: Data("old".utf8))
      #expect(chmod(path, 0o600) == 0)
      try DiskFileSystem().writeFile(path: path, contents: Data("new".utf8))
      var status = stat()
      #expect(stat(path, &status) == 0)
      #expect(status.st_mode & 0o777 == 0o600)
      #expect(try DiskFileSystem().string(atPath: path) == "new")
    }
  }

  @Test func aFileWithTheLongestNameTheDiskAllowsIsWritten() throws {
    try inTemporaryDirectory { root in
      let path = root + "/" + String(repeating: "n", count: 250) + ".txt"
      try DiskFileSystem().writeFile(path: path, contents: Data("long".utf8))
      #expect(try DiskFileSystem().string(atPath: path) == "long")
      #expect(try FileManager.default.contentsOfDirectory(atPath: root).count == 1)
    }
  }
}
