import Effects
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
}
