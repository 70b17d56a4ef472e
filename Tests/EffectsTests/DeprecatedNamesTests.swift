import Effects
import Foundation
import Testing

/// Each deprecated name, called from a deprecated witness: the tests below call them through this
/// protocol, so they compile without deprecation warnings.
private protocol OldNames {
  func write(_ line: String, to console: any Console)
  func log(name: String, properties: [String: String], to events: any EventLogging)
  func write(_ data: Data, toPath path: String, with writer: any FileWriter) throws
  func removeItem(atPath path: String, with writer: any FileWriter) throws
}

private struct OldSpellings: OldNames {
  @available(*, deprecated)
  func write(_ line: String, to console: any Console) { console.write(line) }

  @available(*, deprecated)
  func log(name: String, properties: [String: String], to events: any EventLogging) {
    events.log(name: name, properties: properties)
  }

  @available(*, deprecated)
  func write(_ data: Data, toPath path: String, with writer: any FileWriter) throws {
    try writer.write(data, toPath: path)
  }

  @available(*, deprecated)
  func removeItem(atPath path: String, with writer: any FileWriter) throws {
    try writer.removeItem(atPath: path)
  }
}

/// Every deprecated spelling still does what its new name does.
@Suite struct DeprecatedNamesTests {
  private let old: any OldNames = OldSpellings()

  @Test func consoleWriteIsPrint() {
    let console = InMemoryConsole()
    old.write("hi", to: console)
    #expect(console.lines == ["hi"])
  }

  @Test func eventLoggingLogIsTrack() {
    let events = InMemoryEventLog()
    old.log(name: "visited", properties: ["id": "7"], to: events)
    #expect(events.events == [.init(name: "visited", properties: ["id": "7"])])
  }

  @Test func fileWriterWriteToPathIsWriteFile() throws {
    let files = InMemoryFileSystem()
    try old.write(Data("hi".utf8), toPath: "/notes/today.txt", with: files)
    #expect(files.files == ["/notes/today.txt": Data("hi".utf8)])
  }

  @Test func fileWriterRemoveItemIsRemoveFile() throws {
    let files = InMemoryFileSystem(["/notes/today.txt": "hi", "/notes/other.txt": "x"])
    try old.removeItem(atPath: "/notes/today.txt", with: files)
    #expect(files.files == ["/notes/other.txt": Data("x".utf8)])
  }
}
