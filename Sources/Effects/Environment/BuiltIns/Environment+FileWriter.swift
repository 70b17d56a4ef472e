import Foundation

/// The built-in ``Environment/fileWriter`` co-effect.
package enum FileWriterKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.fileWriter.rawValue }
  package static let member = "fileWriter"
  package static let liveValue: any FileWriter = DiskFileSystem()
  package static var testValue: any FileWriter { InMemoryFileSystem() }
}

extension Environment {
  /// What `.writeFile` and `.removeFile` change. Live: ``DiskFileSystem``; in a test
  /// environment, the same ``InMemoryFileSystem`` as ``fileReader``, so what the code wrote reads
  /// back.
  ///
  /// ```swift
  /// let environment = Environment.test()
  /// try Interpreter.live(environment: environment).perform([.writeFile(path: "/a.txt", contents: data)])
  /// #expect(try environment.fileReader.contents(atPath: "/a.txt") == data)
  /// ```
  public var fileWriter: any FileWriter {
    get { self[builtIn: FileWriterKey.self] }
    set { self[builtIn: FileWriterKey.self] = newValue }
  }
}
