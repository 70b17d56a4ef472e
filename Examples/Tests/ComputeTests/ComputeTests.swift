import Compute
import Effects
import EffectsTestSupport
import Foundation
import Testing

@Suite struct ComputeTests {
  /// Only the bundle and the file reader are declared: reading anything else fails the test.
  private func environment(files: [String: String]) -> Environment {
    var environment = Environment.unimplemented()
    environment.bundle = FixtureBundle(["number.txt": "/fixtures/number.txt"])
    environment.fileReader = InMemoryFileSystem(files)
    return environment
  }

  @Test func squaresTheNumberInTheBundledFileAndSaysSo() throws {
    let outcome = try compute(file: "number.txt", environment: environment(files: ["/fixtures/number.txt": "123\n"]))
    #expect(outcome.value == 15129)
    assertEffects(of: outcome, [.print("Computed: 15129")])
  }

  @Test func aMissingResourceIsAnErrorNamingIt() {
    let error = #expect(throws: ComputeError.self) {
      try compute(file: "other.txt", environment: environment(files: [:]))
    }
    #expect(error == .resourceNotFound("other.txt"))
    #expect(
      error?.description
        == #"No resource named "other.txt" in the bundle; expected a text file holding a whole number."#
    )
  }

  @Test func contentsThatAreNotANumberAreAnErrorQuotingThem() {
    let error = #expect(throws: ComputeError.self) {
      try compute(file: "number.txt", environment: environment(files: ["/fixtures/number.txt": "twelve"]))
    }
    #expect(error == .notAnInteger(path: "/fixtures/number.txt", contents: "twelve"))
  }

  @Test func anUnreadableFileIsAnErrorNamingThePath() {
    let error = #expect(throws: ComputeError.self) {
      // The bundle names a path, but no file is there.
      try compute(file: "number.txt", environment: environment(files: ["/fixtures/number.txt/x": "1"]))
    }
    guard case .unreadable(let path, let reason) = error else {
      Issue.record("expected .unreadable, got \(String(describing: error))")
      return
    }
    #expect(path == "/fixtures/number.txt")
    #expect(reason == "Could not read /fixtures/number.txt: it is a directory; expected a file.")
  }

  @Test func aSquareTooLargeForAnIntIsAnError() {
    let error = #expect(throws: ComputeError.self) {
      try compute(file: "number.txt", environment: environment(files: ["/fixtures/number.txt": "3037000500"]))
    }
    #expect(error == .tooLarge(path: "/fixtures/number.txt", value: 3_037_000_500))
  }

  /// The dual of asserting effects: assert what the function read, and in what order.
  @Test func readsTheBundleThenTheFileAndNothingElse() throws {
    let log = CallLog()
    let environment = environment(files: ["/fixtures/number.txt": "123"]).recording(into: log)
    _ = try compute(file: "number.txt", environment: environment)
    log.assertCalls([
      CallLog.Entry("bundle.path", "number.txt"),
      CallLog.Entry("fileReader.contents", "/fixtures/number.txt"),
    ])
  }

  @Test func theLiveInterpreterPrintsTheResultToTheEnvironmentsConsole() throws {
    var environment = environment(files: ["/fixtures/number.txt": "12"])
    environment.console = InMemoryConsole()  // the one target the interpreter may touch here
    let value = try Interpreter.live(environment: environment).perform(
      compute(file: "number.txt", environment: environment)
    )
    #expect(value == 144)
    #expect(environment.printedLines == ["Computed: 144"])
  }
}
