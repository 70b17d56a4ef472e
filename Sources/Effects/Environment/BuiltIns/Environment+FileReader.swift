import Foundation

/// The built-in ``Environment/fileReader`` co-effect.
package enum FileReaderKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.fileReader.rawValue }
  package static let member = "fileReader"
  package static let liveValue: any FileReader = DiskFileSystem()
  package static var testValue: any FileReader { InMemoryFileSystem() }
}

extension Environment {
  /// How files are read. Live: ``DiskFileSystem``.
  ///
  /// Setting it leaves ``fileWriter`` as it was. When the code under test both reads files and
  /// writes them through effects, give both one file system with ``useFileSystem(_:)``, so what it
  /// writes reads back.
  public var fileReader: any FileReader {
    get { self[builtIn: FileReaderKey.self] }
    set { self[builtIn: FileReaderKey.self] = newValue }
  }

  /// Reads and writes files through `files`: sets ``fileReader`` and ``fileWriter`` to the same
  /// file system, so what effects write reads back.
  ///
  /// ```swift
  /// var environment = Environment.test()
  /// environment.useFileSystem(InMemoryFileSystem(["/notes/draft.txt": "hello"]))
  /// try Interpreter.live(environment: environment).perform([.writeFile(path: "/notes/today.txt", contents: data)])
  /// #expect(try environment.fileReader.contents(atPath: "/notes/today.txt") == data)
  /// ```
  public mutating func useFileSystem(_ files: some FileReader & FileWriter) {
    fileReader = files
    fileWriter = files
  }
}
