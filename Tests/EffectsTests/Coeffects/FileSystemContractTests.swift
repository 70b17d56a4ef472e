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

  // MARK: - Paths that name no file, paths through a file, and names in NFC and NFD

  @Test(arguments: FileSystemUnderTest.allCases)
  func anEmptyPathIsRefusedByEveryOperationAndRemovesNothing(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/kept.txt", contents: Data("kept".utf8))
      let read = try #require(throws: CocoaError.self) { try reader.contents(atPath: "") }
      let write = try #require(throws: CocoaError.self) { try writer.writeFile(path: "", contents: Data("x".utf8)) }
      let remove = try #require(throws: CocoaError.self) { try writer.removeFile(path: "") }
      #expect(read.code == .fileReadInvalidFileName)
      #expect(write.code == .fileWriteInvalidFileName)
      #expect(remove.code == .fileWriteInvalidFileName)
      #expect([read, write, remove].map { $0.userInfo[NSFilePathErrorKey] as? String } == ["", "", ""])
      #expect(read.localizedDescription == #"Could not read "": the path is empty; expected the path of a file."#)
      #expect(write.localizedDescription == #"Could not write "": the path is empty; expected the path of a file."#)
      #expect(remove.localizedDescription == #"Could not remove "": the path is empty; expected the path of a file."#)
      #expect(try reader.string(atPath: root + "/kept.txt") == "kept", "removing \"\" removed every file in memory")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases, [".", "..", "/.", "/..", "/folder/.", "/folder/..", "/folder/../"])
  func aPathEndingInDotOrDotDotNamesADirectoryAndIsRefused(_ system: FileSystemUnderTest, _ tail: String) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/folder/inside.txt", contents: Data("inside".utf8))
      // Relative to the working directory as it stands, or inside the root.
      let path = tail.hasPrefix("/") ? root + tail : tail
      let last = tail.split(separator: "/").last.map(String.init) ?? tail
      let reason = #"its last component, "\#(last)", names a directory, not a file; expected the path of a file."#
      let read = try #require(throws: CocoaError.self) { try reader.contents(atPath: path) }
      #expect(read.code == .fileReadInvalidFileName)
      #expect(read.localizedDescription == "Could not read \(path): \(reason)")
      let write = try #require(throws: CocoaError.self) { try writer.writeFile(path: path, contents: Data("x".utf8)) }
      #expect(write.code == .fileWriteInvalidFileName)
      #expect(write.localizedDescription == "Could not write \(path): \(reason)")
      #expect(write.userInfo[NSFilePathErrorKey] as? String == path)
      // Removing is tried on the disk only where a regression would remove nothing but this test's
      // own directory: ".", ".." and "<root>/.." are the working directory, its parent and the
      // system's temporary directory. The check is one function for every operation and both
      // file systems, and the in-memory case tries them all.
      guard system == .inMemory || tail.hasPrefix("/folder/") || tail == "/." else { return }
      let remove = try #require(throws: CocoaError.self) { try writer.removeFile(path: path) }
      #expect(remove.code == .fileWriteInvalidFileName)
      #expect(
        remove.localizedDescription
          == """
          Could not remove \(path): its last component, "\(last)", names a directory by its place, which is refused \
          (as rm refuses it); expected the directory's own path.
          """
      )
      #expect(try reader.string(atPath: root + "/folder/inside.txt") == "inside", "nothing was removed")
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases)
  func aPathHoldingNULIsRefusedNamingThePathAndNothingIsWritten(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      let path = root + "/a\u{0}b.txt"
      let write = try #require(throws: CocoaError.self) { try writer.writeFile(path: path, contents: Data("x".utf8)) }
      let read = try #require(throws: CocoaError.self) { try reader.contents(atPath: path) }
      let remove = try #require(throws: CocoaError.self) { try writer.removeFile(path: path) }
      #expect(write.code == .fileWriteInvalidFileName)
      #expect(read.code == .fileReadInvalidFileName)
      #expect(remove.code == .fileWriteInvalidFileName)
      #expect(write.userInfo[NSFilePathErrorKey] as? String == path)
      let reason = #"a path cannot contain NUL (\0), where the system would end it; expected one without."#
      #expect(write.localizedDescription == #"Could not write \#(root)/a\0b.txt: \#(reason)"#)
      #expect(read.localizedDescription == #"Could not read \#(root)/a\0b.txt: \#(reason)"#)
      #expect(remove.localizedDescription == #"Could not remove \#(root)/a\0b.txt: \#(reason)"#)
      // The disk wrote the path's NUL as `%00`; in memory the key held it.
      for written in [root + "/a%00b.txt", root + "/a"] {
        let missing = try #require(throws: CocoaError.self) { try reader.contents(atPath: written) }
        #expect(missing.code == .fileReadNoSuchFile)
      }
    }
  }

  @Test(arguments: FileSystemUnderTest.allCases, ["/file.txt/child", "/file.txt/child/grandchild"])
  func aPathThroughAFileFailsTheSameForEveryOperation(_ system: FileSystemUnderTest, _ tail: String) throws {
    try system.withFileSystem { reader, writer, root in
      try writer.writeFile(path: root + "/file.txt", contents: Data("x".utf8))
      let path = root + tail
      let read = try #require(throws: CocoaError.self) { try reader.contents(atPath: path) }
      let write = try #require(throws: CocoaError.self) { try writer.writeFile(path: path, contents: Data("y".utf8)) }
      let remove = try #require(throws: CocoaError.self) { try writer.removeFile(path: path) }
      #expect([read.code, write.code, remove.code] == [.fileReadUnknown, .fileWriteUnknown, .fileWriteUnknown])
      #expect([read, write, remove].map { $0.userInfo[NSFilePathErrorKey] as? String } == [path, path, path])
      let reason = "a component of the path is a file; expected a directory."
      #expect(read.localizedDescription == "Could not read \(path): \(reason)")
      #expect(write.localizedDescription == "Could not write \(path): \(reason)")
      #expect(remove.localizedDescription == "Could not remove \(path): \(reason)")
      #expect(try reader.string(atPath: root + "/file.txt") == "x")
    }
  }

  /// Linux disks compare names by their bytes; APFS finds a name in either normalization, so on
  /// Apple platforms only the double is held to Linux's rule (it keeps it there too: see
  /// `InMemoryFileSystem`).
  static let scalarwiseSystems: [FileSystemUnderTest] = {
    #if canImport(Darwin)
    [.inMemory]
    #else
    FileSystemUnderTest.allCases
    #endif
  }()

  @Test(arguments: scalarwiseSystems)
  func namesInNFCAndNFDAreTwoFilesComparedByTheirScalars(_ system: FileSystemUnderTest) throws {
    try system.withFileSystem { reader, writer, root in
      let composed = root + "/caf\u{E9}.txt"
      let decomposed = root + "/cafe\u{301}.txt"
      #expect(composed == decomposed, "one String to Swift's ==: the double must not compare paths that way")
      try writer.writeFile(path: composed, contents: Data("composed".utf8))
      try writer.writeFile(path: decomposed, contents: Data("decomposed".utf8))
      #expect(try reader.string(atPath: composed) == "composed")
      #expect(try reader.string(atPath: decomposed) == "decomposed")
      try writer.removeFile(path: decomposed)
      #expect(try reader.string(atPath: composed) == "composed")
      let missing = try #require(throws: CocoaError.self) { try reader.contents(atPath: decomposed) }
      #expect(missing.code == .fileReadNoSuchFile)
      // A directory named in one form is not the other's: beneath it nothing is found, and the other
      // name is free for a file.
      try writer.writeFile(path: root + "/caf\u{E9}/inside.txt", contents: Data("inside".utf8))
      let notInside = try #require(throws: CocoaError.self) {
        try reader.contents(atPath: root + "/cafe\u{301}/inside.txt")
      }
      #expect(notInside.code == .fileReadNoSuchFile)
      try writer.writeFile(path: root + "/cafe\u{301}", contents: Data("a file".utf8))
      #expect(try reader.string(atPath: root + "/cafe\u{301}") == "a file")
      #expect(try reader.string(atPath: root + "/caf\u{E9}/inside.txt") == "inside")
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
