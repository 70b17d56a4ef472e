import Effects
import Foundation
import Testing

/// `InMemoryFileSystem.Path`: paths compared by their Unicode scalars, as Linux compares names, so
/// `files` can hold "café" composed and decomposed as the two files they are on a Linux disk.
@Suite struct InMemoryFileSystemPathTests {
  private let composed = "/notes/caf\u{E9}.txt"
  private let decomposed = "/notes/cafe\u{301}.txt"

  @Test func filesListsNamesInNFCAndNFDAsTwoFilesSortedByTheirScalars() throws {
    let files = InMemoryFileSystem()
    try files.writeFile(path: composed, contents: Data("composed".utf8))
    try files.writeFile(path: decomposed, contents: Data("decomposed".utf8))
    #expect(files.files.count == 2, "one String key for both, under String's ==")
    #expect(
      files.files == [
        InMemoryFileSystem.Path(composed): Data("composed".utf8),
        InMemoryFileSystem.Path(decomposed): Data("decomposed".utf8),
      ]
    )
    // "e" (0x65) comes before "é" (U+00E9): the decomposed name sorts first.
    #expect(
      files.files.keys.sorted().map { Array($0.string.unicodeScalars) } == [
        Array(decomposed.unicodeScalars), Array(composed.unicodeScalars),
      ]
    )
    #expect(files.files.keys.sorted() == ["/notes/cafe\u{301}.txt", "/notes/caf\u{E9}.txt"])
  }

  @Test func pathsAreEqualOnlyWithTheSameScalarsAndReadAsTheirString() {
    let nfc = InMemoryFileSystem.Path(composed)
    let nfd = InMemoryFileSystem.Path(decomposed)
    #expect(composed == decomposed)
    #expect(nfc != nfd)
    #expect(Set([nfc, nfd, InMemoryFileSystem.Path(composed)]).count == 2)
    #expect(nfc == "/notes/caf\u{E9}.txt")
    #expect(nfc.description == composed)
    #expect(nfd.string.unicodeScalars.count == composed.unicodeScalars.count + 1)
    #expect(InMemoryFileSystem.Path("/a\"b").debugDescription == #""/a\"b""#)
  }

  @Test func repeatedAndTrailingSlashesStillCollapseWithoutMergingACombiningAccentIntoASlash() throws {
    let files = InMemoryFileSystem()
    // A combining accent right after a slash makes one `Character` with it: slashes are found by
    // their byte, so the path still has its directory.
    try files.writeFile(path: "/notes//\u{301}x.txt/", contents: Data("x".utf8))
    #expect(files.files.keys.map(\.string) == ["/notes/\u{301}x.txt"])
    #expect(try files.string(atPath: "/notes/\u{301}x.txt") == "x")
    let error = try #require(throws: CocoaError.self) { try files.contents(atPath: "/notes") }
    #expect(error.localizedDescription == "Could not read /notes: it is a directory; expected a file.")
  }
}
