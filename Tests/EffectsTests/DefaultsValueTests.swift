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

  @Test func typeNamesNameTheCase() {
    let values: [DefaultsValue] = ["", 0, 0.0, true, .data(Data()), .date(Date()), [], [:]]
    #expect(values.map(\.typeName) == ["string", "int", "double", "bool", "data", "date", "array", "dictionary"])
  }
}
