import Effects
import Foundation
import Testing

@Suite struct DefaultsValueTests {
  @Test func literalsBuildTheMatchingCases() {
    let value: DefaultsValue = ["name": "Blob", "age": 42, "ratio": 0.5, "admin": false, "tags": ["a"]]
    #expect(
      value
        == .dictionary([
          "name": .string("Blob"), "age": .int(42), "ratio": .double(0.5), "admin": .bool(false),
          "tags": .array([.string("a")]),
        ])
    )
  }

  @Test func descriptionIsShortAndStable() {
    let value: DefaultsValue = ["b": [1, "x"], "a": true, "c": .data(Data([1, 2, 3]))]
    #expect(value.description == #"["a": true, "b": [1, "x"], "c": 3 bytes]"#)
    #expect(DefaultsValue.dictionary([:]).description == "[:]")
  }

  @Test func dataThatIsPrintableTextShowsTheText() {
    #expect(DefaultsValue.data(Data(#"{"age":42}"#.utf8)).description == #"data({"age":42})"#)
    let long = String(repeating: "abcde", count: 20)
    #expect(DefaultsValue.data(Data(long.utf8)).description == "data(\(long.prefix(60))… 100 bytes)")
  }

  @Test func dataThatIsNotPrintableTextShowsItsSize() {
    #expect(DefaultsValue.data(Data([0xFF, 0xFE])).description == "2 bytes")
    #expect(DefaultsValue.data(Data("a\nb".utf8)).description == "3 bytes", "a line break is not printed")
    #expect(DefaultsValue.data(Data([0xFF])).description == "1 byte")
    #expect(DefaultsValue.data(Data()).description == "0 bytes")
  }

  @Test func typeNamesNameTheCase() {
    let values: [DefaultsValue] = ["", 0, 0.0, true, .data(Data()), .date(Date()), [], [:]]
    #expect(values.map(\.typeName) == ["string", "int", "double", "bool", "data", "date", "array", "dictionary"])
  }
}
