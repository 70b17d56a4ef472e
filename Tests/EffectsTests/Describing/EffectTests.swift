import Effects
import Foundation
import Testing

struct EffectTests {
  @Test func effectsWithTheSameContentsAreEqualAndHashTheSame() {
    let one = Effect.after(.seconds(1), [.track(event: "a", properties: ["x": "1", "y": "2"])])
    let two = Effect.after(.seconds(1), [.track(event: "a", properties: ["y": "2", "x": "1"])])
    #expect(one == two)
    #expect(Set([one, two]).count == 1)
    #expect(one != .after(.seconds(2), [.track(event: "a", properties: ["x": "1", "y": "2"])]))
  }

  @Test func everyCaseDescribesItselfLikeTheCodeThatMadeIt() {
    #expect(Effect.print("Computed: 15129").description == #"print("Computed: 15129")"#)
    #expect(
      Effect.writeFile(path: "/notes/today.txt", contents: Data("hi".utf8)).description
        == #"writeFile(path: "/notes/today.txt", contents: "hi")"#
    )
    #expect(Effect.removeFile(path: "/a.txt").description == #"removeFile(path: "/a.txt")"#)
    #expect(
      Effect.setDefault("dark", for: "theme").description == #"setDefault("dark", for: "theme")"#
    )
    #expect(Effect.setDefault(14, for: "size").description == #"setDefault(14, for: "size")"#)
    #expect(Effect.removeDefault(for: "theme").description == #"removeDefault(for: "theme")"#)
    #expect(
      Effect.track(event: "visited", properties: [:]).description == #"track(event: "visited", properties: [:])"#
    )
    #expect(
      Effect.after(.seconds(3), [.print("a"), .removeDefault(for: "b")]).description
        == #"after(.seconds(3), [print("a"), removeDefault(for: "b")])"#
    )
  }

  @Test func propertiesAreDescribedInKeyOrderWhateverTheirHashOrder() {
    let properties = Dictionary(uniqueKeysWithValues: (0..<20).map { ("key\($0 + 10)", "\($0)") })
    let description = Effect.track(event: "e", properties: properties).description
    let expected = (0..<20).map { #""key\#($0 + 10)": "\#($0)""# }.joined(separator: ", ")
    #expect(description == #"track(event: "e", properties: [\#(expected)])"#)
  }

  @Test func stringsAreQuotedAndEscapedSoEachEffectStaysOnOneLine() {
    #expect(Effect.print("say \"hi\"\nbye").description == #"print("say \"hi\"\nbye")"#)
  }

  @Test func longTextContentsShowAPreviewAndTheirSize() {
    let text = String(repeating: "abcde", count: 20)
    #expect(
      Effect.writeFile(path: "/a", contents: Data(text.utf8)).description
        == #"writeFile(path: "/a", contents: "abcdeabcdeabcdeabcdeabcdeabcdeabcdeabcde"… (100 bytes))"#
    )
  }

  @Test func binaryContentsShowTheirSize() {
    #expect(
      Effect.writeFile(path: "/a", contents: Data([0xFF, 0xFE, 0x00])).description
        == #"writeFile(path: "/a", contents: 3 bytes)"#
    )
    #expect(
      Effect.writeFile(path: "/a", contents: Data([0xFF])).description == #"writeFile(path: "/a", contents: 1 byte)"#
    )
  }

  @Test func emptyContentsShowAsAnEmptyString() {
    #expect(Effect.writeFile(path: "/a", contents: Data()).description == #"writeFile(path: "/a", contents: "")"#)
  }

  @Test(
    arguments: [
      (Duration.seconds(2), ".seconds(2)"),
      (.milliseconds(300), ".milliseconds(300)"),
      (.milliseconds(1500), ".milliseconds(1500)"),
      (.microseconds(7), ".microseconds(7)"),
      (.nanoseconds(42), ".nanoseconds(42)"),
      (.milliseconds(-1500), ".milliseconds(-1500)"),
      (.zero, ".seconds(0)"),
      (
        Duration(secondsComponent: 1, attosecondsComponent: 5), "Duration(secondsComponent: 1, attosecondsComponent: 5)"
      ),
    ]
  )
  func delaysAreDescribedInTheLargestExactUnit(delay: Duration, expected: String) {
    #expect(Effect.after(delay, []).description == "after(\(expected), [])")
  }
}
