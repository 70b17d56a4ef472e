import Effects
import Foundation
import Testing

@Suite struct InMemoryFileSystemTests {
  @Test func copiesShareTheirFiles() throws {
    let files = InMemoryFileSystem()
    let copy = files
    try copy.writeFile(path: "/a.txt", contents: Data("shared".utf8))
    #expect(files.files == ["/a.txt": Data("shared".utf8)])
  }

  @Test func pathsAreComparedAfterCollapsingRepeatedAndTrailingSlashes() throws {
    let files = InMemoryFileSystem(["//fixtures///number.txt": "123"])
    #expect(try files.string(atPath: "/fixtures/number.txt") == "123")
    #expect(try files.string(atPath: "/fixtures/number.txt/") == "123")
    #expect(files.files.keys.sorted() == ["/fixtures/number.txt"])
  }

  @Test func clearRemovesEveryFile() throws {
    let files = InMemoryFileSystem(["/a": "1", "/b": "2"])
    files.clear()
    #expect(files.files.isEmpty)
    #expect(throws: CocoaError.self) { try files.contents(atPath: "/a") }
  }

  @Test func aMissingFileErrorDescribesThePath() {
    let files = InMemoryFileSystem()
    #expect(throws: CocoaError.self) { try files.contents(atPath: "/nowhere/number.txt") }
    do {
      _ = try files.contents(atPath: "/nowhere/number.txt")
    } catch {
      #expect(error.localizedDescription.contains("number.txt"))
    }
  }
}
