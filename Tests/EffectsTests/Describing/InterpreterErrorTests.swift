import Effects
import EffectsTestHelpers
import Foundation
import Testing

struct InterpreterErrorTests {
  struct DiskFull: Error {}

  @Test func theDescriptionNamesTheFailingEffectTheErrorAndWhatWasNotPerformed() {
    let error = InterpreterError<Effect>(
      index: 1,
      effect: .writeFile(path: "/a.txt", contents: Data("hi".utf8)),
      underlying: DiskFull(),
      notPerformed: [.print("saved"), .track(event: "save", properties: ["size": "2"])]
    )
    #expect(
      error.description == """
        effect at index 1 of 4 failed: writeFile(path: "/a.txt", contents: "hi")
          error: DiskFull()
          not performed (2): print("saved"), track(event: "save", properties: ["size": "2"])
        """
    )
  }

  @Test func theDescriptionSaysSoWhenTheLastEffectFailed() {
    let error = InterpreterError<Effect>(
      index: 0,
      effect: .removeFile(path: "/a.txt"),
      underlying: DiskFull(),
      notPerformed: []
    )
    #expect(
      error.description == """
        effect at index 0 of 1 failed: removeFile(path: "/a.txt")
          error: DiskFull()
          not performed: none (it was the last)
        """
    )
  }

  @Test func theLocalizedDescriptionIsTheSameText() {
    let error = InterpreterError<LoginEffect>(
      index: 0,
      effect: .storeToken("abc"),
      underlying: DiskFull(),
      notPerformed: [.showAlert("Welcome")]
    )
    #expect(error.localizedDescription == error.description)
    #expect(error.localizedDescription.contains(#"storeToken("abc")"#))
    #expect(error.localizedDescription.contains(#"not performed (1): showAlert("Welcome")"#))
  }

  /// The `error:` line of `error`'s description.
  private func errorLine(_ underlying: any Error) -> String {
    let error = InterpreterError<Effect>(index: 0, effect: .print("x"), underlying: underlying, notPerformed: [])
    return error.description.split(separator: "\n").map(String.init).first { $0.hasPrefix("  error: ") } ?? ""
  }

  @Test func aFileSystemFailureIsInPlainWordsNamingThePath() throws {
    var environment = Environment.live
    environment.fileWriter = InMemoryFileSystem(["/drafts": "a file"])
    let error = try #require(throws: InterpreterError<Effect>.self) {
      try Interpreter.live(environment: environment).perform([.writeFile(path: "/drafts/today.txt", contents: Data())])
    }
    #expect(
      errorLine(error.underlying)
        == "  error: Could not write /drafts/today.txt: a component of the path is a file; expected a directory."
    )
  }

  @Test func aFoundationErrorWithoutADescriptionIsThePathAndTheSystemsReason() {
    let error = CocoaError(
      .fileWriteUnknown,
      userInfo: [
        NSFilePathErrorKey: "/x/y", NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR)),
      ]
    )
    #expect(errorLine(error) == "  error: /x/y: \(String(cString: strerror(ENOTDIR))) (NSCocoaErrorDomain 512)")
  }

  @Test func noFoundationErrorIsPrintedAsARawDump() {
    let errors: [any Error] = [
      CocoaError(.fileNoSuchFile),
      CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/a"]),
      POSIXError(.EACCES),
      NSError(domain: "Example", code: 7, userInfo: [NSLocalizedDescriptionKey: "Seven went wrong."]),
      URLError(.notConnectedToInternet),
    ]
    for error in errors {
      let line = errorLine(error)
      #expect(!line.contains("Error Domain="), "\(line)")
      #expect(!line.contains("UserInfo="), "\(line)")
      #expect(line.count > "  error: ".count)
    }
    #expect(errorLine(errors[3]) == "  error: Seven went wrong.")
    #expect(errorLine(errors[1]).hasPrefix("  error: /a: "))
  }

  @Test func aSwiftErrorKeepsItsOwnDescription() {
    struct Refused: Error, CustomStringConvertible {
      var description: String { "the server refused the upload" }
    }
    struct Described: LocalizedError {
      var errorDescription: String? { "quota exceeded" }
    }
    #expect(errorLine(Refused()) == "  error: the server refused the upload")
    #expect(errorLine(Described()) == "  error: quota exceeded")
    #expect(errorLine(DiskFull()) == "  error: DiskFull()")
  }
}
